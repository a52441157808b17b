#include "stokesian/core/errors.hpp"

namespace stokesian {

namespace {
std::string compose(const std::string& file, const std::string& key, const std::string& value,
                    const std::string& expected) {
    std::string m = file;
    if (!key.empty()) m += (m.empty() ? "" : ": ") + std::string("key '") + key + "'";
    if (!value.empty()) m += " = " + value;
    if (!expected.empty()) m += (m.empty() ? "" : ": ") + expected;
    return m;
}
}  // namespace

input_error::input_error(std::string file, std::string key, std::string value, std::string expected)
    : std::runtime_error(compose(file, key, value, expected)) {}

}  // namespace stokesian
