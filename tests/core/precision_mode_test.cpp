#include <gtest/gtest.h>

#include "stokesian/core/precision_modes.hpp"

using namespace stokesian;

TEST(PrecisionMode, ParsesBothOrders) {
    EXPECT_EQ(parse_precision_mode("hi=ds,int=f32"), (precision_mode{precision::ds, precision::f32}));
    EXPECT_EQ(parse_precision_mode("int=f32,hi=ds"), (precision_mode{precision::ds, precision::f32}));
    EXPECT_EQ(parse_precision_mode("hi=f64,int=f64"), reference_precision_mode);
}

TEST(PrecisionMode, RoundTripsEveryMode) {
    for (precision hi : {precision::f32, precision::ds, precision::f64})
        for (precision in : {precision::f32, precision::ds, precision::f64}) {
            const precision_mode m{hi, in};
            EXPECT_EQ(parse_precision_mode(to_string(m)), m) << to_string(m);
        }
}

// The short spellings, one reader for the scenario key run.precision and --precision: <hi>/<int>,
// and one precision for both.
TEST(PrecisionMode, ParsesTheShortSpellings) {
    EXPECT_EQ(parse_precision_mode("ds/f32"), (precision_mode{precision::ds, precision::f32}));
    EXPECT_EQ(parse_precision_mode("f32/ds"), (precision_mode{precision::f32, precision::ds}));
    EXPECT_EQ(parse_precision_mode("f64"), reference_precision_mode);
    EXPECT_EQ(parse_precision_mode("ds"), (precision_mode{precision::ds, precision::ds}));
}

TEST(PrecisionMode, RejectsBadSpellings) {
    for (const char* bad :
         {"", "hi=ds", "int=f32", "hi=f16,int=f32", "hi=ds,int=f32,hi=f64", "f16", "ds/", "/f32", "ds/f32/f64",
          "ds/f16", "hi=ds/f32", "hi:ds,int:f32", "hi=ds;int=f32", "hi=DS,int=f32", "paper", "all"})
        EXPECT_THROW(parse_precision_mode(bad), std::invalid_argument) << bad;
}

TEST(PrecisionMode, DispatchSelectsTheNamedPolicy) {
    for (precision hi : {precision::f32, precision::ds, precision::f64})
        for (precision in : {precision::f32, precision::ds, precision::f64}) {
            const precision_mode m{hi, in};
            const precision_mode seen = dispatch_precision(m, []<class P>(P) { return P::mode; });
            EXPECT_EQ(seen, m);
        }
}

TEST(PrecisionMode, PolicyTypesFollowThePaper) {
    using ds_f32 = precision_policy<precision::ds, precision::f32>;
    static_assert(std::is_same_v<ds_f32::accumulator, float_float>);
    static_assert(std::is_same_v<ds_f32::working, float>);  // tensors in single precision
    static_assert(std::is_same_v<ds_f32::position, float>);
    using ref = precision_policy<precision::f64, precision::f64>;
    static_assert(std::is_same_v<ref::working, double>);
    SUCCEED();
}
