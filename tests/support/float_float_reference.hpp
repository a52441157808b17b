#pragma once
// Reference arithmetic, operand generators and error tallies shared by the float_float tests
// (tests/numeric/float_float_{eft,ops,cases}_test.cpp), which check float_float (double-single, "ds")
// arithmetic against its documented error bounds.
//
// Notation as in float_float.hpp: u = 2^-24 (unit roundoff of float), RN round to nearest even,
// a pair (hi, lo) is normalised when hi = RN(hi + lo). Bounds (Joldes, Muller & Popescu,
// ACM TOMS 44(2), 2017), relative to the exact result, in units of u^2:
//   ff + float  DWPlusFP          2 / (1 + 2u)
//   ff + ff     AccurateDWPlusDW  3 / (1 - 4u)
//   ff * float  DWTimesFP3        2
//   ff * ff     DWTimesDW3        5
// They hold without underflow/overflow; the random operands below stay clear of both (the
// binades used are listed with each generator), and the hand-picked cases show what happens
// outside.
//
// References.
//  - exact_real = cpp_bin_float with 640 bits. Every value these tests compare is a sum of at most
//    six floats or of four products of two floats. A float is a multiple of 2^-149 below 2^128; a
//    product of two is a multiple of 2^-298 below 2^256, so any such sum fits in 256 + 298 + 3 < 640
//    bits and is computed EXACTLY. Slow (~2 us per sample), used for 100k samples per operation with
//    unrestricted exponent gaps.
//  - long double (x87, 64-bit significand, static_assert below) for the millions. One rounding
//    costs at most 2^-64 relative, 2^16 times below u^2 = 2^-48, the unit of every bound:
//      sums: when all words involved (operands and result) are multiples of 2^k and below 2^(E+1)
//        with E - k <= 60, every partial sum of at most six of them is a multiple of 2^k below
//        6 * 2^(E+1) < 2^(k+64), hence representable: the reference and the error are EXACT.
//        The generators draw inside that window; a sample outside it (checked per sample by
//        fits_long_double_window) is evaluated with exact_real instead.
//      products: xh*y etc. are exact (48-bit significands); the sum of the partial products and
//        hi + lo of the result are each rounded once or twice with relative error <= 2^-64. No
//        cancellation can occur (|lo| <= u |hi|), so the measured relative error differs from the
//        true one by at most ~4 * 2^-64 = 2^-62 = 2^-14 u^2. The assertion "measured <= bound"
//        therefore proves "true <= bound + 2^-14 u^2": long double cannot hide a violation larger
//        than 6e-5 u^2, i.e. 0.003% of the smallest bound (2u^2).
#include <gtest/gtest.h>

#include <boost/math/special_functions/next.hpp>
#include <boost/math/special_functions/relative_difference.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "stokesian/numeric/float_float.hpp"

namespace float_float_testing {

using stokesian::float_float;
namespace eft = stokesian::eft;
namespace mp = boost::multiprecision;

using exact_real = mp::number<mp::cpp_bin_float<640, mp::digit_base_2>, mp::et_off>;

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the long double reference needs a 64-bit significand (x87 extended or wider)");
static_assert(std::numeric_limits<float>::digits == 24 && std::numeric_limits<double>::digits == 53);

constexpr double u = 0x1p-24;
constexpr double u2 = 0x1p-48;

// Documented bounds in units of u^2 (see the header comment).
constexpr double bound_add_f = 2.0 / (1.0 + 2.0 * u);
constexpr double bound_add_ff = 3.0 / (1.0 - 4.0 * u);
constexpr double bound_mul_f = 2.0;
constexpr double bound_mul_ff = 5.0;

// ---------------------------------------------------------------------------------------------
// Helpers

inline std::string hex(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%a", static_cast<double>(f));
    return buf;
}
inline std::string hex(double d) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%a", d);
    return buf;
}
inline std::string hex(float_float x) { return "(" + hex(x.hi) + ", " + hex(x.lo) + ")"; }

inline float_float ff(float hi, float lo) { return float_float{hi, lo}; }

// ulp of a finite float: 2^(e-23) for a normal number of binade e, 2^-149 for a subnormal.
inline float ulp(float f) { return std::ldexp(1.0f, std::max(std::ilogb(f), FLT_MIN_EXP - 1) - 23); }

// Exponent of the least significant set bit of a non-zero finite float.
inline int lsb_exponent(float f) {
    int e = 0;
    const float m = std::frexp(std::fabs(f), &e);                    // f = m 2^e, m in [1/2, 1)
    const auto sig = static_cast<std::uint32_t>(std::ldexp(m, 24));  // exact: 24-bit integer
    return e - 24 + std::countr_zero(sig);
}

