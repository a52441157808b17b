// The compilation discipline the float-float (ds) type depends on, checked at run time.
//
// float_float's error-free transforms (EFTs) are only error-free if every float operation is
// evaluated exactly as written: correctly rounded, in float, in program order, never fused. The
// engine exports STOKESIAN_HOST_FP_FLAGS (-ffp-contract=off -fno-fast-math -fno-associative-math
// -fno-reciprocal-math ...) PUBLICly from stokesian_engine, so this translation unit, which is
// part of stokesian_unit_tests, is compiled with exactly the flags the engine's own host code is.
// Each test below fails when one of those flags is lost:
//  - -ffast-math (or -ffinite-math-only, -fno-signed-zeros, -freciprocal-math, -fassociative-math
//    on their own), detected from the predefined macros where GCC/Clang set one, and by
//    computations whose result those options change;
//  - FMA contraction (-ffp-contract=fast with an FMA-capable target, e.g. -mfma or -march=native);
//  - excess precision (FLT_EVAL_METHOD != 0, e.g. x87 code on i386).
// The operands come through volatile loads, so the optimiser cannot fold the expressions at compile
// time (constant folding follows the same rewrite rules, but it would hide contraction, which only
// exists in generated code).
//
// float_float.hpp refuses to compile under -ffast-math (#error). This file must still build and
// FAIL under -ffast-math, so that the runtime checks do not depend on that #error: it includes the
// header only when __FAST_MATH__ is not defined and otherwise checks a local transcription of 2Sum.
//
// Demonstrated by hand (GCC 12, x86-64), building this file outside CMake with
//   g++ -std=c++20 -O2 -I engine/numeric/include <this file> -lgtest -lgtest_main -pthread <flags>
//   project flags (also with -mfma added)                     all 7 tests pass
//   -ffast-math                                                5 fail: NotCompiledWithFastMath,
//       TwoSumErrorTermSurvivesOpaqueOperands, SignedZerosAreHonoured, NaNsAreHonoured,
//       DivisionIsCorrectlyRounded
//   -fassociative-math -fno-signed-zeros -fno-trapping-math   3 fail: NotCompiledWithFastMath,
//       SignedZerosAreHonoured, TwoSumErrorTermSurvivesOpaqueOperands - including the header's
//       eft::two_sum and eft::fast_two_sum, which return lo = 0 for 1 + 2^-30
//   -ffp-contract=fast -mfma, or -std=gnu++20 -march=native  NoFmaContraction fails
//   -freciprocal-math / -ffinite-math-only / -fno-signed-zeros  the corresponding test fails, and
//       NotCompiledWithFastMath through GCC's __RECIPROCAL_MATH__ / __FINITE_MATH_ONLY__ /
//       __NO_SIGNED_ZEROS__
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#if !defined(__FAST_MATH__)
#include "stokesian/numeric/float_float.hpp"
#define STOKESIAN_FF_TEST_HAVE_HEADER 1
#else
#define STOKESIAN_FF_TEST_HAVE_HEADER 0
#endif

