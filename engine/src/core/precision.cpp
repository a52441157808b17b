#include "stokesian/numeric/precision.hpp"

#include <stdexcept>

#include "stokesian/core/errors.hpp"

namespace stokesian {

std::string_view to_string(precision p) noexcept {
    switch (p) {
        case precision::f32: return "f32";
        case precision::ds: return "ds";
        case precision::f64: return "f64";
    }
    return "?";
}

std::string to_string(precision_mode m) {
    return "hi=" + std::string(to_string(m.hi)) + ",int=" + std::string(to_string(m.integration));
}

namespace {
precision parse_precision(std::string_view word, std::string_view whole) {
    if (word == "f32") return precision::f32;
    if (word == "ds") return precision::ds;
    if (word == "f64") return precision::f64;
    throw std::invalid_argument("precision '" + echoed(whole) + "': '" + echoed(word) +
                                "' is not one of f32, ds, f64 (expected e.g. hi=ds,int=f32)");
}
}  // namespace

precision_mode parse_precision_mode(std::string_view text) {
    precision_mode m;
    bool have_hi = false, have_int = false;
    std::string_view rest = text;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        const auto eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        if (eq == std::string_view::npos || (key != "hi" && key != "int"))
            throw std::invalid_argument("precision '" + echoed(text) + "': expected hi=<f32|ds|f64>,int=<f32|ds|f64>");
        const precision p = parse_precision(item.substr(eq + 1), text);
        if (key == "hi") {
            if (have_hi) throw std::invalid_argument("precision '" + echoed(text) + "': hi given twice");
            m.hi = p;
            have_hi = true;
        } else {
            if (have_int) throw std::invalid_argument("precision '" + echoed(text) + "': int given twice");
            m.integration = p;
            have_int = true;
        }
    }
    if (!have_hi || !have_int)
        throw std::invalid_argument("precision '" + echoed(text) +
                                    "': both hi= and int= are required, e.g. hi=ds,int=f32");
    return m;
}

}  // namespace stokesian
