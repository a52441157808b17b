#pragma once
// Numbers as the engine writes them into messages, descriptions and provenance.
#include <cstdio>
#include <sstream>
#include <string>

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

}  // namespace stokesian
