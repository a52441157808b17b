#pragma once
// Numbers as the engine writes them into messages, descriptions and provenance, and reads them
// back from the text attributes of result, reference and checkpoint files.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace stokesian {

// Six significant digits ("%.6g"): for a person reading a message or a description.
inline std::string short_number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", x);
    return text;
}

// Seventeen significant digits: reads back as the same double (provenance, bad-input messages).
inline std::string exact_number(double x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
}

// The whole text as a count (decimal digits only: no sign, no space, nothing after), or nothing.
// strtoull would take "-1" for 2^64 - 1 and " 7x" for 7.
inline std::optional<std::uint64_t> read_count(std::string_view text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// The whole text as a double (what exact_number and short_number write, "inf" and "nan"
// included), or nothing.
inline std::optional<double> read_number(std::string_view text) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace stokesian