// True when every partial sum of these words is exact in long double (see the file comment).
inline bool fits_long_double_window(std::initializer_list<float> words) {
    int lowest = std::numeric_limits<int>::max();
    int highest = std::numeric_limits<int>::min();
    for (const float w : words) {
        if (w == 0.0f) continue;
        lowest = std::min(lowest, lsb_exponent(w));
        highest = std::max(highest, std::ilogb(w));
    }
    return lowest == std::numeric_limits<int>::max() || highest - lowest <= 60;
}

// The normalisation invariant: hi = RN(hi + lo) and |lo| <= ulp(hi)/2 (non-finite hi: lo = 0).
// (double)hi + lo is exact when lo lies within 29 binades of hi; otherwise |lo| < 2^-29 |hi| is
// far below the quarter-ulp distance to a float midpoint and the double rounding cannot reach
// one, so RN_float(RN_double(hi + lo)) = RN_float(hi + lo) in every case.
inline bool is_normalised(float_float x) {
    if (!std::isfinite(x.hi)) return x.lo == 0.0f;
    if (!std::isfinite(x.lo)) return false;
    const float rounded = static_cast<float>(static_cast<double>(x.hi) + static_cast<double>(x.lo));
    if (boost::math::float_distance(x.hi, rounded) != 0.0f) return false;
    if (x.hi == 0.0f) return x.lo == 0.0f;
    return std::fabs(x.lo) <= ulp(x.hi) / 2.0f;
}

inline exact_real exact(float f) { return exact_real(f); }
inline exact_real exact(float_float x) { return exact_real(x.hi) + exact_real(x.lo); }

// |approx - ref| / |ref| in units of u^2; 0 when both are zero, +inf when only ref is zero.
inline double relative_error_u2(const exact_real& approx, const exact_real& ref) {
    const exact_real err = abs(approx - ref);
    if (ref == 0) return err == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    // Both conversions to double are relative 2^-53 perturbations of the ratio: irrelevant here.
    return static_cast<double>(err) / static_cast<double>(abs(ref)) / u2;
}
inline double relative_error_u2(long double err, long double ref) {
    if (ref == 0) return err == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return static_cast<double>(std::fabs(err) / std::fabs(ref)) / u2;
}

// Deterministic operand source (std::mt19937_64 is fully specified by the standard; integer
// ranges are derived from its raw output, not from a library-defined distribution).
class operand_source {
public:
    explicit operand_source(std::uint64_t seed) : rng_(seed) {}

    std::uint64_t bits() { return rng_(); }
    int in(int lo, int hi) { return lo + static_cast<int>(bits() % static_cast<std::uint64_t>(hi - lo + 1)); }
    bool one_in(unsigned n) { return bits() % n == 0; }

    // A float of binade e (|f| in [2^e, 2^(e+1))) with a random significand and sign. One in 8 is a
    // power of two or has all 24 bits set (binade edges, where the ulp changes); one in 8 has a
    // random number of low bits cleared (short significands: exact results, ties).
    float binade(int e) {
        const std::uint64_t r = bits();
        std::uint32_t m = 0x800000u | static_cast<std::uint32_t>(r & 0x7fffffu);
        switch ((r >> 23) & 15u) {
            case 0: m = 0x800000u; break;
            case 1: m = 0xffffffu; break;
            case 2:
            case 3: m &= ~((1u << ((r >> 27) % 24u)) - 1u); break;
            default: break;
        }
        const float f = std::ldexp(static_cast<float>(m), e - 23);
        return (r >> 63) != 0 ? -f : f;
    }

    // A normalised float_float with hi in binade e: lo = 0 (1 in 16), +-ulp(hi)/2 (1 in 16: a tie
    // when added to hi), or a random float of binade e - 25 - gap, i.e. |lo| < ulp(hi)/2 with the
    // gap (0 half of the time, else 1..max_gap) pushing lo further down. The pair is then
    // renormalised by Fast2Sum (exact; it only matters for ties with an odd hi and for a
    // power-of-two hi with a negative lo, where the spacing below hi is ulp(hi)/2).
    float_float ds(int e, int max_gap) {
        const float hi = binade(e);
        float lo = 0.0f;
        switch (bits() % 16u) {
            case 0: break;
            case 1: lo = one_in(2) ? ulp(hi) / 2.0f : -ulp(hi) / 2.0f; break;
            default: {
                const int gap = (max_gap == 0 || one_in(2)) ? 0 : in(1, max_gap);
                lo = binade(e - 25 - gap);
            }
        }
        const eft::pair p = eft::fast_two_sum(hi, lo);
        return {p.hi, p.lo};
    }

private:
    std::mt19937_64 rng_;
};