namespace {

// Opaque operands: every read is a real load the compiler must perform, so it knows nothing
// about the values (no constant folding, no value-range reasoning).
volatile float g_one = 1.0f;
volatile float g_two_m30 = 0x1p-30f;         // 2^-30: far below ulp(1)/2 = 2^-24
volatile float g_one_p12 = 1.0f + 0x1p-12f;  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24
volatile float g_one_p11 = 1.0f + 0x1p-11f;  // RN((1 + 2^-12)^2) (2^-24 is a tie; even)
volatile float g_minus_zero = -0.0f;
volatile float g_nan = std::numeric_limits<float>::quiet_NaN();
volatile float g_one_p23 = 1.0f + 0x1p-23f;  // (1 + 2^-23) / 10 != (1 + 2^-23) * RN(1/10)
volatile float g_ten = 10.0f;

float load(const volatile float& v) { return v; }

// 2Sum transcribed from float_float.hpp with plain operators, so that it is compiled under this
// TU's flags even where the header cannot be included.
struct local_pair {
    float hi, lo;
};
local_pair local_two_sum(float a, float b) {
    const float s = a + b;
    const float a_rounded = s - b;
    const float b_rounded = s - a_rounded;
    const float a_error = a - a_rounded;
    const float b_error = b - b_rounded;
    return {s, a_error + b_error};
}

TEST(FloatFloatCompilation, NotCompiledWithFastMath) {
    // GCC >= 12 and Clang predefine these macros for the individual options; ADD_FAILURE (not
    // FAIL) so that every option found is reported.
#if defined(__FAST_MATH__)
    ADD_FAILURE() << "compiled with -ffast-math: float_float's error-free transforms are invalid "
                     "(reassociation, contraction, no signed zeros, no NaNs)";
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
    ADD_FAILURE() << "compiled with -ffinite-math-only: inf/NaN propagation is not honoured";
#endif
#if defined(__ASSOCIATIVE_MATH__)
    ADD_FAILURE() << "compiled with -fassociative-math: (a + b) - a may become b";
#endif
#if defined(__RECIPROCAL_MATH__)
    ADD_FAILURE() << "compiled with -freciprocal-math: x / y may become x * (1 / y)";
#endif
#if defined(__NO_SIGNED_ZEROS__)
    ADD_FAILURE() << "compiled with -fno-signed-zeros";
#endif
    SUCCEED();
}

// x87 code (FLT_EVAL_METHOD 2) evaluates float expressions in 64-bit precision and rounds only on
// stores: a + b - a would then be exact and 2Sum's error term would be lost or doubly rounded.
TEST(FloatFloatCompilation, FloatIsEvaluatedInFloat) {
    EXPECT_EQ(FLT_EVAL_METHOD, 0) << "float arithmetic is evaluated in a wider format";
}

// Reassociation (-fassociative-math, implied by -ffast-math) rewrites (a + b) - a into b and so
// the error term of 2Sum/Fast2Sum into 0: with a = 1 and b = 2^-30, RN(1 + 2^-30) = 1 and the
// exact error term is 2^-30.
TEST(FloatFloatCompilation, TwoSumErrorTermSurvivesOpaqueOperands) {
    const float a = load(g_one);
    const float b = load(g_two_m30);

    // The plainest form of the rewrite: (a + b) - a is 0 in IEEE arithmetic, b when reassociated.
    const float s = a + b;
    EXPECT_EQ(s - a, 0.0f) << "(1 + 2^-30) - 1 was not evaluated in float: reassociation";

    const local_pair local = local_two_sum(a, b);
    EXPECT_EQ(local.hi, 1.0f);
    EXPECT_EQ(local.lo, 0x1p-30f) << "2Sum lost its error term: reassociation";

#if STOKESIAN_FF_TEST_HAVE_HEADER
    const stokesian::eft::pair two = stokesian::eft::two_sum(a, b);
    EXPECT_EQ(two.hi, 1.0f);
    EXPECT_EQ(two.lo, 0x1p-30f) << "eft::two_sum lost its error term: reassociation";
    const stokesian::eft::pair fast = stokesian::eft::fast_two_sum(a, b);
    EXPECT_EQ(fast.hi, 1.0f);
    EXPECT_EQ(fast.lo, 0x1p-30f) << "eft::fast_two_sum lost its error term: reassociation";

    // The same through float_float: (1 + 2^-30) - 1 must keep the 2^-30.
    using stokesian::float_float;
    const float_float x = float_float::exact(a) + b;
    EXPECT_EQ(x.hi, 1.0f);
    EXPECT_EQ(x.lo, 0x1p-30f);
    const float_float d = x - a;
    EXPECT_EQ(d.hi, 0x1p-30f) << "float_float (1 + 2^-30) - 1 != 2^-30";
    EXPECT_EQ(d.lo, 0.0f);
#endif
}

// -fno-signed-zeros lets the compiler fold x + 0 into x; for x = -0 IEEE gives +0.
TEST(FloatFloatCompilation, SignedZerosAreHonoured) {
    const float mz = load(g_minus_zero);
    EXPECT_TRUE(std::signbit(mz));
    EXPECT_FALSE(std::signbit(mz + 0.0f)) << "-0 + 0 folded to -0: -fno-signed-zeros";
}

// -ffinite-math-only lets the compiler assume no NaN exists (isnan folds to false, x != x to false).
TEST(FloatFloatCompilation, NaNsAreHonoured) {
    const float nan = load(g_nan);
    EXPECT_TRUE(std::isnan(nan)) << "isnan(NaN) is false: -ffinite-math-only";
    EXPECT_TRUE(nan != nan) << "NaN == NaN: -ffinite-math-only";
}

// -freciprocal-math turns x / 10 into x * RN(1/10), which is not correctly rounded: for
// x = 1 + 2^-23, x / 10 rounds to 0x1.99999cp-4 but x * RN(0.1) to 0x1.99999ep-4.
TEST(FloatFloatCompilation, DivisionIsCorrectlyRounded) {
    const float x = load(g_one_p23);
    EXPECT_EQ(x / 10.0f, 0x1.99999cp-4f) << "x / 10 became x * 0.1: -freciprocal-math";
    EXPECT_EQ(x / load(g_ten), 0x1.99999cp-4f);
}

// FMA contraction (-ffp-contract=fast on an FMA-capable target) evaluates a*b - c as
// fma(a, b, -c) with a single rounding. With a = b = 1 + 2^-12 and c = RN(a*b) = 1 + 2^-11, the
// separately rounded expression is exactly 0 and the fused one is the rounding error 2^-24.
// Contraction would not break float_float's EFTs directly (they call fma explicitly), but the
// CPU backend must round like the CUDA backend, which is built with -fmad=false, and every other
// plain float expression of the engine relies on this flag too.
// On an x86-64 baseline target without FMA the compiler cannot contract, and the test is
// satisfied trivially; built with -mfma or -march=native it is the check that -ffp-contract=off
// is in force.
// Each product has a single use, the subtraction: the shape GCC and Clang contract. (A product
// that is also used elsewhere, e.g. compared, is not contracted, which would hide the problem.)
float product_minus(const volatile float& a, const volatile float& b, const volatile float& c) {
    return load(a) * load(b) - load(c);
}
float product_minus_product(const volatile float& a, const volatile float& b, const volatile float& c,
                            const volatile float& d) {
    return load(a) * load(b) - load(c) * load(d);  // may contract to fma(a, b, -(c*d))
}

TEST(FloatFloatCompilation, NoFmaContraction) {
    const float a = load(g_one_p12);
    const float c = load(g_one_p11);
    ASSERT_EQ(std::fma(a, a, -c), 0x1p-24f);  // the fused value a contraction would produce
    EXPECT_EQ(product_minus(g_one_p12, g_one_p12, g_one_p11), 0.0f)
        << "a*a - c was evaluated as fma(a, a, -c): FMA contraction (-ffp-contract=fast)";
    // a*a - c*1 (the a*b - c*d shape of cross products): separately rounded RN(a*a) - c = 0;
    // fused as fma(a, a, -(c*1)) it is 2^-24.
    EXPECT_EQ(product_minus_product(g_one_p12, g_one_p12, g_one_p11, g_one), 0.0f)
        << "a*b - c*d was evaluated as fma(a, b, -c*d): FMA contraction";
#if STOKESIAN_FF_TEST_HAVE_HEADER
    // 2Prod itself must give the exact error term 2^-24 (explicit fma).
    const stokesian::eft::pair p = stokesian::eft::two_prod(a, a);
    EXPECT_EQ(p.hi, c);
    EXPECT_EQ(p.lo, 0x1p-24f);
#endif
}

}  // namespace
