#pragma once
// Precision modes (paper, Section 5): the precision of (a) the accumulation of hydrodynamic
// interactions v_i = sum_j mu_ij F_j ("hi") and (b) the stored positions and their update
// ("integration") are chosen independently at run time, each one of the list of storage precisions
// (numeric/precision_traits.hpp: f32, ds (float-float), f64).
//
// A mode is a type, precision_policy<Hi, Int>; the run-time mode is mapped to the type once, by
// dispatch_precision() below, and every mode is instantiated explicitly once per backend by
// STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE, both generated from the list. The run-time names,
// parsing and the list of modes as values: core/precision_modes.hpp.
#include <boost/preprocessor/seq/elem.hpp>
#include <boost/preprocessor/seq/for_each_product.hpp>

#include <type_traits>

#include "stokesian/config.hpp"
#include "stokesian/numeric/float_float.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

struct precision_mode {
    precision hi = precision::f64;           // accumulation of hydrodynamic interactions
    precision integration = precision::f64;  // stored positions and the position update
    friend bool operator==(precision_mode, precision_mode) = default;
};

template <precision Hi, precision Int>
struct precision_policy {
    static constexpr precision hi = Hi;
    static constexpr precision integration = Int;
    static constexpr precision_mode mode{Hi, Int};
    // The HI sum is accumulated in this type; the velocity is stored in it, too.
    using accumulator = typename precision_traits<Hi>::storage;
    // Pair tensors, forces and the positions fed to them: single precision for f32 and ds
    // accumulation (as in the paper), double for f64.
    using working = typename precision_traits<precision_traits<Hi>::working>::storage;
    // Stored positions, time step and the position update r <- r + dt v.
    using position = typename precision_traits<Int>::storage;
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

// ---- run-time mode -> type ----------------------------------------------------------------
// Calls f(precision_policy<Hi, Int>{}) for the mode m; every combination of the list is supported.
template <class F>
decltype(auto) dispatch_precision(precision_mode m, F&& f) {
    return visit_precision(m.hi, [&]<class Hi>(Hi) -> decltype(auto) {
        return visit_precision(m.integration, [&]<class Int>(Int) -> decltype(auto) {
            return f(precision_policy<Hi::value, Int::value>{});
        });
    });
}

// The working precision (pair terms, forces) of a sum in precision hi.
constexpr precision working_precision(precision hi) { return precision_info_of(hi).working; }

// ---- explicit instantiation, once per backend ----------------------------------------------
// STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(cpu_engine) declares
//   template class cpu_engine<precision_policy<precision::Hi, precision::Int>>;
// for every (Hi, Int) of STOKESIAN_PRECISIONS x STOKESIAN_PRECISIONS (in the namespace of the template).
#define STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(TEMPLATE)              \
    BOOST_PP_SEQ_FOR_EACH_PRODUCT(STOKESIAN_INSTANTIATE_ONE_PRECISION_MODE_, \
                                  ((TEMPLATE))(STOKESIAN_PRECISIONS)(STOKESIAN_PRECISIONS))
#define STOKESIAN_INSTANTIATE_ONE_PRECISION_MODE_(r, product)                                            \
    template class BOOST_PP_SEQ_ELEM(                                                                    \
        0, product)<::stokesian::precision_policy<::stokesian::precision::BOOST_PP_SEQ_ELEM(1, product), \
                                                  ::stokesian::precision::BOOST_PP_SEQ_ELEM(2, product)>>;

}  // namespace stokesian