// Worst error and failures of one operation over many samples; the first failure and the worst
// sample are kept as text for the report.
struct error_tally {
    error_tally(const char* name_, const char* key_, double bound_u2_) : name(name_), key(key_), bound_u2(bound_u2_) {}

    const char* name;
    const char* key;  // for RecordProperty (an XML attribute name)
    double bound_u2;
    double worst_u2 = 0.0;
    std::string worst_sample;
    long long samples = 0;
    long long exact_fallbacks = 0;
    long long bound_violations = 0;
    long long not_normalised = 0;
    std::string first_failure;

    template <class Describe>
    void add(double err_u2, float_float z, Describe&& describe) {
        ++samples;
        const bool normalised = is_normalised(z);
        const bool within = err_u2 <= bound_u2;  // false for NaN
        if (!(err_u2 <= worst_u2)) {
            worst_u2 = err_u2;
            worst_sample = describe();
        }
        if (!within) ++bound_violations;
        if (!normalised) ++not_normalised;
        if ((!within || !normalised) && first_failure.empty())
            first_failure = describe() + " -> " + hex(z) + ", error " + std::to_string(err_u2) + " u^2, normalised " +
                            (normalised ? "yes" : "no");
    }

    void report() const {
        std::printf(
            "[ FloatFloat ] %-10s %9lld samples (%lld via exact_real), worst %.9f u^2 "
            "(bound %.9f u^2): %s\n",
            name, samples, exact_fallbacks, worst_u2, bound_u2, worst_sample.c_str());
        char value[32];
        std::snprintf(value, sizeof value, "%.9f", worst_u2);
        ::testing::Test::RecordProperty(std::string("worst_u2_") + key, value);
    }

    void expect_clean() const {
        EXPECT_EQ(bound_violations, 0) << name << ": first failure " << first_failure;
        EXPECT_EQ(not_normalised, 0) << name << ": first failure " << first_failure;
        EXPECT_LE(worst_u2, bound_u2) << name << ": " << worst_sample;
    }
};

// ---------------------------------------------------------------------------------------------
// Error of one sample of each operation, exact or long double (see the file comment)

inline double error_add_f(float_float x, float y, float_float z, error_tally& t) {
    if (fits_long_double_window({x.hi, x.lo, y, z.hi, z.lo})) {
        const long double ref = (static_cast<long double>(x.hi) + y) + x.lo;                    // exact
        const long double err = (((static_cast<long double>(z.hi) - x.hi) - y) + z.lo) - x.lo;  // exact
        return relative_error_u2(err, ref);
    }
    ++t.exact_fallbacks;
    return relative_error_u2(exact(z), exact(x) + exact(y));
}

inline double error_add_ff(float_float x, float_float y, float_float z, error_tally& t) {
    if (fits_long_double_window({x.hi, x.lo, y.hi, y.lo, z.hi, z.lo})) {
        const long double ref = ((static_cast<long double>(x.hi) + y.hi) + x.lo) + y.lo;
        const long double err = ((((static_cast<long double>(z.hi) - x.hi) - y.hi) + z.lo) - x.lo) - y.lo;
        return relative_error_u2(err, ref);
    }
    ++t.exact_fallbacks;
    return relative_error_u2(exact(z), exact(x) + exact(y));
}

// Products: the long double reference is within 2^-62 relative (file comment).
inline double error_mul_f(float_float x, float y, float_float z) {
    const long double ref = static_cast<long double>(x.hi) * y + static_cast<long double>(x.lo) * y;
    const long double got = static_cast<long double>(z.hi) + z.lo;
    return relative_error_u2(got - ref, ref);
}

inline double error_mul_ff(float_float x, float_float y, float_float z) {
    const long double ref = ((static_cast<long double>(x.lo) * y.lo + static_cast<long double>(x.hi) * y.lo) +
                             static_cast<long double>(x.lo) * y.hi) +
                            static_cast<long double>(x.hi) * y.hi;
    const long double got = static_cast<long double>(z.hi) + z.lo;
    return relative_error_u2(got - ref, ref);
}

inline exact_real exact_product(float_float x, float_float y) {
    return exact(x.hi) * exact(y.hi) + exact(x.hi) * exact(y.lo) + exact(x.lo) * exact(y.hi) +
           exact(x.lo) * exact(y.lo);
}

}  // namespace float_float_testing
