#pragma once
// The precision modes as run-time values: their names, parsing, and the list of all of them, each
// generated from the list of precisions (numeric/precision_traits.hpp).
#include <array>
#include <string>
#include <string_view>

#include "stokesian/numeric/precision.hpp"

namespace stokesian {

// Every mode (hi, int) of precisions x precisions, hi-major in the order of the list (f32 first).
inline constexpr auto precision_modes = [] {
    std::array<precision_mode, precisions.size() * precisions.size()> modes{};
    std::size_t k = 0;
    for (const precision hi : precisions)
        for (const precision in : precisions) modes[k++] = {hi, in};
    return modes;
}();

// The names of the precisions, in the order of the list, joined by `separator` ("f32, ds, f64").
std::string precision_names(std::string_view separator);

// How a mode is spelled, from the list of precisions: "hi=<f32|ds|f64>,int=<f32|ds|f64> (either
// order), <hi>/<int> (ds/f32) or one precision for both (f64)"; the one text that run.precision's
// reference row, --precision's help and the parser's messages give.
std::string precision_mode_spellings();

// "hi=ds,int=f32"
std::string to_string(precision_mode m);
// "f32" -> precision::f32; throws std::invalid_argument naming the accepted words.
precision parse_precision(std::string_view word);
// Parses a mode as the scenario key run.precision and --precision spell it: "hi=ds,int=f32" (also
// "int=f32,hi=ds"), "ds/f32" (hi/int) or "f64" (one precision for both, "hi=f64,int=f64"); throws
// std::invalid_argument with a message that lists the accepted spellings.
precision_mode parse_precision_mode(std::string_view text);

// The paper's four combinations (Figs. 4 and 5) and the double-precision reference.
inline constexpr std::array<precision_mode, 5> paper_precision_modes{{
    {precision::ds, precision::ds},
    {precision::ds, precision::f32},
    {precision::f32, precision::ds},
    {precision::f32, precision::f32},
    {precision::f64, precision::f64},
}};
inline constexpr precision_mode reference_precision_mode{precision::f64, precision::f64};

}  // namespace stokesian
