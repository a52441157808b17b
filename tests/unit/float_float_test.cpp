// float_float (double-single, "ds") arithmetic against its documented error bounds.
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

namespace {

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

std::string hex(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%a", static_cast<double>(f));
    return buf;
}
std::string hex(double d) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%a", d);
    return buf;
}
std::string hex(float_float x) { return "(" + hex(x.hi) + ", " + hex(x.lo) + ")"; }

float_float ff(float hi, float lo) { return float_float{hi, lo}; }

// ulp of a finite float: 2^(e-23) for a normal number of binade e, 2^-149 for a subnormal.
float ulp(float f) { return std::ldexp(1.0f, std::max(std::ilogb(f), FLT_MIN_EXP - 1) - 23); }

// Exponent of the least significant set bit of a non-zero finite float.
int lsb_exponent(float f) {
    int e = 0;
    const float m = std::frexp(std::fabs(f), &e);                    // f = m 2^e, m in [1/2, 1)
    const auto sig = static_cast<std::uint32_t>(std::ldexp(m, 24));  // exact: 24-bit integer
    return e - 24 + std::countr_zero(sig);
}

// True when every partial sum of these words is exact in long double (see the file comment).
bool fits_long_double_window(std::initializer_list<float> words) {
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
bool is_normalised(float_float x) {
    if (!std::isfinite(x.hi)) return x.lo == 0.0f;
    if (!std::isfinite(x.lo)) return false;
    const float rounded = static_cast<float>(static_cast<double>(x.hi) + static_cast<double>(x.lo));
    if (boost::math::float_distance(x.hi, rounded) != 0.0f) return false;
    if (x.hi == 0.0f) return x.lo == 0.0f;
    return std::fabs(x.lo) <= ulp(x.hi) / 2.0f;
}

exact_real exact(float f) { return exact_real(f); }
exact_real exact(float_float x) { return exact_real(x.hi) + exact_real(x.lo); }

// |approx - ref| / |ref| in units of u^2; 0 when both are zero, +inf when only ref is zero.
double relative_error_u2(const exact_real& approx, const exact_real& ref) {
    const exact_real err = abs(approx - ref);
    if (ref == 0) return err == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    // Both conversions to double are relative 2^-53 perturbations of the ratio: irrelevant here.
    return static_cast<double>(err) / static_cast<double>(abs(ref)) / u2;
}
double relative_error_u2(long double err, long double ref) {
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

double error_add_f(float_float x, float y, float_float z, error_tally& t) {
    if (fits_long_double_window({x.hi, x.lo, y, z.hi, z.lo})) {
        const long double ref = (static_cast<long double>(x.hi) + y) + x.lo;                    // exact
        const long double err = (((static_cast<long double>(z.hi) - x.hi) - y) + z.lo) - x.lo;  // exact
        return relative_error_u2(err, ref);
    }
    ++t.exact_fallbacks;
    return relative_error_u2(exact(z), exact(x) + exact(y));
}

double error_add_ff(float_float x, float_float y, float_float z, error_tally& t) {
    if (fits_long_double_window({x.hi, x.lo, y.hi, y.lo, z.hi, z.lo})) {
        const long double ref = ((static_cast<long double>(x.hi) + y.hi) + x.lo) + y.lo;
        const long double err = ((((static_cast<long double>(z.hi) - x.hi) - y.hi) + z.lo) - x.lo) - y.lo;
        return relative_error_u2(err, ref);
    }
    ++t.exact_fallbacks;
    return relative_error_u2(exact(z), exact(x) + exact(y));
}

// Products: the long double reference is within 2^-62 relative (file comment).
double error_mul_f(float_float x, float y, float_float z) {
    const long double ref = static_cast<long double>(x.hi) * y + static_cast<long double>(x.lo) * y;
    const long double got = static_cast<long double>(z.hi) + z.lo;
    return relative_error_u2(got - ref, ref);
}

double error_mul_ff(float_float x, float_float y, float_float z) {
    const long double ref = ((static_cast<long double>(x.lo) * y.lo + static_cast<long double>(x.hi) * y.lo) +
                             static_cast<long double>(x.lo) * y.hi) +
                            static_cast<long double>(x.hi) * y.hi;
    const long double got = static_cast<long double>(z.hi) + z.lo;
    return relative_error_u2(got - ref, ref);
}

exact_real exact_product(float_float x, float_float y) {
    return exact(x.hi) * exact(y.hi) + exact(x.hi) * exact(y.lo) + exact(x.lo) * exact(y.hi) +
           exact(x.lo) * exact(y.lo);
}

// ---------------------------------------------------------------------------------------------
// Error-free transforms

// 2Sum and Fast2Sum: s = RN(a + b) and s + t = a + b exactly. For two floats the exact sum fits a
// double only if their exponents are at most 29 apart (24 + 29 = 53 bits), so the check uses
// exact_real for arbitrary gaps (and double/long double where the gap allows, as a cross-check of
// the window argument used elsewhere).
TEST(FloatFloatEft, TwoSumAndFastTwoSumAreExact) {
    operand_source src(0x5eed0001);
    long long checked = 0;
    for (int i = 0; i < 200000; ++i) {
        // Normal operands over the whole range (subnormals: next test), mostly within 40 binades
        // of each other, one in 8 nearly cancelling.
        const int ea = src.in(-126, 126);
        const int eb = src.one_in(4) ? src.in(-126, 126) : std::clamp(ea + src.in(-40, 40), -126, 126);
        float a = src.binade(ea);
        float b = src.binade(eb);
        if (src.one_in(8)) b = -a + (src.one_in(2) ? ulp(a) : -ulp(a)) * static_cast<float>(src.in(0, 3));
        const float s_ref = a + b;
        if (!std::isfinite(s_ref)) continue;  // overflow: outside the EFT's domain
        const exact_real sum = exact(a) + exact(b);
        const eft::pair two = eft::two_sum(a, b);
        ASSERT_EQ(two.hi, s_ref) << hex(a) << " + " << hex(b);
        ASSERT_TRUE(exact(two.hi) + exact(two.lo) == sum) << "two_sum " << hex(a) << " + " << hex(b);
        if (std::ilogb(a) >= std::ilogb(b) || a == 0.0f) {  // Fast2Sum's precondition
            const eft::pair fast = eft::fast_two_sum(a, b);
            ASSERT_EQ(fast.hi, s_ref);
            ASSERT_TRUE(exact(fast.hi) + exact(fast.lo) == sum) << "fast_two_sum " << hex(a) << " + " << hex(b);
        }
        if (std::abs(std::ilogb(a) - std::ilogb(b)) <= 29) {  // exact in double as well
            ASSERT_EQ(static_cast<double>(two.hi) + static_cast<double>(two.lo),
                      static_cast<double>(a) + static_cast<double>(b));
        }
        ++checked;
    }
    EXPECT_GT(checked, 190000);
}

// Subnormal operands and results: float addition of subnormals is exact, and 2Sum stays an EFT
// (its error term is then 0 or itself exact) - no underflow hypothesis needed for sums.
TEST(FloatFloatEft, TwoSumIsExactForSubnormals) {
    operand_source src(0x5eed0002);
    const float tiny = std::numeric_limits<float>::denorm_min();  // 2^-149
    for (int i = 0; i < 100000; ++i) {
        // Multiples of 2^-149 up to 2^-120: subnormal and smallest normal binades.
        const auto ka = static_cast<float>(static_cast<std::int64_t>(src.bits() % (1u << 29)) - (1 << 28));
        const auto kb = static_cast<float>(static_cast<std::int64_t>(src.bits() % (1u << 29)) - (1 << 28));
        const float a = ka * tiny;  // exact: |ka| < 2^28 and the product is a multiple of 2^-149
        const float b = src.one_in(4) ? src.binade(src.in(-40, 40)) : kb * tiny;
        const eft::pair two = eft::two_sum(a, b);
        ASSERT_TRUE(exact(two.hi) + exact(two.lo) == exact(a) + exact(b)) << hex(a) << " + " << hex(b);
        const eft::pair fast = std::fabs(a) >= std::fabs(b) ? eft::fast_two_sum(a, b) : eft::fast_two_sum(b, a);
        ASSERT_TRUE(exact(fast.hi) + exact(fast.lo) == exact(a) + exact(b)) << hex(a) << " + " << hex(b);
    }
    // A subnormal result from normal operands: exact, error term 0.
    const eft::pair p = eft::two_sum(0x1.000002p-126f, -0x1p-126f);
    EXPECT_EQ(p.hi, 0x1p-149f);
    EXPECT_EQ(p.lo, 0.0f);
}

// Fast2Sum's precondition is real: with |a| < |b| it can lose the error term.
TEST(FloatFloatEft, FastTwoSumNeedsItsPrecondition) {
    const eft::pair wrong = eft::fast_two_sum(0x1p-30f, 1.0f);  // exponent of a below that of b
    EXPECT_EQ(wrong.hi, 1.0f);
    EXPECT_EQ(wrong.lo, 0.0f);  // (1 - 2^-30 rounds to 1), the 2^-30 is lost
    const eft::pair right = eft::fast_two_sum(1.0f, 0x1p-30f);
    EXPECT_EQ(right.lo, 0x1p-30f);
}

// 2Prod (FMA): p = RN(a b), p + e = a b exactly, provided e_a + e_b >= e_min + p - 1 = -103
// (the error term, a multiple of 2^(e_a + e_b - 46), must not fall below 2^-149). The exact
// product of two floats has 48 bits and lies in [2^-298, 2^256): exact in double.
TEST(FloatFloatEft, TwoProdIsExactWithoutUnderflow) {
    operand_source src(0x5eed0003);
    for (int i = 0; i < 300000; ++i) {
        const int ea = src.in(-100, 100);
        const int eb = std::clamp(src.in(-103, 126) - ea, -126, 127);
        if (ea + eb < -103 || ea + eb > 126) continue;
        const float a = src.binade(ea);
        const float b = src.binade(eb);
        const double product = static_cast<double>(a) * static_cast<double>(b);  // exact
        if (std::fabs(product) >= static_cast<double>(FLT_MAX)) continue;        // would overflow
        const eft::pair p = eft::two_prod(a, b);
        ASSERT_EQ(p.hi, static_cast<float>(product)) << hex(a) << " * " << hex(b);
        ASSERT_EQ(static_cast<double>(p.hi) + static_cast<double>(p.lo), product) << hex(a) << " * " << hex(b);
    }
    // The boundary case e_a + e_b = -103: error term at 2^-149 exactly representable.
    const float a = 0x1.000002p-52f;
    const float b = 0x1.000002p-51f;  // a b = 2^-103 (1 + 2^-22 + 2^-46)
    const eft::pair p = eft::two_prod(a, b);
    EXPECT_EQ(p.lo, 0x1p-149f);
    EXPECT_EQ(static_cast<double>(p.hi) + static_cast<double>(p.lo), static_cast<double>(a) * static_cast<double>(b));
}

// Below the boundary 2Prod is not an EFT: the product's tail falls under 2^-149. This is why the
// bounds of ff * float and ff * ff are stated without underflow.
TEST(FloatFloatEft, TwoProdLosesExactnessOnUnderflow) {
    const float a = 0x1.000002p-70f;  // a^2 = 2^-140 (1 + 2^-22 + 2^-46)
    const eft::pair p = eft::two_prod(a, a);
    const double product = static_cast<double>(a) * static_cast<double>(a);
    EXPECT_EQ(p.hi, 0x1p-140f);  // subnormal: 9 significant bits left, RN drops 2^-162 + 2^-186
    EXPECT_EQ(p.lo, 0.0f);       // RN(2^-162 + 2^-186) underflows to 0
    EXPECT_NE(static_cast<double>(p.hi) + static_cast<double>(p.lo), product);
    // The ds product inherits it: relative error ~2^-22, far above 2u^2 = 2^-47.
    const float_float z = float_float::exact(a) * a;
    const double rel = std::fabs(stokesian::to_double(z) - product) / product;
    EXPECT_GT(rel, 1000.0 * bound_mul_f * u2);
}

// ---------------------------------------------------------------------------------------------
// Random operands against the bounds

// ff + float (DWPlusFP). Operands: hi in binades [-60, 60], lo gap up to 4 binades, y within
// [-20, +8] binades of x.hi (inside the long double window), plus cancellation cases
// y = -(x.hi + j ulp(x.hi)), |j| <= 16, and y exactly -x.hi.
TEST(FloatFloatOps, AddFloatMeetsBound) {
    error_tally t{"ff+f", "add_f", bound_add_f};
    operand_source src(0x5eed0101);
    for (int i = 0; i < 3000000; ++i) {
        const int e = src.in(-60, 60);
        const float_float x = src.ds(e, 4);
        float y = 0.0f;
        switch (i % 8) {
            case 0:
            case 1: y = -(x.hi + ulp(x.hi) * static_cast<float>(src.in(-16, 16))); break;
            case 2: y = -x.hi; break;
            default: y = src.binade(e + src.in(-20, 8));
        }
        const float_float z = x + y;
        t.add(error_add_f(x, y, z, t), z, [&] { return hex(x) + " + " + hex(y); });
    }
    t.report();
    t.expect_clean();
}

// ff + ff (AccurateDWPlusDW). Operands within 10 binades of each other, lo gaps up to 2 (inside
// the window), with cancellation: y.hi = -(x.hi + j ulp), y.hi = -x.hi (the result is then
// x.lo + y.lo), and y = -x with y.lo moved by a few ulps (result of the order of ulp(lo)).
TEST(FloatFloatOps, AddFloatFloatMeetsBound) {
    error_tally t{"ff+ff", "add_ff", bound_add_ff};
    operand_source src(0x5eed0102);
    for (int i = 0; i < 3000000; ++i) {
        const int e = src.in(-60, 60);
        const float_float x = src.ds(e, 2);
        float_float y{};
        switch (i % 8) {
            case 0:
            case 1: {
                const float_float r = src.ds(e, 2);
                const eft::pair p = eft::fast_two_sum(-(x.hi + ulp(x.hi) * static_cast<float>(src.in(-16, 16))), r.lo);
                y = {p.hi, p.lo};
                break;
            }
            case 2: {
                const float_float r = src.ds(e, 2);
                const eft::pair p = eft::fast_two_sum(-x.hi, r.lo);
                y = {p.hi, p.lo};
                break;
            }
            case 3: {
                const float lo = x.lo == 0.0f ? 0.0f : -(x.lo + ulp(x.lo) * static_cast<float>(src.in(-4, 4)));
                const eft::pair p = eft::fast_two_sum(-x.hi, lo);
                y = {p.hi, p.lo};
                break;
            }
            default: y = src.ds(e + src.in(-10, 10), 2);
        }
        const float_float z = x + y;
        t.add(error_add_ff(x, y, z, t), z, [&] { return hex(x) + " + " + hex(y); });
    }
    t.report();
    t.expect_clean();
}

// ff * float (DWTimesFP3): x.hi and y in binades [-30, 30], lo gaps up to 20 binades, so that
// nothing underflows: x.lo y >= 2^(-30-25-20-30) = 2^-105, and the error term of 2Prod(x.hi, y)
// is a multiple of 2^(-60-46) = 2^-106.
TEST(FloatFloatOps, MulFloatMeetsBound) {
    error_tally t{"ff*f", "mul_f", bound_mul_f};
    operand_source src(0x5eed0103);
    for (int i = 0; i < 3000000; ++i) {
        const float_float x = src.ds(src.in(-30, 30), 20);
        const float y = src.binade(src.in(-30, 30));
        const float_float z = x * y;
        t.add(error_mul_f(x, y, z), z, [&] { return hex(x) + " * " + hex(y); });
    }
    t.report();
    t.expect_clean();
}

// ff * ff (DWTimesDW3): hi in binades [-25, 25], lo gaps up to 10 binades: the smallest partial
// product x.lo y.lo >= 2^(2 (-25-25-10)) = 2^-120 stays normal.
TEST(FloatFloatOps, MulFloatFloatMeetsBound) {
    error_tally t{"ff*ff", "mul_ff", bound_mul_ff};
    operand_source src(0x5eed0104);
    for (int i = 0; i < 3000000; ++i) {
        const float_float x = src.ds(src.in(-25, 25), 10);
        const float_float y = src.ds(src.in(-25, 25), 10);
        const float_float z = x * y;
        t.add(error_mul_ff(x, y, z), z, [&] { return hex(x) + " * " + hex(y); });
    }
    t.report();
    t.expect_clean();
}

// The same four operations against exact_real, with unrestricted exponent gaps between the
// operands (up to 80 binades) and between hi and lo (up to 40), 100k samples each.
TEST(FloatFloatOps, AllOperationsMeetBoundsAgainstExactReference) {
    error_tally add_f{"ff+f/x", "add_f_exact", bound_add_f};
    error_tally add_ff{"ff+ff/x", "add_ff_exact", bound_add_ff};
    error_tally mul_f{"ff*f/x", "mul_f_exact", bound_mul_f};
    error_tally mul_ff{"ff*ff/x", "mul_ff_exact", bound_mul_ff};
    operand_source src(0x5eed0105);
    for (int i = 0; i < 100000; ++i) {
        const int e = src.in(-40, 40);
        const float_float x = src.ds(e, 40);
        const bool cancel = i % 4 == 0;
        const float y =
            cancel ? -(x.hi + ulp(x.hi) * static_cast<float>(src.in(-3, 3))) : src.binade(e + src.in(-80, 80));
        float_float yy = src.ds(e + (cancel ? 0 : src.in(-80, 80)), 40);
        if (cancel) {
            const eft::pair p = eft::fast_two_sum(-(x.hi + ulp(x.hi) * static_cast<float>(src.in(-3, 3))), yy.lo);
            yy = {p.hi, p.lo};
        }
        const float_float s1 = x + y;
        add_f.add(relative_error_u2(exact(s1), exact(x) + exact(y)), s1, [&] { return hex(x) + " + " + hex(y); });
        const float_float s2 = x + yy;
        add_ff.add(relative_error_u2(exact(s2), exact(x) + exact(yy)), s2, [&] { return hex(x) + " + " + hex(yy); });
        // Products (scale-invariant without under/overflow, so the binades are shifted up): hi in
        // binades [5, 60] with lo gaps up to 40 keeps every partial product >= 2^(2 (5-25-40)) =
        // 2^-120 normal and below 2^122.
        const float_float xm = src.ds(src.in(5, 60), 40);
        const float ym = src.binade(src.in(-40, 40));
        const float_float p1 = xm * ym;
        mul_f.add(relative_error_u2(exact(p1), exact(xm) * exact(ym)), p1, [&] { return hex(xm) + " * " + hex(ym); });
        const float_float ym2 = src.ds(src.in(5, 60), 40);
        const float_float p2 = xm * ym2;
        mul_ff.add(relative_error_u2(exact(p2), exact_product(xm, ym2)), p2,
                   [&] { return hex(xm) + " * " + hex(ym2); });
    }
    for (const error_tally* t : {&add_f, &add_ff, &mul_f, &mul_ff}) {
        t->report();
        t->expect_clean();
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-picked cases

TEST(FloatFloatCases, MassiveCancellation) {
    operand_source src(0x5eed0201);
    for (int i = 0; i < 10000; ++i) {
        const float_float x = src.ds(src.in(-100, 100), 30);
        const float_float d = x + (-x);
        EXPECT_EQ(d.hi, 0.0f) << hex(x);
        EXPECT_EQ(d.lo, 0.0f) << hex(x);
        const float_float d2 = x - x;
        EXPECT_EQ(d2.hi, 0.0f);
        EXPECT_EQ(d2.lo, 0.0f);
        // Subtracting the leading word leaves the trailing one, exactly.
        const float_float tail = x - x.hi;
        EXPECT_EQ(tail.hi, x.lo) << hex(x);
        EXPECT_EQ(tail.lo, 0.0f);
    }
    // (1 + 2^-30) - 1 = 2^-30 exactly (float would give 0).
    const float_float one_plus = float_float::exact(1.0f) + 0x1p-30f;
    EXPECT_EQ(one_plus.hi, 1.0f);
    EXPECT_EQ(one_plus.lo, 0x1p-30f);
    const float_float diff = one_plus - 1.0f;
    EXPECT_EQ(diff.hi, 0x1p-30f);
    EXPECT_EQ(diff.lo, 0.0f);
    const float_float diff_ff = one_plus - float_float::exact(1.0f);
    EXPECT_EQ(diff_ff.hi, 0x1p-30f);
    EXPECT_EQ(diff_ff.lo, 0.0f);
    EXPECT_EQ((1.0f + 0x1p-30f) - 1.0f, 0.0f);  // the float result the ds type improves on
}

// The worst cases found by the random tests (exact_real check). DWPlusFP's bound 2u^2/(1+2u) is
// asymptotically optimal and is nearly attained: for x = (-2^-37, -0x1.1189eap-62),
// y = 2^-38 - 2^-62, x.hi + y = -2^-38 - 2^-62 ties to -2^-38, v = x.lo - 2^-62 ~ -1.03 2^-61
// has to be rounded to 24 bits (error up to 2^-85) and the result is just above 2^-38 in
// magnitude: relative error ~2^-85 / 2^-38 = 2u^2. AccurateDWPlusDW reaches 2.5u^2 of its 3u^2
// (JMP 2017 report 2.25u^2 as the largest error they observed). A change of algorithm (e.g. a
// "sloppy" ff + ff, or a dropped renormalisation) would show up here first.
TEST(FloatFloatCases, NearWorstCases) {
    const float_float x = ff(-0x1p-37f, -0x1.1189eap-62f);
    const float y = 0x1.fffffep-39f;
    const double e1 = relative_error_u2(exact(x + y), exact(x) + exact(y));
    EXPECT_GT(e1, 1.9999997);
    EXPECT_LE(e1, bound_add_f);
    const float_float a = ff(-0x1p+11f, -0x1.6530dep-14f);
    const float_float b = ff(0x1.fffffep+9f, -0x1.c533c8p-18f);
    const double e2 = relative_error_u2(exact(a + b), exact(a) + exact(b));
    EXPECT_GT(e2, 2.4999996);
    EXPECT_LE(e2, bound_add_ff);
    std::printf("[ FloatFloat ] near-worst cases: ff+f %.10f u^2 (bound %.10f), ff+ff %.10f u^2 (bound %.10f)\n", e1,
                bound_add_f, e2, bound_add_ff);
}

// Words 2^24 and 2^48 apart: representable exactly as ds, beyond float.
TEST(FloatFloatCases, OperandsFarApart) {
    // 1 + 2^-24 is a float tie (RN gives 1); the ds keeps the 2^-24 in lo.
    const float_float a = float_float::exact(1.0f) + 0x1p-24f;
    EXPECT_EQ(a.hi, 1.0f);
    EXPECT_EQ(a.lo, 0x1p-24f);
    EXPECT_TRUE(is_normalised(a));
    EXPECT_EQ(stokesian::to_double(a), 1.0 + 0x1p-24);
    // 1 + 2^-48: 48 binades apart.
    const float_float b = float_float::exact(1.0f) + 0x1p-48f;
    EXPECT_EQ(b.hi, 1.0f);
    EXPECT_EQ(b.lo, 0x1p-48f);
    EXPECT_EQ(stokesian::to_double(b), 1.0 + 0x1p-48);
    EXPECT_EQ((b - 1.0f).hi, 0x1p-48f);
    // 2^48 + 1 (integers): exact.
    const float_float c = float_float::exact(0x1p48f) + 1.0f;
    EXPECT_EQ(c.hi, 0x1p48f);
    EXPECT_EQ(c.lo, 1.0f);
    // (1 + 2^-24) + 2^-48 = 1 + 2^-24 + 2^-48 needs lo = 2^-24 (1 + 2^-24), 25 bits: the ds result
    // rounds (lo ties to even 2^-24), an error of 2^-48 / (1 + 2^-24 + 2^-48) < 1 u^2 <= 2u^2/(1+2u).
    const float_float d = a + 0x1p-48f;
    EXPECT_EQ(d.hi, 1.0f);
    EXPECT_EQ(d.lo, 0x1p-24f);
    EXPECT_LE(relative_error_u2(exact(d), exact(a) + exact(0x1p-48f)), bound_add_f);
    // Products: (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 exactly as (1 + 2^-22, 2^-46).
    const float_float sq = float_float::exact(1.0f + 0x1p-23f) * (1.0f + 0x1p-23f);
    EXPECT_EQ(sq.hi, 1.0f + 0x1p-22f);
    EXPECT_EQ(sq.lo, 0x1p-46f);
    const float_float sq2 = float_float::exact(1.0f + 0x1p-23f) * float_float::exact(1.0f + 0x1p-23f);
    EXPECT_EQ(sq2, sq);
}

// Subnormals. Sums stay exact down to 2^-149 (float addition never underflows). Products lose
// the tail (see TwoProdLosesExactnessOnUnderflow); the bounds do not claim otherwise.
TEST(FloatFloatCases, Subnormals) {
    const float tiny = std::numeric_limits<float>::denorm_min();
    // ds with a subnormal hi: lo must be 0 (ulp(hi)/2 = 2^-150 is not a float).
    const float_float a = float_float::exact(0x1p-140f) + tiny;
    EXPECT_EQ(a.hi, 0x1p-140f + tiny);  // representable: multiple of 2^-149 below 2^-126
    EXPECT_EQ(a.lo, 0.0f);
    EXPECT_TRUE(is_normalised(a));
    // A normal hi with a subnormal lo: 2^-110 + 2^-149 (39 binades apart) is exact.
    const float_float b = float_float::exact(0x1p-110f) + tiny;
    EXPECT_EQ(b.hi, 0x1p-110f);
    EXPECT_EQ(b.lo, tiny);
    EXPECT_EQ((b - 0x1p-110f).hi, tiny);
    // ff + ff cancelling to a subnormal result: exact.
    const float_float c = b - float_float::exact(0x1p-110f);
    EXPECT_EQ(c.hi, tiny);
    EXPECT_EQ(c.lo, 0.0f);
    // Random sums of ds numbers near the bottom of the range: exact, since every word is a
    // multiple of 2^-149 and the results fit 48 bits (binades <= -102).
    operand_source src(0x5eed0202);
    for (int i = 0; i < 20000; ++i) {
        const auto k1 = static_cast<float>(static_cast<std::int64_t>(src.bits() % (1u << 24)) - (1 << 23));
        const auto k2 = static_cast<float>(static_cast<std::int64_t>(src.bits() % (1u << 24)) - (1 << 23));
        const float_float x = float_float::exact(k1 * tiny);  // subnormal or smallest binades
        const float y = k2 * tiny;
        const float_float z = x + y;
        EXPECT_TRUE(exact(z) == exact(x) + exact(y)) << hex(x) << " + " << hex(y);
        EXPECT_TRUE(is_normalised(z));
    }
}

// Signed zeros. Documented in float_float.hpp: exact, from_double, negation and to_double keep the
// sign of a zero; arithmetic returns +0 for a zero result whatever the zero operands' signs.
TEST(FloatFloatCases, SignedZeros) {
    const float_float mz = float_float::exact(-0.0f);
    EXPECT_TRUE(std::signbit(mz.hi));
    EXPECT_TRUE(std::signbit(stokesian::to_double(mz)));
    EXPECT_TRUE(std::signbit(stokesian::to_double(float_float::from_double(-0.0))));
    EXPECT_TRUE(std::signbit(float_float::from_double(-0.0).hi));
    EXPECT_FALSE(std::signbit(float_float::from_double(0.0).hi));
    EXPECT_TRUE(std::signbit((-float_float::exact(0.0f)).hi));
    EXPECT_TRUE(std::signbit(stokesian::to_float(mz)));
    // -0 == +0 (float comparison semantics).
    EXPECT_TRUE(mz == float_float::exact(0.0f));
    EXPECT_FALSE(mz < float_float::exact(0.0f));
    // Arithmetic: the value is zero and the pair is (+0, +0) (float would keep -0 for -0 + -0 and
    // give -0 for 0 * -1).
    for (const float_float z : {mz + -0.0f, mz + mz, mz - 0.0f, float_float::exact(0.0f) * -1.0f,
                                float_float::exact(0.0f) * float_float::exact(-1.0f), mz * 1.0f}) {
        EXPECT_EQ(z.hi, 0.0f);
        EXPECT_EQ(z.lo, 0.0f);
        EXPECT_FALSE(std::signbit(z.hi)) << hex(z);
        EXPECT_EQ(stokesian::to_double(z), 0.0);
    }
    // x + 0, x * 1 and x * -1 are exact for any normalised x.
    operand_source src(0x5eed0203);
    for (int i = 0; i < 10000; ++i) {
        const float_float x = src.ds(src.in(-100, 100), 30);
        EXPECT_EQ(x + 0.0f, x);
        EXPECT_EQ(x + float_float::exact(0.0f), x);
        EXPECT_EQ(x * 1.0f, x);
        EXPECT_EQ(x * -1.0f, -x);
        EXPECT_EQ(x * float_float::exact(1.0f), x);
    }
}

// inf and NaN: as in float arithmetic on hi, with lo = 0.
TEST(FloatFloatCases, InfinityAndNaN) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float_float one = float_float::exact(1.0f);
    const float_float x = ff(1.0f, 0x1p-30f);

    for (const float_float z : {x + inf, float_float::exact(inf) + 1.0f, x + float_float::exact(inf),
                                float_float::exact(inf) + x, x * inf, float_float::exact(inf) * x}) {
        EXPECT_EQ(z.hi, inf);
        EXPECT_EQ(z.lo, 0.0f);
        EXPECT_EQ(stokesian::to_double(z), std::numeric_limits<double>::infinity());
    }
    EXPECT_EQ((x + -inf).hi, -inf);
    EXPECT_EQ((x * -inf).hi, -inf);
    EXPECT_EQ((x * -inf).lo, 0.0f);
    // inf - inf and 0 * inf are NaN.
    EXPECT_TRUE(std::isnan((float_float::exact(inf) + -inf).hi));
    EXPECT_TRUE(std::isnan((float_float::exact(inf) + float_float::exact(-inf)).hi));
    EXPECT_TRUE(std::isnan((float_float::exact(0.0f) * inf).hi));
    EXPECT_TRUE(std::isnan((float_float::exact(inf) * float_float::exact(0.0f)).hi));
    // NaN propagates through every operation, in either operand.
    const float_float n = float_float::exact(nan);
    for (const float_float z : {n + 1.0f, x + nan, n + x, x + n, n * 2.0f, x * nan, n * x, x * n, -n, n - x, x - nan}) {
        EXPECT_TRUE(std::isnan(z.hi)) << hex(z);
        EXPECT_TRUE(std::isnan(stokesian::to_double(z)));
        EXPECT_TRUE(std::isnan(stokesian::to_float(z)));
    }
    // Overflow of the leading product or sum: hi = inf, lo = 0.
    const float_float big = float_float::exact(FLT_MAX);
    EXPECT_EQ((big * 2.0f).hi, inf);
    EXPECT_EQ((big * 2.0f).lo, 0.0f);
    EXPECT_EQ((big * float_float::exact(2.0f)).hi, inf);
    EXPECT_EQ((big + FLT_MAX).hi, inf);
    EXPECT_EQ((big + FLT_MAX).lo, 0.0f);
    EXPECT_EQ((big + big).hi, inf);
    EXPECT_EQ((-big + -FLT_MAX).hi, -inf);
    EXPECT_EQ((one * FLT_MAX).hi, FLT_MAX);  // no spurious overflow
    // Overflow only in the final renormalisation (the leading float sum/product still finite):
    // x = (FLT_MAX, 3 2^101) is normalised (ulp(FLT_MAX)/2 = 2^103); adding 2^102 gives the value
    // FLT_MAX + 5 2^101 > FLT_MAX + 2^103, which rounds to inf. Before the fix in float_float.hpp
    // ff + float returned (inf, -inf), whose to_double is NaN, and ff + ff returned (NaN, NaN).
    const float_float edge = ff(FLT_MAX, 0x1.8p102f);
    ASSERT_TRUE(is_normalised(edge));
    for (const float_float z :
         {edge + 0x1p102f, edge + float_float::exact(0x1p102f), edge * float_float{1.0f, 0x1p-25f}}) {
        EXPECT_EQ(z.hi, inf) << hex(z);
        EXPECT_EQ(z.lo, 0.0f) << hex(z);
        EXPECT_EQ(stokesian::to_double(z), std::numeric_limits<double>::infinity());
    }
    EXPECT_EQ((-edge + -0x1p102f).hi, -inf);
    EXPECT_EQ((-edge + -0x1p102f).lo, 0.0f);
    // ... and the largest sums that do not overflow stay finite and exact.
    const float_float below = edge + 0x1p100f;  // FLT_MAX + 2^103 - 2^101 + ... < FLT_MAX + 2^103
    EXPECT_EQ(below.hi, FLT_MAX);
    EXPECT_TRUE(exact(below) == exact(edge) + exact(0x1p100f));
}

// ff * float overflowing only in the final Fast2Sum needs RN(x.hi y) = FLT_MAX, i.e. x.hi y below
// FLT_MAX + 2^103, while x.hi y + x.lo y reaches FLT_MAX + 2^103: search y = 1 + k 2^-23 with the
// largest x.hi whose product stays below the limit and the largest admissible x.lo.
TEST(FloatFloatCases, MulFloatOverflowInRenormalisation) {
    const float inf = std::numeric_limits<float>::infinity();
    const double limit = static_cast<double>(FLT_MAX) + 0x1p103;  // RN_float(t) = inf iff t >= limit
    int found = 0;
    for (int k = 1; k < 100000 && found < 20; ++k) {
        const float y = 1.0f + static_cast<float>(k) * 0x1p-23f;  // exact
        float xh = static_cast<float>(limit / static_cast<double>(y));
        // Products of two floats are exact in double.
        while (!std::isfinite(xh) || static_cast<double>(xh) * static_cast<double>(y) >= limit)
            xh = std::nextafter(xh, 0.0f);
        const float_float x = float_float::normalise(xh, std::nextafter(ulp(xh) / 2.0f, 0.0f));
        ASSERT_TRUE(is_normalised(x)) << hex(x);
        const eft::pair c = eft::two_prod(x.hi, y);
        if (c.hi != FLT_MAX) continue;
        const float_float z = x * y;
        if (std::isfinite(z.hi)) continue;
        ++found;
        EXPECT_EQ(z.hi, inf) << hex(x) << " * " << hex(y);
        EXPECT_EQ(z.lo, 0.0f) << hex(x) << " * " << hex(y);
        // Genuinely out of range: the unrounded ds value c.hi + cl3 >= limit is within 2u^2 of
        // the exact product, so the exact product is >= limit (1 - 2u^2).
        EXPECT_GE(exact(x) * exact(y), exact_real(limit) * (1 - exact_real(2 * u2)));
    }
    EXPECT_GT(found, 0) << "no ff*float case overflowing only in the final Fast2Sum was found";
    std::printf("[ FloatFloat ] %d ff*float products overflowing in the final Fast2Sum checked\n", found);
}

// Lexicographic comparisons of normalised pairs order them by value, also when only lo differs.
TEST(FloatFloatCases, Comparisons) {
    const float_float a = ff(1.0f, 0x1p-30f);
    const float_float b = ff(1.0f, 0x1p-29f);
    const float_float c = ff(1.0f, -0x1p-30f);
    EXPECT_TRUE(a < b);
    EXPECT_TRUE(b > a);
    EXPECT_FALSE(a == b);
    EXPECT_FALSE(b < a);
    EXPECT_TRUE(c < float_float::exact(1.0f));
    EXPECT_TRUE(float_float::exact(1.0f) < a);
    EXPECT_TRUE(a > 1.0f);
    EXPECT_TRUE(c < 1.0f);
    EXPECT_FALSE(float_float::exact(1.0f) < 1.0f);
    EXPECT_FALSE(float_float::exact(1.0f) > 1.0f);
    EXPECT_TRUE(ff(-1.0f, 0x1p-30f) > ff(-1.0f, 0.0f));
    EXPECT_TRUE(ff(-1.0f, -0x1p-30f) < -1.0f);
    const float_float n = float_float::exact(std::numeric_limits<float>::quiet_NaN());
    EXPECT_FALSE(n == n);
    EXPECT_FALSE(n < a);
    EXPECT_FALSE(a < n);
    EXPECT_FALSE(n > 1.0f);
    // Random pairs, mostly close in value (half of them share hi and differ by a few ulps of lo):
    // the comparison agrees with the sign of the exact difference.
    operand_source src(0x5eed0204);
    for (int i = 0; i < 100000; ++i) {
        const int e = src.in(-50, 50);
        const float_float x = src.ds(e, 8);
        float_float y = src.ds(e + src.in(-1, 1), 8);
        if (i % 2 == 0) {
            const float step = ulp(x.lo == 0.0f ? x.hi : x.lo) * static_cast<float>(src.in(-2, 2));
            y = float_float::normalise(x.hi, x.lo + step);
        }
        const exact_real diff = exact(x) - exact(y);
        ASSERT_EQ(x < y, diff < 0) << hex(x) << " vs " << hex(y);
        ASSERT_EQ(x > y, diff > 0) << hex(x) << " vs " << hex(y);
        ASSERT_EQ(x == y, diff == 0) << hex(x) << " vs " << hex(y);
    }
}

// from_double / to_double.
// Exactly representable: a double whose significand splits into a float hi and a float lo with
// |lo| <= ulp(hi)/2 round-trips bit for bit. Otherwise the error is that of rounding d - hi to
// float: with e = floor(log2 |d|), |d - hi| <= 2^(e-24), so |lo - (d - hi)| <= 2^(e-25-24) and
// |to_double(from_double(d)) - d| <= 2^(e-49) <= 2^-49 |d| = u^2/2 |d| (to_double adds hi + lo
// exactly here: both are multiples of 2^(e-52) and the sum is below 2^(e+1)).
TEST(FloatFloatCases, FromDoubleRoundTrip) {
    using stokesian::to_double;
    using stokesian::to_float;
    // 1 + 2^-40: hi = 1, lo = 2^-40.
    const float_float a = float_float::from_double(1.0 + 0x1p-40);
    EXPECT_EQ(a.hi, 1.0f);
    EXPECT_EQ(a.lo, 0x1p-40f);
    EXPECT_EQ(boost::math::float_distance(to_double(a), 1.0 + 0x1p-40), 0.0);
    // The tie case fixed in float_float.hpp: d = 1 + 2^-23 + 2^-24 - 2^-52 gave
    // (1 + 2^-23, 2^-24), a tie that RN resolves to 1 + 2^-22: not normalised, unequal (==) to
    // from_double(1 + 2^-23 + 2^-24) although of the same value, and x + 0 != x.
    const double d_tie = 1.0 + 0x1p-23 + 0x1p-24 - 0x1p-52;
    const float_float t = float_float::from_double(d_tie);
    EXPECT_TRUE(is_normalised(t)) << hex(t);
    EXPECT_EQ(t, float_float::from_double(1.0 + 0x1p-23 + 0x1p-24)) << hex(t);
    EXPECT_EQ(t + 0.0f, t);
    EXPECT_LE(std::fabs(to_double(t) - d_tie), 0x1p-49 * d_tie);
    EXPECT_EQ(std::fabs(boost::math::float_distance(to_float(t), static_cast<float>(d_tie))), 1.0f);  // other neighbour

    operand_source src(0x5eed0205);
    long long other_neighbour = 0;
    for (int i = 0; i < 500000; ++i) {
        const int e = src.in(-100, 100);
        // Exactly representable: hi + lo with lo within 29 binades (exact in double).
        const float_float x = src.ds(e, 4);
        const double dx = static_cast<double>(x.hi) + static_cast<double>(x.lo);
        const float_float rx = float_float::from_double(dx);
        ASSERT_EQ(rx, x) << hex(dx);
        ASSERT_EQ(boost::math::float_distance(to_double(rx), dx), 0.0) << hex(dx);
        // An arbitrary double, half of them near a float midpoint (within 8 double ulps).
        double d = std::ldexp(static_cast<double>(src.bits() >> 11) * 0x1p-53 + 1.0, e);
        if (i % 2 == 0) {
            const double mid = (static_cast<double>(x.hi) + static_cast<double>(std::nextafter(x.hi, 2.0f * x.hi)));
            d = (mid / 2.0) + static_cast<double>(src.in(-8, 8)) * std::ldexp(1.0, std::ilogb(mid) - 53);
        }
        if (src.one_in(2)) d = -d;
        const float_float r = float_float::from_double(d);
        ASSERT_TRUE(is_normalised(r)) << hex(d) << " -> " << hex(r);
        const double bound = std::ldexp(1.0, std::ilogb(d) - 49);  // 2^(e-49) <= u^2/2 |d|
        ASSERT_LE(std::fabs(to_double(r) - d), bound) << hex(d) << " -> " << hex(r);
        // relative_difference divides by min(|a|, |b|) >= 2^e (both lie in [2^e, 2^(e+1)]).
        ASSERT_LE(boost::math::relative_difference(to_double(r), d), 0x1p-49) << hex(d);
        // to_float is RN_float(d) except within 2^-49 |d| of a midpoint (then the other neighbour).
        const float df = static_cast<float>(d);
        const float dist = std::fabs(boost::math::float_distance(to_float(r), df));
        ASSERT_LE(dist, 1.0f) << hex(d);
        if (dist != 0.0f) {
            ++other_neighbour;
            const double midpoint = (static_cast<double>(df) + static_cast<double>(to_float(r))) / 2.0;
            ASSERT_LE(std::fabs(d - midpoint), bound) << hex(d);
        }
    }
    std::printf(
        "[ FloatFloat ] from_double: %lld of 500000 doubles (half near float midpoints) got the "
        "other float neighbour as hi\n",
        other_neighbour);
    // Out of float range: inf/NaN with lo = 0; below: flushed (documented).
    EXPECT_EQ(float_float::from_double(1e39).hi, std::numeric_limits<float>::infinity());
    EXPECT_EQ(float_float::from_double(1e39).lo, 0.0f);
    EXPECT_EQ(float_float::from_double(-DBL_MAX).hi, -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(float_float::from_double(std::nan("")).hi));
    EXPECT_EQ(float_float::from_double(1e-60).hi, 0.0f);
    EXPECT_EQ(to_double(float_float::from_double(static_cast<double>(FLT_MAX))), static_cast<double>(FLT_MAX));
    // to_double of a ds whose lo is more than 29 binades below hi rounds once, to nearest double.
    const float_float far = ff(1.0f, 0x1.000002p-40f);  // 1 + 2^-40 + 2^-63 needs 64 bits
    EXPECT_EQ(to_double(far), 1.0 + 0x1p-40);           // 2^-63 < ulp(1)/2 = 2^-53: rounds down
}

// ---------------------------------------------------------------------------------------------
// Accumulation, as in the hydrodynamic kernel (acc = acc + c, acc a float_float, c a float).
//
// Recursive summation with an operation of relative error <= delta (DWPlusFP: delta = 2u^2/(1+2u))
// gives s_1 = c_1 exactly (0 + c_1 is exact) and s_i = (s_{i-1} + c_i)(1 + d_i), |d_i| <= delta.
// So s_n - sum(c) = sum_{i=2..n} d_i (s_{i-1} + c_i) = sum_{i=2..n} d_i s_i / (1 + d_i), and
//   |s_n - sum(c)| <= delta / (1 - delta) * sum_{i=2..n} |s_i|        (a posteriori, computed)
//                  <= gamma_{n-1}(delta) * sum |c_i|,  gamma_k(d) = k d / (1 - k d)   (a priori;
// Higham, Accuracy and Stability of Numerical Algorithms, 2002, section 4.2.)
// The same argument with delta = u gives float's classical bound gamma_{n-1}(u) sum |c_i|.
struct accumulation_result {
    double ds_error, float_error, ds_a_posteriori, ds_a_priori, float_a_priori;
};

accumulation_result accumulate(const std::vector<float>& c) {
    const double delta = 2.0 * u2 / (1.0 + 2.0 * u);
    const auto n = static_cast<double>(c.size());
    float_float acc{};
    float plain = 0.0f;
    exact_real sum = 0;
    long double abs_partials = 0.0L;  // sum_{i>=2} |s_i|; rounding 2^-64 relative per term
    long double abs_terms = 0.0L;
    for (std::size_t i = 0; i < c.size(); ++i) {
        acc = acc + c[i];
        plain = plain + c[i];
        sum += exact_real(c[i]);
        if (i > 0) abs_partials += std::fabs(static_cast<long double>(acc.hi) + acc.lo);
        abs_terms += std::fabs(static_cast<long double>(c[i]));
    }
    accumulation_result r{};
    r.ds_error = static_cast<double>(abs(exact(acc) - sum));
    r.float_error = static_cast<double>(abs(exact_real(plain) - sum));
    // The computed bounds are inflated by 2^-40 relative to cover the long double/double rounding
    // of the sums of |.| (at most n 2^-64 < 2^-47 relative) - a bound may not be rounded down.
    const double inflate = 1.0 + 0x1p-40;
    r.ds_a_posteriori = delta / (1.0 - delta) * static_cast<double>(abs_partials) * inflate;
    r.ds_a_priori = (n - 1) * delta / (1.0 - (n - 1) * delta) * static_cast<double>(abs_terms) * inflate;
    r.float_a_priori = (n - 1) * u / (1.0 - (n - 1) * u) * static_cast<double>(abs_terms) * inflate;
    return r;
}

TEST(FloatFloatAccumulation, RecursiveSumMeetsBoundAndBeatsFloat) {
    operand_source src(0x5eed0301);
    constexpr std::size_t n = 100000;
    struct scenario {
        const char* name;
        bool mixed_signs;
    };
    for (const scenario s : {scenario{"mixed signs", true}, scenario{"positive", false}}) {
        std::vector<float> c(n);
        for (float& v : c) {
            v = src.binade(src.in(-10, 10));  // a spread of magnitudes, as pair contributions are
            if (!s.mixed_signs) v = std::fabs(v);
        }
        const accumulation_result r = accumulate(c);
        std::printf(
            "[ FloatFloat ] sum of %zu floats (%s): ds error %.3e, a posteriori bound %.3e, "
            "a priori bound %.3e; float error %.3e (float's bound %.3e)\n",
            n, s.name, r.ds_error, r.ds_a_posteriori, r.ds_a_priori, r.float_error, r.float_a_priori);
        EXPECT_LE(r.ds_error, r.ds_a_posteriori) << s.name;
        EXPECT_LE(r.ds_a_posteriori, r.ds_a_priori) << s.name;
        EXPECT_LE(r.float_error, r.float_a_priori) << s.name;
        // The assertion on ds has teeth: a float accumulator (or a ds one that silently lost its lo
        // word) misses the bound asserted above by more than a factor 1000. (The ds bounds are
        // 2u/(1+2u) ~ 2^-23 times float's. Float summation typically errs by ~u sqrt(sum s_i^2):
        // ~u n sigma for a random walk (mixed signs), ~u n^(3/2) mean / sqrt(3) for positive terms,
        // and the a posteriori bound is ~2u^2 sum |s_i|; observed: > 4000x and > 3e5x.)
        EXPECT_GT(r.float_error, 1000.0 * r.ds_a_posteriori) << s.name;
        if (!s.mixed_signs) {
            // With terms of one sign float even misses a bound 1000x tighter than its own
            // classical one: its error is ~ gamma_{n-1}(u) sum|c| / sqrt(3n) = bound / 550.
            EXPECT_GT(r.float_error, r.float_a_priori / 1000.0) << s.name;
        }
        // And the ds result is far better than float's (observed ratios 1.8e-8 and 7e-10).
        EXPECT_LT(r.ds_error * 1e6, r.float_error) << s.name;
    }
}

// The bound of the previous test, with all partial sums cancelling to small values (a force that
// nearly balances): the a posteriori bound is small and still holds.
TEST(FloatFloatAccumulation, CancellingSumMeetsAPosterioriBound) {
    operand_source src(0x5eed0302);
    std::vector<float> c;
    c.reserve(100000);
    for (int i = 0; i < 50000; ++i) {
        const float v = src.binade(src.in(-10, 10));
        c.push_back(v);
        c.push_back(-v * (1.0f + 0x1p-20f * static_cast<float>(src.in(-8, 8))));
    }
    const accumulation_result r = accumulate(c);
    std::printf(
        "[ FloatFloat ] cancelling sum of %zu floats: ds error %.3e (a posteriori bound %.3e); "
        "float error %.3e\n",
        c.size(), r.ds_error, r.ds_a_posteriori, r.float_error);
    EXPECT_LE(r.ds_error, r.ds_a_posteriori);
    EXPECT_LE(r.float_error, r.float_a_priori);
}

}  // namespace
