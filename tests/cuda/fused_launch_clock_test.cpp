// The fused kernels' launch clock (cuda/fused_launch_clock.hpp), on the host: over a launch it
// reports a sample at exactly the steps where the 64-bit count it replaces did (steps since the
// last sample, `phase` of them before the launch, a sample whenever they reach `interval`), for
// intervals and phases shorter, as long as and longer than the launch, up to 2^40 steps.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/fused_launch_clock.hpp"

using stokesian::cuda::fused_launch_clock;
using stokesian::cuda::make_launch_clock;
using stokesian::cuda::sample_due;

namespace {

// The steps (0-based) after which a sample is recorded, counted as the kernels counted before.
std::vector<std::uint64_t> counted(std::uint64_t interval, std::uint64_t phase, std::uint64_t steps) {
    std::vector<std::uint64_t> due;
    std::uint64_t since = phase;
    for (std::uint64_t s = 0; s < steps; ++s)
        if (interval != 0 && ++since == interval) {
            since = 0;
            due.push_back(s);
        }
    return due;
}

std::vector<std::uint64_t> clocked(std::uint64_t interval, std::uint64_t phase, std::uint64_t steps) {
    std::vector<std::uint64_t> due;
    fused_launch_clock clock = make_launch_clock(interval, phase, steps);
    EXPECT_EQ(clock.steps, steps);
    for (unsigned s = 0; s < clock.steps; ++s)
        if (sample_due(clock)) due.push_back(s);
    return due;
}

}  // namespace

TEST(FusedLaunchClock, SamplesWhereTheStepCountDid) {
    // Launches of 1 ... 2^18 steps (fused_engine.cu's most); intervals around them and far beyond
    // 32 bits; every phase below small intervals, the edges of large ones.
    const std::uint64_t launch_most = std::uint64_t(1) << 18, huge = std::uint64_t(1) << 40;
    const std::vector<std::uint64_t> launches{1, 2, 7, 100, 1000, launch_most};
    const std::vector<std::uint64_t> intervals{
        0, 1, 2, 3, 7, 99, 100, 101, 1000, launch_most - 1, launch_most, (std::uint64_t(1) << 32) + 5, huge};
    for (const std::uint64_t steps : launches) {
        for (const std::uint64_t interval : intervals) {
            std::vector<std::uint64_t> phases;
            if (interval <= 101) {
                for (std::uint64_t p = 0; p < interval; ++p) phases.push_back(p);
            } else {
                phases = {0, 1, interval / 2, interval - steps, interval - steps + 1, interval - 2, interval - 1};
            }
            if (interval == 0) phases = {0};
            for (const std::uint64_t phase : phases) {
                if (interval != 0 && phase >= interval) continue;
                const std::vector<std::uint64_t> got = clocked(interval, phase, steps),
                                                 want = counted(interval, phase, steps);
                // (Only the first difference: a launch of 2^18 steps has up to 2^18 samples.)
                std::size_t k = 0;
                while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
                EXPECT_TRUE(got == want) << "interval " << interval << ", phase " << phase << ", " << steps
                                         << " steps: sample " << k << " after step "
                                         << (k < got.size() ? std::to_string(got[k]) : "none") << ", counted "
                                         << (k < want.size() ? std::to_string(want[k]) : "none");
            }
        }
    }
}
