// One list of precisions drives the names, parsing, dispatch, checkpoint words and port-check
// (numeric/precision_traits.hpp, engine/README.md "How to add a precision mode"): these tests walk
// the list and check that every consumer sees exactly it: what holds of each precision or mode is a
// TEST_P over the list (a precision added to it is checked without a test of its own), what holds
// of the list as a whole a TEST.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>

#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/port/port_check.hpp"

using namespace stokesian;

namespace {

std::tuple<int, int> key(precision_mode m) { return {int(m.hi), int(m.integration)}; }

// The test's name suffix: the precision's name ("f32"), or the mode's, hi then int ("ds_f32").
std::string test_name_of(std::string name) {
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}
std::string precision_test_name(const testing::TestParamInfo<precision>& info) {
    return test_name_of(std::string(to_string(info.param)));
}
std::string mode_test_name(const testing::TestParamInfo<precision_mode>& info) {
    return test_name_of(std::string(to_string(info.param.hi)) + "_" + std::string(to_string(info.param.integration)));
}

class EachPrecision : public testing::TestWithParam<precision> {};
class EachPrecisionMode : public testing::TestWithParam<precision_mode> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(TheList, EachPrecision, testing::ValuesIn(precisions), precision_test_name);
INSTANTIATE_TEST_SUITE_P(TheList, EachPrecisionMode, testing::ValuesIn(precision_modes), mode_test_name);

TEST_P(EachPrecision, ParsesItsOwnName) {
    const precision p = GetParam();
    EXPECT_EQ(parse_precision(to_string(p)), p) << to_string(p);
}

TEST(PrecisionList, NoTwoPrecisionsShareANameAndOthersAreRefused) {
    std::set<std::string> names;
    for (const precision p : precisions) names.insert(std::string(to_string(p)));
    EXPECT_EQ(names.size(), precisions.size()) << "two precisions share a name";
    EXPECT_THROW(parse_precision("f16"), std::invalid_argument);
}

TEST_P(EachPrecisionMode, ParsesBack) {
    const precision_mode m = GetParam();
    EXPECT_EQ(parse_precision_mode(to_string(m)), m) << to_string(m);
}

TEST(PrecisionList, ModesAreEveryPairOfTheListOnce) {
    EXPECT_EQ(precision_modes.size(), precisions.size() * precisions.size());
    std::set<std::tuple<int, int>> seen;
    for (const precision_mode m : precision_modes) seen.insert(key(m));
    EXPECT_EQ(seen.size(), precision_modes.size());
    for (const precision_mode m : paper_precision_modes)
        EXPECT_TRUE(seen.count(key(m))) << to_string(m) << " is a paper mode outside the list";
}

TEST_P(EachPrecisionMode, DispatchReachesTheTypesWhoseTraitsMatchTheMode) {
    const precision_mode m = GetParam();
    const bool matches = dispatch_precision(m, [&]<class Policy>(Policy) {
        using hi = precision_traits<Policy::hi>;
        using in = precision_traits<Policy::integration>;
        return hi::name == to_string(m.hi) && in::name == to_string(m.integration) &&
               std::is_same_v<typename Policy::accumulator, typename hi::storage> &&
               std::is_same_v<typename Policy::position, typename in::storage> &&
               std::is_same_v<typename Policy::working, typename precision_traits<hi::working>::storage>;
    });
    EXPECT_TRUE(matches) << to_string(m);
}

// The traits of each precision agree with its storage type: the words hold the value exactly, one
// word's unit roundoff is its type's, and a value's words fit the checkpoint check only for the
// precision they came from (or a wider one).
TEST_P(EachPrecision, TraitsAgreeWithTheStorageType) {
    const precision p = GetParam();
    visit_precision(p, [&]<class Constant>(Constant) {
        using traits = precision_traits<Constant::value>;
        using storage = typename traits::storage;
        const precision_info info = precision_info_of(p);
        EXPECT_EQ(info.name, traits::name);
        EXPECT_EQ(sizeof(storage), std::size_t(info.words) * sizeof(typename traits::word)) << traits::name;
        EXPECT_EQ(info.word_bits, int(8 * sizeof(typename traits::word))) << traits::name;
        if constexpr (traits::words == 1)
            EXPECT_EQ(traits::unit_roundoff, double(std::numeric_limits<storage>::epsilon()) / 2) << traits::name;
        // one third, rounded to the storage: its words fit, and nudging the low word breaks them
        const storage third = value_cast<storage>(1.0 / 3.0);
        double hi = 0, lo = 0;
        to_words(third, hi, lo);
        EXPECT_TRUE(words_fit<storage>(hi, lo)) << traits::name;
        const double nudged_lo = lo == 0.0 ? 0x1p-80 : lo * (1.0 + 0x1p-40);  // no longer a word
        EXPECT_FALSE(words_fit<storage>(hi, nudged_lo)) << traits::name;
        EXPECT_EQ(traits::ulp_distance(hi, lo, hi, lo), 0.0) << traits::name;
    });
}

TEST(PrecisionList, PortCheckRecordsEveryModeOfTheList) {
    const std::vector<precision_mode> recorded = port::all_precision_modes();
    ASSERT_EQ(recorded.size(), precision_modes.size());
    EXPECT_TRUE(std::equal(recorded.begin(), recorded.end(), precision_modes.rbegin())) << "f64 first";
}

TEST_P(EachPrecisionMode, PortCheckBoundsTheMode) {
    const precision_mode m = GetParam();
    EXPECT_EQ(port::accumulator_unit_roundoff(m), precision_info_of(m.hi).unit_roundoff) << to_string(m);
    EXPECT_GT(port::rounding_bound_factor(m, 1000, hydrodynamic_tensor::rotne_prager), 0.0) << to_string(m);
}
