// The JSON documents the tools write (stokesian/io/json_text.hpp, nlohmann-json): every double reads
// back to the same double, non-finite numbers are null, keys keep their order, integers stay exact,
// and bytes that are not UTF-8 (a file name) never make a document unwritable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "stokesian/io/json_text.hpp"

using stokesian::io::json;
using stokesian::io::json_number_from_text;
using stokesian::io::json_text;

TEST(JsonText, DoublesRoundTripExactlyAndNonFiniteNumbersAreNull) {
    std::mt19937_64 rng(14);
    std::uniform_int_distribution<std::uint64_t> bits;
    std::vector<double> values{
        0.1, 517.0360000000001, -277.7314066, 5e-324, std::numeric_limits<double>::max(), std::nextafter(1.0, 2.0)};
    for (int k = 0; k < 1000; ++k) {  // random bit patterns: every exponent, every mantissa
        double x;
        const std::uint64_t b = bits(rng);
        std::memcpy(&x, &b, sizeof x);
        if (std::isfinite(x)) values.push_back(x);
    }
    for (const double x : values) {
        const json back = json::parse(json_text({{"x", x}}));
        EXPECT_EQ(back.at("x").get<double>(), x) << json_text({{"x", x}});
    }
    for (const double x : {NAN, INFINITY, -INFINITY}) EXPECT_EQ(json_text({{"x", x}}), "{\"x\":null}\n");
}

TEST(JsonText, KeysKeepTheirOrderIntegersStayExactAndBadUtf8IsReplaced) {
    const std::uint64_t steps = (std::uint64_t{1} << 53) + 1;  // not a double
    EXPECT_EQ(json_text({{"z", 1}, {"a", steps}}), "{\"z\":1,\"a\":9007199254740993}\n");
    const std::string name = std::string("run_") + char(0xff) + ".h5";
    EXPECT_NO_THROW(json::parse(json_text({{"file", name}})));
    EXPECT_EQ(json_number_from_text("210000"), json(std::uint64_t{210000}));
    EXPECT_EQ(json_number_from_text("0.01").get<double>(), 0.01);
    EXPECT_TRUE(json_number_from_text("").is_null());
    EXPECT_TRUE(json_number_from_text("nan").get<double>() != json_number_from_text("nan").get<double>());
    EXPECT_TRUE(json_number_from_text("abc").is_null());
}
