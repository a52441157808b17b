// JSON documents as text (stokesian/io/json_text.hpp).
#include "stokesian/io/json_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "stokesian/observables/count_names.hpp"

namespace stokesian::io {

std::string json_text(const json& document, int indent) {
    return document.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

json json_quantity(std::string_view name, double value) {
    // |value| < 2^53: every such whole double is an exact int64.
    if (is_count(name) && std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 0x1p53)
        return static_cast<std::int64_t>(value);
    return value;
}

json json_number_from_text(const std::string& text) {
    if (text.empty()) return nullptr;
    if (text.find_first_not_of("0123456789") == std::string::npos && text.size() <= 19)
        return static_cast<std::uint64_t>(std::strtoull(text.c_str(), nullptr, 10));
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0') return nullptr;
    return value;  // NaN and infinities are written as null
}

json json_object(const std::map<std::string, std::string>& values) {
    json out = json::object();
    for (const auto& [key, value] : values) out[key] = value;
    return out;
}

}  // namespace stokesian::io
