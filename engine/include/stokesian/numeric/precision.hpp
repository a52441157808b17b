#pragma once
// Precision modes (paper, Section 5): the precision of (a) the accumulation of hydrodynamic
// interactions v_i = sum_j mu_ij F_j ("hi") and (b) the stored positions and their update
// ("integration") are chosen independently at run time, each one of f32, ds (float-float), f64.
//
// A mode is a type, precision_policy<Hi, Int>; the run-time name is mapped to the type once, by
// dispatch_precision() below, and every supported mode is instantiated explicitly in one place
// per backend (engine/src/*/instantiate_*.cpp).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "stokesian/config.hpp"
#include "stokesian/numeric/float_float.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

enum class precision : std::uint8_t { f32, ds, f64 };

struct precision_mode {
    precision hi = precision::f64;           // accumulation of hydrodynamic interactions
    precision integration = precision::f64;  // stored positions and the position update
    friend bool operator==(precision_mode, precision_mode) = default;
};

std::string_view to_string(precision p) noexcept;
// "hi=ds,int=f32"
std::string to_string(precision_mode m);
// Parses "hi=ds,int=f32" (also "int=f32,hi=ds"); throws std::invalid_argument with a message that
// lists the accepted spellings.
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

template <precision P>
struct storage_of;
template <>
struct storage_of<precision::f32> {
    using type = float;
};
template <>
struct storage_of<precision::ds> {
    using type = float_float;
};
template <>
struct storage_of<precision::f64> {
    using type = double;
};

template <precision Hi, precision Int>
struct precision_policy {
    static constexpr precision hi = Hi;
    static constexpr precision integration = Int;
    static constexpr precision_mode mode{Hi, Int};
    // The HI sum is accumulated in this type; the velocity is stored in it, too.
    using accumulator = typename storage_of<Hi>::type;
    // Pair tensors, forces and the positions fed to them: single precision for f32 and ds
    // accumulation (as in the paper), double for f64.
    using working = std::conditional_t<Hi == precision::f64, double, float>;
    // Stored positions, time step and the position update r <- r + dt v.
    using position = typename storage_of<Int>::type;
};

// ---- named value conversions --------------------------------------------------------------
// value_cast<To>(x): the only way between float, float_float and double in the engine.
// Widening conversions are exact; narrowing ones round to nearest.
template <class To>
struct value_cast_t;
template <>
struct value_cast_t<float> {
    STOKESIAN_HD static float from(float x) { return x; }
    STOKESIAN_HD static float from(double x) { return static_cast<float>(x); }
    STOKESIAN_HD static float from(float_float x) { return to_float(x); }
};
template <>
struct value_cast_t<double> {
    STOKESIAN_HD static double from(float x) { return static_cast<double>(x); }
    STOKESIAN_HD static double from(double x) { return x; }
    STOKESIAN_HD static double from(float_float x) { return to_double(x); }
};
template <>
struct value_cast_t<float_float> {
    STOKESIAN_HD static float_float from(float x) { return float_float::exact(x); }
    STOKESIAN_HD static float_float from(double x) { return float_float::from_double(x); }
    STOKESIAN_HD static float_float from(float_float x) { return x; }
};
template <class To, class From>
STOKESIAN_HD_INLINE To value_cast(From x) {
    return value_cast_t<To>::from(x);
}
template <class To, class From>
STOKESIAN_HD_INLINE vec3<To> value_cast(vec3<From> v) {
    return {value_cast<To>(v.x), value_cast<To>(v.y), value_cast<To>(v.z)};
}

// ---- run-time name -> type ----------------------------------------------------------------
// Calls f(precision_policy<Hi, Int>{}) for the mode m. All nine combinations are supported.
template <class F>
decltype(auto) dispatch_precision(precision_mode m, F&& f) {
    auto with_int = [&]<precision Hi>() -> decltype(auto) {
        switch (m.integration) {
            case precision::f32: return f(precision_policy<Hi, precision::f32>{});
            case precision::ds: return f(precision_policy<Hi, precision::ds>{});
            default: return f(precision_policy<Hi, precision::f64>{});
        }
    };
    switch (m.hi) {
        case precision::f32: return with_int.template operator()<precision::f32>();
        case precision::ds: return with_int.template operator()<precision::ds>();
        default: return with_int.template operator()<precision::f64>();
    }
}

}  // namespace stokesian
