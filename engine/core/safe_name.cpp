// Safe file names (stokesian/core/safe_name.hpp).
#include "stokesian/core/safe_name.hpp"

#include <cstdio>

#include "stokesian/core/errors.hpp"

namespace stokesian {

namespace {
bool safe_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-' || c == '+';
}
}  // namespace

std::string unsafe_name_reason(std::string_view name) {
    if (name.empty()) return "it is empty";
    if (name.size() > max_safe_name_length)
        return "longer than " + std::to_string(max_safe_name_length) + " characters";
    if (name.front() == '.' || name.front() == '-') return "it starts with '" + std::string(1, name.front()) + "'";
    for (const char c : name)
        if (!safe_character(c)) {
            const std::string shown = c == '/' ? "'/'" : c == '\0' ? "NUL" : quoted_printable(std::string_view(&c, 1));
            return "it contains " + shown + " (allowed: letters, digits, '.', '_', '-', '+')";
        }
    return {};
}

void require_safe_name(std::string_view name, const std::string& file, const std::string& key) {
    const std::string why = unsafe_name_reason(name);
    if (!why.empty()) throw input_error(file, key, quoted_printable(name), "not a safe file name: " + why);
}

std::string quoted_printable(std::string_view text) {
    // A message stays one readable line: at most the first 120 bytes of the text.
    constexpr std::size_t shown = 120;
    std::string out = "\"";
    for (const char c : text.substr(0, shown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    out += "\"";
    if (text.size() > shown)
        out += " (" + std::to_string(text.size()) + " bytes, the first " + std::to_string(shown) + " shown)";
    return out;
}

}  // namespace stokesian
