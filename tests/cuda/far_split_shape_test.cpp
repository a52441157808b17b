// fast-far-split's lanes a target and block (cuda/far_split_shape.hpp, used by hi_launch_common.cuh),
// on the host, for devices of several sizes: where the rule takes a G, its blocks are whole warps
// and multiples of 2G, within the kernel's limit, at most one a multiprocessor, and twice the G
// would not fit; every range of the system takes the same G in blocks no larger; where no G >= 2
// fits the launch keeps fast-split's G (the smallest giving 1024 threads a multiprocessor) and the
// caller's blocks of 128. And against the
// measurement that chose it: on an H200 the rule's shape is the fastest measured in f64 at
// N = 10 976 and 23 328, and faster than blocks of 128 at every size where it applies.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <tuple>

#include "cuda/far_split_shape.hpp"
#include "support/build_paths.hpp"
#include "support/csv_fields.hpp"

using stokesian::cuda::far_split_block;
using stokesian::cuda::far_split_group;
using stokesian::cuda::far_split_group_max;
using stokesian::cuda::far_split_limits;
using stokesian::cuda::far_split_shape;
using stokesian::cuda::far_split_shape_for;
using stokesian::cuda::split_group_for;

namespace {

// The limits of the kernels on sm_90 (CUDA 13.0; the measurement file's header says how): f64
// blocks of at most 736 threads (704 for G = 32) by the shared tiles, f32 and ds 1024 by the block;
// the ds kernel's tiles hold whole groups of four steps (far_presum_steps).
far_split_limits f64_limits(unsigned multiprocessors) { return {multiprocessors, 1, {736, 736, 736, 736, 736, 704}}; }
far_split_limits f32_limits(unsigned multiprocessors) {
    return {multiprocessors, 1, {1024, 1024, 1024, 1024, 1024, 1024}};
}
far_split_limits ds_limits(unsigned multiprocessors) {
    return {multiprocessors, 4, {1024, 1024, 1024, 1024, 1024, 1024}};
}

void expect_block_of(unsigned targets, unsigned group, const far_split_limits& limits, const std::string& what) {
    const unsigned block = far_split_block(targets, group, limits);
    EXPECT_EQ(block % 32, 0u) << what << ": whole warps";
    EXPECT_EQ(block % (2 * group * limits.tile_steps), 0u) << what << ": whole steps of two sources a lane";
    EXPECT_LE(block, limits.for_group(group)) << what;
    const unsigned per_block = block / group;
    EXPECT_LE((targets + per_block - 1) / per_block, limits.multiprocessors) << what << ": one block a multiprocessor";
}

}  // namespace

TEST(FarSplitShape, OneBlockAMultiprocessorHoldsItsShareWithTheLargestGroupThatFits) {
    for (const unsigned multiprocessors : {20u, 108u, 132u, 170u}) {
        for (const far_split_limits& limits :
             {f64_limits(multiprocessors), f32_limits(multiprocessors), ds_limits(multiprocessors)}) {
            for (unsigned n = 1; n <= 200000; n = n < 64 ? n + 1 : n + n / 7) {
                const std::string what = std::to_string(multiprocessors) + " SMs, limit " +
                                         std::to_string(limits.max_threads[1]) + ", steps a tile " +
                                         std::to_string(limits.tile_steps) + ", N = " + std::to_string(n);
                const unsigned group = far_split_group(n, limits);
                if (group == 0) {
                    EXPECT_GT(far_split_block(n, 2, limits), limits.for_group(2)) << what << ": G = 2 fits";
                    continue;
                }
                EXPECT_GE(group, 2u) << what;
                EXPECT_LE(group, far_split_group_max) << what;
                EXPECT_EQ(group & (group - 1), 0u) << what << ": a power of two";
                if (group < far_split_group_max)
                    EXPECT_GT(far_split_block(n, 2 * group, limits), limits.for_group(2 * group))
                        << what << ": twice the group fits";
                expect_block_of(n, group, limits, what);
                for (const unsigned targets : {n / 2, n / 3 + 1, 1u})
                    if (targets >= 1) {
                        expect_block_of(targets, group, limits, what + ", a range of " + std::to_string(targets));
                        EXPECT_LE(far_split_block(targets, group, limits), far_split_block(n, group, limits));
                    }
            }
        }
    }
}

