#pragma once
// float_float: the "double-single" (ds) number hi + lo of two floats (a double-word number).
//
// Every operation is built from error-free transforms (EFTs). Notation: p = 24 bits of precision,
// u = 2^-24 the unit roundoff of float, RN round-to-nearest-even. A pair (hi, lo) is normalised
// when hi = RN(hi + lo); all operations take and return normalised pairs. The relative error
// bounds quoted below hold when no underflow or overflow occurs in an intermediate result.
//
// The EFTs only hold if the compiler evaluates each float operation exactly as written:
//  - host: this header is compiled with -ffp-contract=off and without -ffast-math
//    (cmake/StokesianCompilerFlags.cmake); compiling it with -ffast-math is an error below, and
//    tests/unit/float_float_compilation_test.cpp fails if reassociation or contraction sneaks in;
//  - device: every operation goes through the __fadd_rn/__fmul_rn/__fmaf_rn intrinsics, which
//    nvcc never contracts or approximates, whatever -fmad/--use_fast_math say.
//
// No implicit conversions: a float_float is built with float_float::exact(f), from_double(d)
// or from its two words, and left with to_float / to_double.
#include <cmath>

#include "stokesian/config.hpp"

#if defined(__FAST_MATH__)
#error "float_float relies on error-free transforms: do not compile it with -ffast-math"
#endif

namespace stokesian {

namespace eft {

// Correctly rounded float operations that the compiler may neither fuse nor reorder.
STOKESIAN_HD_INLINE float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
STOKESIAN_HD_INLINE float sub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
STOKESIAN_HD_INLINE float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
// fma(a, b, c) = RN(a*b + c) with a single rounding.
STOKESIAN_HD_INLINE float fma_rn(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}
STOKESIAN_HD_INLINE bool is_finite(float a) {
#if defined(__CUDA_ARCH__)
    return isfinite(a);
#else
    return std::isfinite(a);
#endif
}

struct pair {
    float hi, lo;
};

// 2Sum (Møller 1965; Knuth, TAOCP vol. 2): s + t = a + b exactly, s = RN(a + b), for any
// finite a, b (also when the result is subnormal). 6 operations.
STOKESIAN_HD_INLINE pair two_sum(float a, float b) {
    const float s = add_rn(a, b);
    const float a_rounded = sub_rn(s, b);
    const float b_rounded = sub_rn(s, a_rounded);
    const float a_error = sub_rn(a, a_rounded);
    const float b_error = sub_rn(b, b_rounded);
    return {s, add_rn(a_error, b_error)};
}

// Fast2Sum (Dekker 1971): s + t = a + b exactly, s = RN(a + b), provided the exponent of a is
// not smaller than that of b (e.g. |a| >= |b|) or a == 0. 3 operations.
STOKESIAN_HD_INLINE pair fast_two_sum(float a, float b) {
    const float s = add_rn(a, b);
    const float b_rounded = sub_rn(s, a);
    return {s, sub_rn(b, b_rounded)};
}

// 2Prod with FMA (e.g. Muller et al., Handbook of Floating-Point Arithmetic, 2018, Alg. 5.1):
// p + e = a * b exactly, p = RN(a b), provided e_a + e_b >= e_min + p - 1 (no underflow).
STOKESIAN_HD_INLINE pair two_prod(float a, float b) {
    const float p = mul_rn(a, b);
    return {p, fma_rn(a, b, -p)};
}

}  // namespace eft

struct float_float {
    float hi = 0.0f;
    float lo = 0.0f;

