#pragma once
// The storage precisions (paper, Section 5) and what each one is: ONE list, STOKESIAN_PRECISIONS,
// and one precision_traits<P> per entry. The enum, the run-time names and parsing
// (core/precision_modes.hpp), dispatch and the explicit instantiations (numeric/precision.hpp), the
// checkpoint words and port-check's rounding units, storage names and ULP distances are all generated
// from these two, and so are the per-precision CUDA files (cmake/StokesianExtensions.cmake reads the
// list): engine/README.md, "How to add a precision mode".
#include <boost/preprocessor/seq/enum.hpp>
#include <boost/preprocessor/seq/for_each.hpp>
#include <boost/preprocessor/seq/size.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <type_traits>

#include "stokesian/numeric/float_float.hpp"
#include "stokesian/numeric/precision_extensions.hpp"

namespace stokesian {

// The list, in increasing precision. A Boost.Preprocessor sequence, because the explicit
// instantiations (a declaration per mode) can only be written out by the preprocessor. A build may
// append precisions without editing this file (STOKESIAN_EXTRA_PRECISIONS: generated, empty unless
// CMake's STOKESIAN_EXTRA_PRECISION_HEADERS names some; the recipe proof does, tests/recipes/).
#define STOKESIAN_PRECISIONS (f32)(ds)(f64)STOKESIAN_EXTRA_PRECISIONS

enum class precision : std::uint8_t { BOOST_PP_SEQ_ENUM(STOKESIAN_PRECISIONS) };

#define STOKESIAN_PRECISION_ENUMERATOR_(r, data, p) precision::p,
inline constexpr std::array<precision, BOOST_PP_SEQ_SIZE(STOKESIAN_PRECISIONS)> precisions{
    BOOST_PP_SEQ_FOR_EACH(STOKESIAN_PRECISION_ENUMERATOR_, ~, STOKESIAN_PRECISIONS)};
#undef STOKESIAN_PRECISION_ENUMERATOR_

// X(f32) X(ds) X(f64): for declarations per precision.
#define STOKESIAN_FOR_EACH_PRECISION(X) BOOST_PP_SEQ_FOR_EACH(STOKESIAN_PRECISION_CALL_, X, STOKESIAN_PRECISIONS)
#define STOKESIAN_PRECISION_CALL_(r, X, p) X(p)

namespace ulp_detail {
// Order-preserving integer image of a float / double (ULP distances are differences of these).
inline std::int64_t ordered(float x) {
    const auto b = std::bit_cast<std::int32_t>(x);
    return b < 0 ? std::int64_t(std::numeric_limits<std::int32_t>::min()) - b : b;
}
inline long double ordered(double x) {
    const auto b = std::bit_cast<std::int64_t>(x);
    return b < 0 ? (long double)std::numeric_limits<std::int64_t>::min() - (long double)b : (long double)b;
}
}  // namespace ulp_detail

// Each specialisation: the mode-name word (`name`), the name of its storage in port-check records
// (`storage_name`), the stored type and the words it is stored as (checkpoints, records: `words` values
// of type `word`), the unit roundoff of adding a term to a sum held in this precision, the precision
// of the pair terms (tensors, forces) a sum in this precision is fed with (`working`), and the
// distance of two stored values (given as their words) in units in the last place of the storage.
template <precision P>
struct precision_traits;

template <>
struct precision_traits<precision::f32> {
    static constexpr std::string_view name = "f32", storage_name = "float32";
    using storage = float;
    using word = float;
    static constexpr int words = 1;
    static constexpr double unit_roundoff = 0x1p-24;
    static constexpr precision working = precision::f32;
    static double ulp_distance(double a_hi, double, double b_hi, double) {
        return double(std::llabs(ulp_detail::ordered(float(a_hi)) - ulp_detail::ordered(float(b_hi))));
    }
};

template <>
struct precision_traits<precision::ds> {
    static constexpr std::string_view name = "ds", storage_name = "float_float";
    using storage = float_float;
    using word = float;
    static constexpr int words = 2;
    // 2u^2 with u = 2^-24: the relative error bound of DWPlusFP (Joldes, Muller & Popescu, ACM TOMS
    // 44(2), 2017), the float_float + float of the HI sum; the representation itself holds 48 bits.
    static constexpr double unit_roundoff = 0x1p-47;
    static constexpr precision working = precision::f32;  // single-precision tensors, as the paper
    // Units of the 48-bit significand of a's high word.
    static double ulp_distance(double a_hi, double a_lo, double b_hi, double b_lo) {
        const long double diff = ((long double)a_hi - (long double)b_hi) + ((long double)a_lo - (long double)b_lo);
        if (diff == 0) return 0.0;
        const float h = float(a_hi);
        const long double ulp = h == 0.0f ? std::ldexp(1.0L, -149 - 24) : std::ldexp(1.0L, std::ilogb(h) - 47);
        return double(std::fabs(diff) / ulp);
    }
};

template <>
struct precision_traits<precision::f64> {
    static constexpr std::string_view name = "f64", storage_name = "float64";
    using storage = double;
    using word = double;
    static constexpr int words = 1;
    static constexpr double unit_roundoff = 0x1p-53;
    static constexpr precision working = precision::f64;
    static double ulp_distance(double a_hi, double, double b_hi, double) {
        return double(std::fabs(ulp_detail::ordered(a_hi) - ulp_detail::ordered(b_hi)));
    }
};

}  // namespace stokesian

// The traits of the appended precisions (generated; empty by default).
#include "stokesian/numeric/precision_extension_traits.hpp"

namespace stokesian {

// Calls f(std::integral_constant<precision, P>{}) for the run-time precision p (the last of the list
// for a value outside it), so that a run-time value reaches the traits of its type.
template <std::size_t I = 0, class F>
constexpr decltype(auto) visit_precision(precision p, F&& f) {
    using constant = std::integral_constant<precision, precisions[I]>;
    if constexpr (I + 1 == precisions.size()) {
        return f(constant{});
    } else {
        if (p == constant::value) return f(constant{});
        return visit_precision<I + 1>(p, static_cast<F&&>(f));
    }
}

// The traits of a run-time precision, as values.
struct precision_info {
    std::string_view name, storage_name;
    int words = 1;
    int word_bits = 64;  // 32: the words are floats
    double unit_roundoff = 0.0;
    precision working = precision::f64;
    double (*ulp_distance)(double a_hi, double a_lo, double b_hi, double b_lo) = nullptr;
};

constexpr precision_info precision_info_of(precision p) {
    return visit_precision(p, []<class Constant>(Constant) {
        using traits = precision_traits<Constant::value>;
        return precision_info{
            traits::name,          traits::storage_name, traits::words,        int(8 * sizeof(typename traits::word)),
            traits::unit_roundoff, traits::working,      &traits::ulp_distance};
    });
}

// "f32", "ds", "f64" ("?" for a value outside the list).
constexpr std::string_view to_string(precision p) noexcept {
    for (const precision q : precisions)
        if (q == p) return precision_info_of(p).name;
    return "?";
}

}  // namespace stokesian