TEST(FarSplitShape, SystemsBeyondOneBlockAMultiprocessorKeepFastSplitsGroupAndTheCallersBlocks) {
    // On 132 SMs G = 2 needs the share rounded to 16 targets: 368 (f64) or 512 (f32) at most.
    EXPECT_EQ(far_split_group(132 * 368, f64_limits(132)), 2u);
    EXPECT_EQ(far_split_group(132 * 368 + 1, f64_limits(132)), 0u);
    EXPECT_EQ(far_split_group(132 * 512, f32_limits(132)), 2u);
    EXPECT_EQ(far_split_group(132 * 512 + 1, f32_limits(132)), 0u);
    for (const unsigned n : {132u * 368 + 1, 70304u, 108000u, 202612u, 1000000u}) {
        const far_split_shape shape = far_split_shape_for(n, n / 2, f64_limits(132), 128);
        EXPECT_EQ(shape.group, split_group_for(n, 132)) << n;
        EXPECT_EQ(shape.block, 128u) << n;
    }
    const far_split_shape balanced = far_split_shape_for(10976, 10976, f64_limits(132), 128);
    EXPECT_EQ(balanced.group, far_split_group(10976, f64_limits(132)));
    EXPECT_EQ(balanced.block, far_split_block(10976, balanced.group, f64_limits(132)));
}

TEST(FarSplitShape, FastSplitsGroupIsTheSmallestThatGivesEachMultiprocessor1024Threads) {
    for (const unsigned multiprocessors : {20u, 132u, 170u})
        for (unsigned n = 1; n <= 1000000; n += n / 5 + 1) {
            const unsigned group = split_group_for(n, multiprocessors);
            const unsigned long long wanted = 1024ull * multiprocessors;
            EXPECT_EQ(group & (group - 1), 0u) << n;
            EXPECT_LE(group, far_split_group_max) << n;
            EXPECT_TRUE(group == far_split_group_max || 1ull * n * group >= wanted) << n << " SMs " << multiprocessors;
            EXPECT_TRUE(group == 1 || 1ull * n * (group / 2) < wanted) << n << " SMs " << multiprocessors;
        }
}

namespace {

// (particles, hi precision, group, block, shape) -> the better of its rounds, ms.
using shape_key = std::tuple<unsigned, std::string, unsigned, unsigned, std::string>;

std::map<shape_key, double> read_shape_measurement() {
    std::ifstream csv(
        stokesian::test_support::checkout_file("engine/docs/gpu-runs/2026-11-30-h200-fast-far-split-shape.csv"));
    EXPECT_TRUE(csv);
    std::map<shape_key, double> best;
    for (const auto& row : stokesian::test_support::csv_records(csv)) {
        // 'first-form' and 'rule' rows ran a shape named by its G and block, as 'forced' ones do.
        const std::string shape = row.at("shape") == "before" ? "before" : "forced";
        const shape_key key{unsigned(std::stoul(row.at("particles"))), row.at("hi_precision"),
                            unsigned(std::stoul(row.at("group"))), unsigned(std::stoul(row.at("block"))), shape};
        const double ms = std::stod(row.at("hi_median_ms"));
        const auto [it, fresh] = best.try_emplace(key, ms);
        if (!fresh) it->second = std::min(it->second, ms);
    }
    return best;
}

}  // namespace

TEST(FarSplitShape, IsTheFastestMeasuredInF64AndFasterThanBlocksOf128WhereItApplies) {
    const std::map<shape_key, double> measured = read_shape_measurement();
    ASSERT_FALSE(measured.empty());
    unsigned compared = 0;
    for (const auto& [key, before_ms] : measured) {
        const auto& [n, hi, before_group, before_block, shape] = key;
        if (shape != "before") continue;
        const far_split_limits limits = hi == "f64" ? f64_limits(132) : hi == "ds" ? ds_limits(132) : f32_limits(132);
        const unsigned group = far_split_group(n, limits);
        if (group == 0) continue;
        const unsigned block = far_split_block(n, group, limits);
        const auto rule = measured.find({n, hi, group, block, "forced"});
        ASSERT_NE(rule, measured.end()) << "N = " << n << " " << hi << ": G = " << group << ", block " << block
                                        << " not measured";
        EXPECT_LT(rule->second, before_ms) << "N = " << n << " " << hi << ": slower than blocks of 128";
        ++compared;
        if (hi == "f64" && (n == 10976 || n == 23328))
            for (const auto& [other, ms] : measured)
                if (std::get<0>(other) == n && std::get<1>(other) == hi)
                    EXPECT_LE(rule->second, ms) << "N = " << n << " f64: G = " << std::get<2>(other) << ", block "
                                                << std::get<3>(other) << " measured faster";
    }
    EXPECT_GE(compared, 15u) << "the sizes N = 864 ... 42 592 in f32, ds and f64";
}
