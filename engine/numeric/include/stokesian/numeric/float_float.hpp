#pragma once
// float_float: the "double-single" (ds) number hi + lo of two floats (a double-word number).
//
// Every operation is built from error-free transforms (EFTs). Notation: p = 24 bits of precision,
// u = 2^-24 the unit roundoff of float, RN round-to-nearest-even. A pair (hi, lo) is normalised
// when hi = RN(hi + lo); all operations take and return normalised pairs. The normalised pair of a
// value is unique (hi = RN(value), lo = value - hi), which is what makes the lexicographic
// comparisons below and bitwise reproducibility checks meaningful. The relative error bounds quoted
// below hold when no underflow or overflow occurs in an intermediate result.
//
// Special values: an operation whose float leading part overflows or meets inf/NaN returns
// (RN-float result, 0), as float arithmetic would: (+-inf, 0) or (NaN, 0). A zero result is +0
// whatever the signs of zero operands ((-0) + (-0) and 0 * -1 give +0, unlike float arithmetic);
// exact, from_double, negation and to_double keep the sign of a zero.
//
// The EFTs only hold if the compiler evaluates each float operation exactly as written:
//  - host: this header is compiled with -ffp-contract=off and without -ffast-math
//    (cmake/StokesianCompilerFlags.cmake); compiling it with -ffast-math is an error below, and
//    tests/numeric/float_float_compilation_test.cpp fails if reassociation or contraction sneaks in;
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
STOKESIAN_HD_INLINE float magnitude(float a) {
#if defined(__CUDA_ARCH__)
    return fabsf(a);
#else
    return std::fabs(a);
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
// finite a, b whose sum does not overflow (also when the result is subnormal). 6 operations.
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
    // The nearest float_float to d, normalised. With h = RN_float(d), d - h is exact in double and
    // |d - h| <= 2^(e-24), e = floor(log2|d|); l = RN_float(d - h) is off by at most 2^(e-49), so
    // |value - d| <= 2^-49 |d| = u^2/2 |d| unless d over-/underflows float. l can round up to
    // exactly ulp(h)/2 (e.g. d = 1 + 2^-23 + 2^-24 - 2^-52: h = 1 + 2^-23, l = 2^-24), and then
    // (h, l) is a tie that RN resolves away from an odd h: Fast2Sum renormalises it to
    // (1 + 2^-22, -2^-24), the same value. So hi = RN_float(d) except when d lies within 2^-49 |d|
    // of a float midpoint, where hi is the other neighbour of d.
    STOKESIAN_HD static float_float from_double(double d) {
        const float h = static_cast<float>(d);
        if (!eft::is_finite(h)) return {h, 0.0f};
        const float l = static_cast<float>(d - static_cast<double>(h));
        if (l == 0.0f) return {h, 0.0f};  // also keeps the sign of a zero h
        const eft::pair s = eft::fast_two_sum(h, l);
        return {s.hi, s.lo};
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
    return x.lo == 0.0f ? static_cast<double>(x.hi) : static_cast<double>(x.hi) + static_cast<double>(x.lo);
}

STOKESIAN_HD_INLINE float_float operator-(float_float x) { return {-x.hi, -x.lo}; }

// ff + float: DWPlusFP, Joldes, Muller & Popescu (2017), ACM TOMS 44(2), Algorithm 4: relative
// error <= 2u^2 / (1 + 2u) < 2u^2. Non-finite results as in float arithmetic: (RN(x.hi + y), 0) when
// that is inf or NaN (then the error term, v and z.hi are NaN), (+-inf, 0) when only the final
// Fast2Sum overflows (then z.lo would be -+inf and to_double NaN). Two forms that give the same bits
// for every input, finite or not (tests/numeric/float_float_cases_test.cpp compares them); operator+
// takes the first on the host and the second on the device.

// As published: the error of s = RN(x.hi + y) by 2Sum. 10 operations; on the host the test for a
// non-finite result is a branch that is always predicted.
STOKESIAN_HD_INLINE float_float plus_by_two_sum(float_float x, float y) {
    const eft::pair s = eft::two_sum(x.hi, y);
    const float v = eft::add_rn(x.lo, s.lo);
    const eft::pair z = eft::fast_two_sum(s.hi, v);
    if (!eft::is_finite(z.hi)) return {eft::is_finite(s.hi) ? z.hi : s.hi, 0.0f};
    return {z.hi, z.lo};
}

// The error by Fast2Sum on the operands ordered by magnitude: the exact error is representable, so
// both forms give its value, and written small + (big - s) it is never -0, like 2Sum's
// (small - (s - big) would be -0 for y = -0). The result's hi is z.hi wherever s is finite (where
// s is not, z.hi is NaN), a test on s that is off the chain. From x.hi to the result's hi are 7
// dependent operations instead of 9, and a serial sum (acc = acc + term: ordered-split, the fused
// grid kernel's adding lanes) runs at the speed of that chain: on an H200 ds whole steps took 8-21 %
// less time (engine/docs/gpu-runs/2026-11-29-h200-ds-chain.txt). On the host the magnitude test is
// a branch the data decide, and the CPU's ds pair loop was ~40 % slower with it.
STOKESIAN_HD_INLINE float_float plus_by_ordered_fast_two_sum(float_float x, float y) {
    const float s = eft::add_rn(x.hi, y);
    const bool x_larger = eft::magnitude(x.hi) >= eft::magnitude(y);
    const float big = x_larger ? x.hi : y, small = x_larger ? y : x.hi;
    const float t = eft::add_rn(small, eft::sub_rn(big, s));
    const float v = eft::add_rn(x.lo, t);
    const eft::pair z = eft::fast_two_sum(s, v);
    return {eft::is_finite(s) ? z.hi : s, eft::is_finite(z.hi) ? z.lo : 0.0f};
}

STOKESIAN_HD_INLINE float_float operator+(float_float x, float y) {
#if defined(__CUDA_ARCH__)
    return plus_by_ordered_fast_two_sum(x, y);
#else
    return plus_by_two_sum(x, y);
#endif
}
STOKESIAN_HD_INLINE float_float operator+(float y, float_float x) { return x + y; }
STOKESIAN_HD_INLINE float_float operator-(float_float x, float y) { return x + (-y); }

// AccurateDWPlusDW, Joldes, Muller & Popescu (2017), Algorithm 6:
// relative error <= 3u^2 / (1 - 4u) = 3u^2 + 12u^3 + O(u^4) (their Theorem 3.3). 20 operations.
// (The cheaper "sloppy" variant has no relative bound when x and y have opposite signs, which
// position updates produce all the time, so it is not offered.)
// Non-finite results as for DWPlusFP: the first of s.hi, v.hi, z.hi that is not finite, lo = 0.
// (Without the test on the result, a sum of finite operands overflowing in the first Fast2Sum gave
// v = (inf, -inf), w = -inf and z = (NaN, NaN).)
STOKESIAN_HD_INLINE float_float operator+(float_float x, float_float y) {
    const eft::pair s = eft::two_sum(x.hi, y.hi);
    const eft::pair t = eft::two_sum(x.lo, y.lo);
    const float c = eft::add_rn(s.lo, t.hi);
    const eft::pair v = eft::fast_two_sum(s.hi, c);
    const float w = eft::add_rn(t.lo, v.lo);
    const eft::pair z = eft::fast_two_sum(v.hi, w);
    if (!eft::is_finite(z.hi)) return {!eft::is_finite(s.hi) ? s.hi : (!eft::is_finite(v.hi) ? v.hi : z.hi), 0.0f};
    return {z.hi, z.lo};
}
STOKESIAN_HD_INLINE float_float operator-(float_float x, float_float y) { return x + (-y); }

// DWTimesFP3 (with FMA), Joldes, Muller & Popescu (2017), Algorithm 9:
// relative error <= 2u^2 (their Theorem 4.3). 6 operations.
// Non-finite results as for DWPlusFP: (RN(x.hi y), 0) if that is not finite, else (+-inf, 0) if
// the final Fast2Sum overflows.
STOKESIAN_HD_INLINE float_float operator*(float_float x, float y) {
    const eft::pair c = eft::two_prod(x.hi, y);
    const float cl3 = eft::fma_rn(x.lo, y, c.lo);
    const eft::pair z = eft::fast_two_sum(c.hi, cl3);
    if (!eft::is_finite(z.hi)) return {eft::is_finite(c.hi) ? z.hi : c.hi, 0.0f};
    return {z.hi, z.lo};
}
STOKESIAN_HD_INLINE float_float operator*(float y, float_float x) { return x * y; }

// DWTimesDW3 (with FMA), Joldes, Muller & Popescu (2017), Algorithm 12:
// relative error <= 5u^2 (their Theorem 5.3; Muller & Rideau 2022 tighten it to 4u^2).
// 9 operations.
// Non-finite results as for DWTimesFP3.
STOKESIAN_HD_INLINE float_float operator*(float_float x, float_float y) {
    const eft::pair c = eft::two_prod(x.hi, y.hi);
    const float tl0 = eft::mul_rn(x.lo, y.lo);
    const float tl1 = eft::fma_rn(x.hi, y.lo, tl0);
    const float cl2 = eft::fma_rn(x.lo, y.hi, tl1);
    const float cl3 = eft::add_rn(c.lo, cl2);
    const eft::pair z = eft::fast_two_sum(c.hi, cl3);
    if (!eft::is_finite(z.hi)) return {eft::is_finite(c.hi) ? z.hi : c.hi, 0.0f};
    return {z.hi, z.lo};
}

STOKESIAN_HD_INLINE float_float& operator+=(float_float& x, float y) {
    x = x + y;
    return x;
}
STOKESIAN_HD_INLINE float_float& operator+=(float_float& x, float_float y) {
    x = x + y;
    return x;
}

// Comparisons of normalised pairs: lexicographic on (hi, lo).
STOKESIAN_HD_INLINE bool operator==(float_float x, float_float y) { return x.hi == y.hi && x.lo == y.lo; }
STOKESIAN_HD_INLINE bool operator<(float_float x, float_float y) {
    return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
}
STOKESIAN_HD_INLINE bool operator>(float_float x, float_float y) { return y < x; }
STOKESIAN_HD_INLINE bool operator<(float_float x, float y) { return x < float_float::exact(y); }
STOKESIAN_HD_INLINE bool operator>(float_float x, float y) { return float_float::exact(y) < x; }

}  // namespace stokesian