    // The exact value f (lo = 0).
    STOKESIAN_HD static constexpr float_float exact(float f) { return {f, 0.0f}; }
    // The nearest normalised pair: hi = RN_float(d), lo = RN_float(d - hi). d - hi is exact in
    // double; the result differs from d by at most u^2 |d| (rounding of lo) unless d over-/underflows.
    STOKESIAN_HD static float_float from_double(double d) {
        const float h = static_cast<float>(d);
        if (!eft::is_finite(h)) return {h, 0.0f};
        return {h, static_cast<float>(d - static_cast<double>(h))};
    }
    // Normalises an arbitrary pair (hi, lo) whose hi dominates: Fast2Sum.
    STOKESIAN_HD static float_float normalise(float h, float l) {
        const eft::pair s = eft::fast_two_sum(h, l);
        return {s.hi, s.lo};
    }
};

// The nearest float: for a normalised pair that is hi by definition.
STOKESIAN_HD_INLINE float to_float(float_float x) { return x.hi; }
// hi + lo rounded once to double: exact when lo is within 29 binades of hi (the usual case),
// otherwise within 2^-53 relative. Keeps the sign of a zero hi.
STOKESIAN_HD_INLINE double to_double(float_float x) {
    return x.lo == 0.0f ? static_cast<double>(x.hi)
                        : static_cast<double>(x.hi) + static_cast<double>(x.lo);
}

STOKESIAN_HD_INLINE float_float operator-(float_float x) { return {-x.hi, -x.lo}; }

// DWPlusFP, Joldes, Muller & Popescu (2017), ACM TOMS 44(2), Algorithm 4:
// relative error <= 2u^2 / (1 + 2u) < 2u^2. 10 operations.
// Non-finite results propagate as in float arithmetic: hi = RN(x.hi + y), lo = 0.
STOKESIAN_HD_INLINE float_float operator+(float_float x, float y) {
    const eft::pair s = eft::two_sum(x.hi, y);
    if (!eft::is_finite(s.hi)) return {s.hi, 0.0f};
    const float v = eft::add_rn(x.lo, s.lo);
    const eft::pair z = eft::fast_two_sum(s.hi, v);
    return {z.hi, z.lo};
}
STOKESIAN_HD_INLINE float_float operator+(float y, float_float x) { return x + y; }
STOKESIAN_HD_INLINE float_float operator-(float_float x, float y) { return x + (-y); }

// AccurateDWPlusDW, Joldes, Muller & Popescu (2017), Algorithm 6:
// relative error <= 3u^2 / (1 - 4u) = 3u^2 + 12u^3 + O(u^4) (their Theorem 3.3). 20 operations.
// (The cheaper "sloppy" variant has no relative bound when x and y have opposite signs, which
// position updates produce all the time, so it is not offered.)
STOKESIAN_HD_INLINE float_float operator+(float_float x, float_float y) {
    const eft::pair s = eft::two_sum(x.hi, y.hi);
    if (!eft::is_finite(s.hi)) return {s.hi, 0.0f};
    const eft::pair t = eft::two_sum(x.lo, y.lo);
    const float c = eft::add_rn(s.lo, t.hi);
    const eft::pair v = eft::fast_two_sum(s.hi, c);
    const float w = eft::add_rn(t.lo, v.lo);
    const eft::pair z = eft::fast_two_sum(v.hi, w);
    return {z.hi, z.lo};
}
STOKESIAN_HD_INLINE float_float operator-(float_float x, float_float y) { return x + (-y); }

// DWTimesFP3 (with FMA), Joldes, Muller & Popescu (2017), Algorithm 9:
// relative error <= 2u^2 (their Theorem 4.3). 6 operations.
STOKESIAN_HD_INLINE float_float operator*(float_float x, float y) {
    const eft::pair c = eft::two_prod(x.hi, y);
    if (!eft::is_finite(c.hi)) return {c.hi, 0.0f};
    const float cl3 = eft::fma_rn(x.lo, y, c.lo);
    const eft::pair z = eft::fast_two_sum(c.hi, cl3);
    return {z.hi, z.lo};
}
STOKESIAN_HD_INLINE float_float operator*(float y, float_float x) { return x * y; }

// DWTimesDW3 (with FMA), Joldes, Muller & Popescu (2017), Algorithm 12:
// relative error <= 5u^2 (their Theorem 5.3; Muller & Rideau 2022 tighten it to 4u^2).
// 9 operations.
STOKESIAN_HD_INLINE float_float operator*(float_float x, float_float y) {
    const eft::pair c = eft::two_prod(x.hi, y.hi);
    if (!eft::is_finite(c.hi)) return {c.hi, 0.0f};
    const float tl0 = eft::mul_rn(x.lo, y.lo);
    const float tl1 = eft::fma_rn(x.hi, y.lo, tl0);
    const float cl2 = eft::fma_rn(x.lo, y.hi, tl1);
    const float cl3 = eft::add_rn(c.lo, cl2);
    const eft::pair z = eft::fast_two_sum(c.hi, cl3);
    return {z.hi, z.lo};
}

STOKESIAN_HD_INLINE float_float& operator+=(float_float& x, float y) { x = x + y; return x; }
STOKESIAN_HD_INLINE float_float& operator+=(float_float& x, float_float y) { x = x + y; return x; }

// Comparisons of normalised pairs: lexicographic on (hi, lo).
STOKESIAN_HD_INLINE bool operator==(float_float x, float_float y) { return x.hi == y.hi && x.lo == y.lo; }
STOKESIAN_HD_INLINE bool operator<(float_float x, float_float y) { return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo); }
STOKESIAN_HD_INLINE bool operator>(float_float x, float_float y) { return y < x; }
STOKESIAN_HD_INLINE bool operator<(float_float x, float y) { return x < float_float::exact(y); }
STOKESIAN_HD_INLINE bool operator>(float_float x, float y) { return float_float::exact(y) < x; }

}  // namespace stokesian
