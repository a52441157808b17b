#include "stokesian/core/precision_modes.hpp"

#include <stdexcept>

#include "stokesian/core/errors.hpp"

namespace stokesian {

std::string precision_names(std::string_view separator) {
    std::string names;
    for (const precision p : precisions)
        names += (names.empty() ? "" : std::string(separator)) + std::string(to_string(p));
    return names;
}

std::string precision_mode_spellings() {
    const std::string one = "<" + precision_names("|") + ">";
    return "hi=" + one + ",int=" + one + " (either order), <hi>/<int> (ds/f32) or one precision for both (f64)";
}

std::string to_string(precision_mode m) {
    return "hi=" + std::string(to_string(m.hi)) + ",int=" + std::string(to_string(m.integration));
}

namespace {
// The precision named `word`, or nullptr.
const precision* find_precision(std::string_view word) {
    for (const precision& p : precisions)
        if (word == to_string(p)) return &p;
    return nullptr;
}

precision parse_precision(std::string_view word, std::string_view whole) {
    if (const precision* p = find_precision(word)) return *p;
    throw std::invalid_argument("precision '" + echoed(whole) + "': '" + echoed(word) + "' is not one of " +
                                precision_names(", ") + " (expected e.g. hi=ds,int=f32)");
}
}  // namespace

precision parse_precision(std::string_view word) {
    if (const precision* p = find_precision(word)) return *p;
    throw std::invalid_argument("precision '" + echoed(word) + "' is not one of " + precision_names(", "));
}

precision_mode parse_precision_mode(std::string_view text) {
    // The short spellings: "ds/f32" (hi/int) and "f64" (one precision for both).
    if (const std::size_t slash = text.find('/'); slash != std::string_view::npos && text.find('=') == text.npos)
        return {parse_precision(text.substr(0, slash), text), parse_precision(text.substr(slash + 1), text)};
    if (const precision* p = find_precision(text)) return {*p, *p};
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
            throw std::invalid_argument("precision '" + echoed(text) + "': expected " + precision_mode_spellings());
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
