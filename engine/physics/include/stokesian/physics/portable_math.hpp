#pragma once
// exp, log, erfc and sin/cos written with + - * /, floor, frexp and ldexp only, for float and double on host
// and device. The C library's and CUDA's versions of these functions are accurate to an ulp or
// two but not identical, so a kernel that called them would not reproduce the CPU backend bit for
// bit; these do, under the build's IEEE flags (engine/README.md, "Floating point": no contraction,
// correctly rounded division), because both sides execute the same correctly rounded operations
// in the same order. Accuracy is a few units of the type's roundoff (tests/physics/portable_math_test.cpp
// measures it against the C library); the Ewald sum (physics/tensors/rpy_ewald.hpp) and the two-body
// lubrication (physics/two_body_lubrication.hpp) are their users.
#include <cmath>
#include <utility>

#include "stokesian/config.hpp"

namespace stokesian::portable {

namespace detail {
STOKESIAN_HD_INLINE float floor(float x) { return ::floorf(x); }
STOKESIAN_HD_INLINE double floor(double x) { return ::floor(x); }
STOKESIAN_HD_INLINE float ldexp(float x, int e) { return ::ldexpf(x, e); }
STOKESIAN_HD_INLINE double ldexp(double x, int e) { return ::ldexp(x, e); }
STOKESIAN_HD_INLINE float frexp(float x, int* e) { return ::frexpf(x, e); }
STOKESIAN_HD_INLINE double frexp(double x, int* e) { return ::frexp(x, e); }

// Cody-Waite splits of ln 2 and pi/2: hi + lo to about twice the type's precision; ln2_hi has
// trailing zero bits, so n ln2_hi is exact for the |n| < 2^10 that occur.
template <class W>
struct constants;
template <>
struct constants<double> {
    static constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    static constexpr double log2e = 1.44269504088896338700e+00;
    static constexpr double half_pi_hi = 1.57079632679489655800e+00, half_pi_lo = 6.12323399573676603587e-17;
    static constexpr double two_over_pi = 6.36619772367581382433e-01;
    static constexpr double exp_underflow = -700.0;            // exp(x) is returned as 0 below (e^-700 ~ 1e-304)
    static constexpr double epsilon = 1.1102230246251565e-16;  // 2^-53
    static constexpr int exp_degree = 13, sin_degree = 17, cos_degree = 16;
    static constexpr int log_terms = 12;  // 2 atanh(f), |f| <= 0.1716: remainder f^25/25 < 1e-20 f
};
template <>
struct constants<float> {
    static constexpr float ln2_hi = 6.9314575195e-01f, ln2_lo = 1.4286067653e-06f;
    static constexpr float log2e = 1.4426950216e+00f;
    static constexpr float half_pi_hi = 1.5707963705e+00f, half_pi_lo = -4.3711388287e-08f;
    static constexpr float two_over_pi = 6.3661974669e-01f;
    static constexpr float exp_underflow = -80.0f;       // e^-80 ~ 2e-35, still a normal float
    static constexpr float epsilon = 5.9604644775e-08f;  // 2^-24
    static constexpr int exp_degree = 8, sin_degree = 11, cos_degree = 10;
    static constexpr int log_terms = 6;  // remainder f^13/13 < 2e-11 f
};

// Horner's rule for e^r = 1 + r (1 + r/2 (1 + r/3 (...))) from degree K down, with the reciprocals
// 1/k as constants (rounded once, at compile time): multiplications only.
template <int K, int Degree, class W>
STOKESIAN_HD_INLINE W exp_horner(W r) {
    if constexpr (K == Degree) return W(1) + r * W(1.0 / K);
    else return W(1) + (r * W(1.0 / K)) * exp_horner<K + 1, Degree>(r);
}

// The erf series' terms (below): term n is the last times 2x^2/(2n+3), with 1/(2n+3) a constant;
// false once a term no longer changes the sum. Blocks of 10 steps (a fold, in order, stopping at the
// first false), blocks chained by recursion (nvcc's front end limits the depth of instantiation), at
// most erf_series_terms = 200 terms.
template <int N, class W>
STOKESIAN_HD_INLINE bool erf_step(W& term, W& sum, W two_x2) {
    term = term * (two_x2 * W(1.0 / (2 * N + 3)));
    if (!(term > sum * constants<W>::epsilon)) return false;
    sum = sum + term;
    return true;
}
template <int Block, class W, int... K>
STOKESIAN_HD_INLINE bool erf_block(W& term, W& sum, W two_x2, std::integer_sequence<int, K...>) {
    return (erf_step<10 * Block + K>(term, sum, two_x2) && ...);
}
inline constexpr int erf_series_terms = 200;
template <int Block, class W>
STOKESIAN_HD_INLINE void erf_series(W& term, W& sum, W two_x2) {
    if constexpr (10 * Block < erf_series_terms) {
        if (erf_block<Block>(term, sum, two_x2, std::make_integer_sequence<int, 10>{}))
            erf_series<Block + 1>(term, sum, two_x2);
    }
}
}  // namespace detail

// e^x. The argument is reduced to r = x - n ln 2, |r| <= ln2/2 (Cody-Waite), e^r by its Taylor
// polynomial (degree 13 in double: remainder < 0.347^14/14! = 4e-18; degree 8 in float: 3e-10),
// scaled by 2^n exactly. Below exp_underflow it returns 0 (the Ewald sum's factors exp(-x^2) that
// small are far beyond any truncation), above +88 (float) / +709 (double) it is not meant for.
template <class W>
STOKESIAN_HD_INLINE W exp(W x) {
    using c = detail::constants<W>;
    if (x < c::exp_underflow) return W(0);
    const W n = detail::floor(x * c::log2e + W(0.5));
    const W r = (x - n * c::ln2_hi) - n * c::ln2_lo;
    return detail::ldexp(detail::exp_horner<1, c::exp_degree>(r), static_cast<int>(n));
}

// ln x for a positive normal x. x = m 2^e with sqrt(1/2) <= m < sqrt(2) (frexp, exact), then
// ln m = 2 atanh(f), f = (m - 1)/(m + 1), |f| <= 0.1716 (m - 1 is exact), by its odd series
// 2 (f + f^3/3 + f^5/5 + ...) to log_terms terms (Horner in f^2, the reciprocals 1/(2k+1) constants),
// and ln x = e ln2_hi + (ln m + e ln2_lo) (Cody-Waite: e ln2_hi is exact). f carries ~2u, so the
// result is within a few u of ln x relative, absolute near x = 1 (e = 0, ln m = ln x).
template <class W>
STOKESIAN_HD_INLINE W log(W x) {
    using c = detail::constants<W>;
    int e = 0;
    W m = detail::frexp(x, &e);  // [1/2, 1)
    if (m < W(0.70710678118654752440)) {
        m = W(2) * m;
        --e;
    }
    const W f = (m - W(1)) / (m + W(1));
    const W f2 = f * f;
    W series = W(1.0 / double(2 * c::log_terms - 1));
    for (int k = c::log_terms - 1; k >= 1; --k) series = W(1.0 / double(2 * k - 1)) + f2 * series;
    const W log_m = W(2) * (f * series);
    const W n = static_cast<W>(e);
    return n * c::ln2_hi + (log_m + n * c::ln2_lo);
}

// erfc(x) for x >= 0, and exp(-x^2) on the way (the real-space Ewald term needs both). Through
//     erf(x) = 2/sqrt(pi) exp(-x^2) sum_{n>=0} 2^n x^(2n+1) / (1 3 5 ... (2n+1)),
// a series of positive terms (no cancellation; each term is the last times 2x^2/(2n+3)), summed
// until a term no longer changes the sum (x <= 6.5: at most ~150 terms; the series stops at
// erf_series_terms = 200); erfc = 1 - erf. The absolute error of erfc is then a few
// units of roundoff times the number of terms (~2x^2 + 10: 40 at x = 3.7, where the Ewald sum for
// a tolerance of 1e-6 stops), which is what the Ewald sum needs: erfc multiplies terms of order 1.
template <class W>
struct erfc_and_gaussian {
    W erfc;
    W gaussian;  // exp(-x^2)
};
// Not forced inline: its unrolled series (200 steps) stays one function per type.
template <class W>
STOKESIAN_HD inline erfc_and_gaussian<W> erfc_with_gaussian(W x) {
    const W x2 = x * x;
    const W gaussian = portable::exp(-x2);
    const W two_x2 = W(2) * x2;
    W term = x, sum = x;
    detail::erf_series<0>(term, sum, two_x2);
    // 2/sqrt(pi), rounded once from double.
    const W erf = (W(1.1283791670955126) * gaussian) * sum;
    return {erf < W(1) ? W(1) - erf : W(0), gaussian};
}

template <class W>
struct sin_cos {
    W sin, cos;
};

// sin and cos of theta, for |theta| <= a few pi (the Ewald sum's phases 2 pi x / L of minimum-image
// separations are within [-pi, pi]). theta is reduced by the nearest multiple q of pi/2 (two-part
// pi/2, Cody-Waite) to |t| <= pi/4, where Taylor polynomials of degree 17/16 (double; remainders
// < 1e-19) or 11/10 (float; < 2e-9) are summed by Horner's rule, then mapped by the quadrant q mod 4.
// Computed for |theta| with the sign of sin restored, so sin(-t) = -sin(t) and cos(-t) = cos(t)
// exactly: the Ewald sum of -r is then exactly that of r.
template <class W>
STOKESIAN_HD_INLINE sin_cos<W> sincos(W theta) {
    using c = detail::constants<W>;
    const bool negative = theta < W(0);
    const W a = negative ? -theta : theta;
    const W q = detail::floor(a * c::two_over_pi + W(0.5));
    const W t = (a - q * c::half_pi_hi) - q * c::half_pi_lo;
    const W t2 = t * t;
    // sin t = t (1 - t^2/(2 3) (1 - t^2/(4 5) (1 - ...))), cos t = 1 - t^2/(1 2) (1 - t^2/(3 4) (...)).
    W s = W(1);
    for (int k = c::sin_degree; k >= 3; k -= 2) s = W(1) - (t2 / W((k - 1) * k)) * s;
    s = t * s;
    W co = W(1);
    for (int k = c::cos_degree; k >= 2; k -= 2) co = W(1) - (t2 / W((k - 1) * k)) * co;
    const int quadrant = static_cast<int>(q) & 3;
    W sn, cs;
    if (quadrant == 0) sn = s, cs = co;
    else if (quadrant == 1) sn = co, cs = -s;
    else if (quadrant == 2) sn = -s, cs = -co;
    else sn = -co, cs = s;
    return {negative ? -sn : sn, cs};
}

}  // namespace stokesian::portable
