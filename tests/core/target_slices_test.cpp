// core/target_slices.hpp: the one rule that cuts N targets into devices' or ranks' slices.
#include "stokesian/core/target_slices.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>

namespace stokesian {
namespace {

// For every (n, parts) of a small grid: slices are contiguous, in part order, cover [0, n) exactly,
// their sizes differ by at most one and the larger ones come first -- checked against the
// definition (size = n / parts + (part < n % parts)), not against stored values.
TEST(TargetSlices, CoverTheRangeInOrderWithTheLargerSlicesFirst) {
    for (std::size_t n = 0; n <= 40; ++n) {
        for (unsigned parts = 1; parts <= 9; ++parts) {
            std::size_t next = 0;
            for (unsigned part = 0; part < parts; ++part) {
                const target_slice s = slice_of(n, parts, part);
                EXPECT_EQ(s.begin, next) << "n " << n << " parts " << parts << " part " << part;
                EXPECT_LE(s.begin, s.end);
                const std::size_t expected = n / parts + (part < n % parts ? 1 : 0);
                EXPECT_EQ(s.size(), expected) << "n " << n << " parts " << parts << " part " << part;
                next = s.end;
            }
            EXPECT_EQ(next, n) << "n " << n << " parts " << parts;
        }
    }
}

TEST(TargetSlices, OnePartIsTheWholeRange) {
    const target_slice s = slice_of(4000, 1, 0);
    EXPECT_EQ(s.begin, 0U);
    EXPECT_EQ(s.end, 4000U);
}

TEST(TargetSlices, ExampleOfTenTargetsInThreeParts) {
    // 10 = 4 + 3 + 3: [0,4) [4,7) [7,10).
    const auto all = slices_of(10, 3);
    ASSERT_EQ(all.size(), 3U);
    EXPECT_EQ(all[0].begin, 0U);
    EXPECT_EQ(all[0].end, 4U);
    EXPECT_EQ(all[1].begin, 4U);
    EXPECT_EQ(all[1].end, 7U);
    EXPECT_EQ(all[2].begin, 7U);
    EXPECT_EQ(all[2].end, 10U);
}

TEST(TargetSlices, FewerTargetsThanPartsLeavesTheLastSlicesEmpty) {
    const auto all = slices_of(2, 4);
    EXPECT_EQ(all[0].size(), 1U);
    EXPECT_EQ(all[1].size(), 1U);
    EXPECT_EQ(all[2].size(), 0U);
    EXPECT_EQ(all[3].size(), 0U);
    EXPECT_EQ(all[3].begin, 2U);
}

TEST(TargetSlices, APartOutsideTheRangeIsRefused) {
    EXPECT_THROW((void)slice_of(10, 0, 0), std::invalid_argument);
    EXPECT_THROW((void)slice_of(10, 3, 3), std::invalid_argument);
}

static_assert(slice_of(7, 2, 1).begin == 4 && slice_of(7, 2, 1).end == 7, "usable at compile time");

}  // namespace
}  // namespace stokesian
