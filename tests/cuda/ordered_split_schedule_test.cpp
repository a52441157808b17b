// ordered-split's warp schedule (cuda/ordered_split_schedule.hpp, used by hi_ordered_kernel.cuh),
// walked on the host: for every group size the kernel takes, the terms each adding lane reads are
// its own target's, in source order, each exactly once, written by the lane that evaluated that
// source, and the adding lanes of a warp read distinct shared-memory banks at every step.
#include <gtest/gtest.h>

#include <set>

#include "cuda/ordered_split_schedule.hpp"

using namespace stokesian::cuda::ordered_split;

namespace {

struct written {
    unsigned lane, slot, component;
};

}  // namespace

TEST(OrderedSplitSchedule, EachAddingLaneReadsItsTargetsTermsInSourceOrder) {
    for (const unsigned g : {4u, 8u, 16u, 32u}) {
        // Who wrote each word of the warp's array: lane l, slot s (source kk + s * G + l % G), component c.
        std::vector<written> writer(words_per_warp, written{~0u, 0, 0});
        for (unsigned lane = 0; lane < warp_size; ++lane)
            for (unsigned slot = 0; slot < 2; ++slot)
                for (unsigned c = 0; c < 3; ++c) {
                    const unsigned w = term_word(c, slot, lane);
                    ASSERT_LT(w, words_per_warp);
                    ASSERT_EQ(writer[w].lane, ~0u) << "two terms in word " << w;
                    writer[w] = {lane, slot, c};
                }
        std::set<std::pair<unsigned, unsigned>> added;  // (group, component)
        for (unsigned lane = 0; lane < warp_size; ++lane) {
            if (!adds(lane, g)) continue;
            const unsigned group = added_group(lane), c = added_component(lane);
            ASSERT_LT(group, warp_size / g) << "G = " << g << ": lane " << lane << " adds for no group";
            added.insert({group, c});
            for (unsigned t = 0; t < 2 * g; ++t) {
                const written& w = writer[added_word(lane, g, t)];
                ASSERT_NE(w.lane, ~0u) << "G = " << g << ", lane " << lane << ": term " << t
                                       << " reads an unwritten word";
                EXPECT_EQ(w.lane / g, group) << "G = " << g << ": another target's term";
                EXPECT_EQ(w.component, c) << "G = " << g << ": another component";
                EXPECT_EQ(w.slot * g + w.lane % g, t) << "G = " << g << ", lane " << lane << ": not source kk + " << t;
            }
        }
        // Every component of every group's target has its adding lane.
        EXPECT_EQ(added.size(), 3 * (warp_size / g)) << "G = " << g;
        // Banks (4-byte words: 32 banks): at each step t the adding lanes read distinct banks, so a
        // float term array is read without conflicts (double words take two banks each, as any).
        for (unsigned t = 0; t < 2 * g; ++t) {
            std::set<unsigned> banks;
            for (unsigned lane = 0; lane < warp_size; ++lane)
                if (adds(lane, g))
                    EXPECT_TRUE(banks.insert(added_word(lane, g, t) % 32).second) << "G = " << g << ", t = " << t;
        }
    }
}

// The group size rule: on 132 SMs (H100, H200) the sizes of the GPU test
// (FarKernelsGpu.OrderedSplitGivesTheCpusBitsWithEveryGroupSize) take every G the kernel has in both
// classes of additions, the measured choices of performance.md hold (N = 10 976: 8 in f32, 4 in
// ds and f64), and for any device G is a kernel's (1: far-tiling, else 4 ... 32), never grows with
// the number of targets, and is never larger where the additions are dear.
TEST(OrderedSplitSchedule, GroupSizeFollowsTheTargetsAndTheCostOfAnAddition) {
    struct expected {
        unsigned long long targets;
        unsigned cheap, dear;
    };
    for (const expected e : {expected{864, 32, 32},
                             {2916, 32, 16},
                             {5324, 16, 8},
                             {10976, 8, 4},
                             {42592, 4, 4},
                             {67583, 4, 4},
                             {67584, 1, 1},
                             {78732, 1, 1},
                             {202612, 1, 1}}) {
        EXPECT_EQ(group_size(e.targets, 132, false), e.cheap) << e.targets << " targets, float additions";
        EXPECT_EQ(group_size(e.targets, 132, true), e.dear) << e.targets << " targets, dear additions";
    }
    for (const unsigned sms : {1u, 16u, 84u, 108u, 132u, 144u, 170u}) {
        unsigned last_cheap = 32, last_dear = 32;
        for (unsigned long long targets = 1; targets < 2'000'000; targets += 1 + targets / 7) {
            const unsigned cheap = group_size(targets, sms, false), dear = group_size(targets, sms, true);
            for (const unsigned g : {cheap, dear})
                EXPECT_TRUE(g == 1 || g == 4 || g == 8 || g == 16 || g == 32) << g << " at " << targets << ", " << sms;
            EXPECT_LE(cheap, last_cheap) << targets << " targets, " << sms << " SMs";
            EXPECT_LE(dear, last_dear) << targets << " targets, " << sms << " SMs";
            EXPECT_LE(dear, cheap) << targets << " targets, " << sms << " SMs";
            last_cheap = cheap;
            last_dear = dear;
        }
    }
}
