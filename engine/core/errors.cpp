#include "stokesian/core/errors.hpp"

namespace stokesian {

std::string echoed(std::string_view value) {
    constexpr std::size_t whole = 80, shown = 60;
    if (value.size() <= whole) return std::string(value);
    std::size_t cut = shown;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    return std::string(value.substr(0, cut)) + "... (" + std::to_string(value.size()) + " bytes)";
}

namespace {
std::string compose(const std::string& file, const std::string& key, const std::string& value,
                    const std::string& expected) {
    std::string m = file;
    if (!key.empty()) m += (m.empty() ? "" : ": ") + std::string("key '") + key + "'";
    if (!value.empty()) m += " = " + echoed(value);
    if (!expected.empty()) m += (m.empty() ? "" : ": ") + expected;
    return m;
}
}  // namespace

input_error::input_error(std::string file, std::string key, std::string value, std::string expected)
    : std::runtime_error(compose(file, key, value, expected)) {}

}  // namespace stokesian
