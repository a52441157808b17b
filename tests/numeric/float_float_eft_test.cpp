// float_float (double-single, "ds") arithmetic against its documented error bounds: the error-free transforms.
// (notation, bounds and the exact and long double references: tests/support/float_float_reference.hpp).
#include <gtest/gtest.h>

#include "support/float_float_reference.hpp"

namespace {

using namespace float_float_testing;

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

}  // namespace
