// The grid kernel's tiles and blocks (cuda/fused_grid_shape.hpp, used by fused_grid_launch.cuh),
// on the host, for devices of several sizes: every target falls in exactly one tile of one block,
// no block of the cooperative launch lies beyond what the device holds at once or idles, tiles hold
// at most tile_max targets, a system of at most tile_max targets a multiprocessor takes one round
// with at most one block a multiprocessor, and a larger one takes the fewest rounds possible; the
// chunk buffers a block's shared memory holds and the largest tile of which two fit; the producing
// warps' roles; and how many targets a step they take, against the measurement that chose it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cuda/fused_grid_shape.hpp"
#include "support/build_paths.hpp"
#include "support/csv_fields.hpp"

using stokesian::cuda::fused_grid_buffer_bytes;
using stokesian::cuda::fused_grid_buffers_fitting;
using stokesian::cuda::fused_grid_buffers_max;
using stokesian::cuda::fused_grid_producing;
using stokesian::cuda::fused_grid_role;
using stokesian::cuda::fused_grid_role_of;
using stokesian::cuda::fused_grid_shape;
using stokesian::cuda::fused_grid_shape_for;
using stokesian::cuda::fused_grid_targets_a_step;
using stokesian::cuda::fused_grid_tile_fitting;
using stokesian::cuda::fused_grid_tile_max;

namespace {

unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

// The kernels' producing warps: f32 four groups, at most two targets a step; f64 two, at most three.
constexpr fused_grid_producing f32_producing{4, 2}, f64_producing{2, 3};

// The targets a producing warp of the tile's largest group evaluates with k a step, counting a last
// step's repeated targets.
unsigned evaluations(unsigned tile, fused_grid_producing producing, unsigned k) {
    return ceil_div(ceil_div(tile, producing.groups), k) * k;
}

void check_shape(unsigned n, unsigned multiprocessors, unsigned per_multiprocessor, unsigned tile_max,
                 fused_grid_producing producing) {
    const unsigned resident = multiprocessors * per_multiprocessor;
    const fused_grid_shape s = fused_grid_shape_for(n, multiprocessors, resident, tile_max, producing);
    const std::string what = "n = " + std::to_string(n) + ", " + std::to_string(multiprocessors) + " x " +
                             std::to_string(per_multiprocessor) + ", tiles of at most " + std::to_string(tile_max) +
                             ", " + std::to_string(producing.groups) + " groups";
    ASSERT_GE(s.tile, 1u) << what;
    ASSERT_LE(s.tile, tile_max) << what;
    ASSERT_GE(s.blocks, 1u) << what;
    ASSERT_LE(s.blocks, resident) << what;
    // The kernel's walk: block b takes the tiles starting at b * tile, b * tile + blocks * tile, ...
    std::vector<unsigned> owners(n, 0);
    for (unsigned b = 0; b < s.blocks; ++b) {
        unsigned targets = 0;
        for (unsigned first = b * s.tile; first < n; first += s.blocks * s.tile)
            for (unsigned i = 0; i < s.tile && first + i < n; ++i, ++targets) ++owners[first + i];
        EXPECT_GT(targets, 0u) << what << ": block " << b << " has no target";
    }
    for (unsigned t = 0; t < n; ++t) ASSERT_EQ(owners[t], 1u) << what << ": target " << t;
    const unsigned rounds = ceil_div(ceil_div(n, s.tile), s.blocks);
    if (n <= tile_max * multiprocessors) {
        EXPECT_LE(s.blocks, multiprocessors) << what;
        EXPECT_EQ(rounds, 1u) << what;
        EXPECT_EQ(s.targets_a_step, 1u) << what;
    } else {
        EXPECT_EQ(rounds, ceil_div(n, tile_max * resident)) << what;
        // Several targets a step only for large tiles (a producing warp's last step then rarely half
        // idle): of 2 ... most_a_step, one with the fewest evaluations, and no smaller one with as few.
        ASSERT_GE(s.targets_a_step, 2u) << what;
        ASSERT_LE(s.targets_a_step, producing.most_a_step) << what;
        for (unsigned k = 2; k <= producing.most_a_step; ++k) {
            EXPECT_LE(evaluations(s.tile, producing, s.targets_a_step), evaluations(s.tile, producing, k)) << what;
            if (k < s.targets_a_step)
                EXPECT_LT(evaluations(s.tile, producing, s.targets_a_step), evaluations(s.tile, producing, k)) << what;
        }
        if (resident == multiprocessors) EXPECT_GE(2 * s.tile, tile_max) << what;
    }
}

}  // namespace

TEST(FusedGridShape, EveryTargetOnceInTheFewestRounds) {
    // An H100 / H200 (132 SMs) with one or two blocks a multiprocessor, an A100 (108), a small GPU (20), one SM.
    // Tiles of at most 30 (f32 and ds) and 20 (f64) on an H200, fewer where less shared memory holds them.
    for (const fused_grid_producing producing : {f32_producing, f64_producing})
        for (const unsigned tile_max : {30u, 20u, 9u})
            for (const unsigned multiprocessors : {132u, 108u, 20u, 1u})
                for (const unsigned per_multiprocessor : {1u, 2u})
                    for (unsigned n = 1; n <= 3000; n += n < 200 ? 1 : 37)
                        check_shape(n, multiprocessors, per_multiprocessor, tile_max, producing);
    for (const unsigned n : {10976u, 42592u, 65536u}) {
        check_shape(n, 132, 1, 30, f32_producing);
        check_shape(n, 132, 1, 20, f64_producing);
    }
}

TEST(FusedGridShape, TargetsAStepByTheLargestGroup) {
    // f32 takes two at most: two wherever a system has several rounds.
    for (unsigned tile = 1; tile <= 30; ++tile) EXPECT_EQ(fused_grid_targets_a_step(tile, f32_producing), 2u) << tile;
    // f64: three where the larger of the two groups has 3 or 9 targets (3 for 4, 9 for 10
    // evaluations), two elsewhere (at a tie too: 6 and 6, 12 and 12).
    for (unsigned tile = 1; tile <= 20; ++tile) {
        const unsigned largest = ceil_div(tile, 2);
        EXPECT_EQ(fused_grid_targets_a_step(tile, f64_producing), largest == 3 || largest == 9 ? 3u : 2u) << tile;
    }
}

TEST(FusedGridShape, ThreeTargetsAStepWhereTheyWereMeasuredFaster) {
    // engine/docs/gpu-runs/2026-11-29-h200-fused-grid-three-targets.csv: the f64 grid kernel with two
    // ('k2') or three ('k3') targets a step forced, the open fcc lattice on an H200 (132
    // multiprocessors, tiles of at most 20 in f64), two rounds each. At every measured N the launch
    // takes the form that was faster in its better round.
    std::ifstream csv(std::string(stokesian::test_support::project_source_dir) +
                      "/engine/docs/gpu-runs/2026-11-29-h200-fused-grid-three-targets.csv");
    ASSERT_TRUE(csv);
    std::map<unsigned, std::map<unsigned, double>> fastest;  // N -> targets a step -> ms a step
    for (const auto& row : stokesian::test_support::csv_records(csv)) {
        const unsigned n = static_cast<unsigned>(std::stoul(row.at("particles")));
        const unsigned k = row.at("form round")[1] == '3' ? 3u : 2u;
        const double ms = std::stod(row.at("ms_per_step"));
        auto [at, fresh] = fastest[n].emplace(k, ms);
        if (!fresh && ms < at->second) at->second = ms;
    }
    ASSERT_EQ(fastest.size(), 11u);
    for (const auto& [n, by_k] : fastest) {
        ASSERT_EQ(by_k.size(), 2u) << n;
        const unsigned faster = by_k.at(3) < by_k.at(2) ? 3u : 2u;
        EXPECT_EQ(fused_grid_shape_for(n, 132, 132, 20, f64_producing).targets_a_step, faster) << "N = " << n;
    }
}

TEST(FusedGridShape, TheOpenFccBenchmarkOnAnH200) {
    // N = 864 on 132 SMs: tiles of 7 on 124 blocks, one adding warp busy (engine/docs/performance.md,
    // "the grid kernel in tiles"); N = 10 976 with tiles of at most 30 (f32): 3 rounds of
    // ceil(10976 / 396) = 28 targets, 132 blocks.
    const fused_grid_shape small = fused_grid_shape_for(864, 132, 132, 30, f32_producing);
    EXPECT_EQ(small.tile, 7u);
    EXPECT_EQ(small.blocks, 124u);
    const fused_grid_shape large = fused_grid_shape_for(10976, 132, 132, 30, f32_producing);
    EXPECT_EQ(large.tile, 28u);
    EXPECT_EQ(large.blocks, 132u);
    // One target a step in one round, two from the second: f32's tiles of 30 hold 3960 targets on
    // 132 multiprocessors, f64's of 20 hold 2640.
    EXPECT_EQ(small.targets_a_step, 1u);
    EXPECT_EQ(large.targets_a_step, 2u);
    EXPECT_EQ(fused_grid_shape_for(3960, 132, 132, 30, f32_producing).targets_a_step, 1u);
    EXPECT_EQ(fused_grid_shape_for(3961, 132, 132, 30, f32_producing).targets_a_step, 2u);
    EXPECT_EQ(fused_grid_shape_for(2640, 132, 132, 20, f64_producing).targets_a_step, 1u);
    EXPECT_EQ(fused_grid_shape_for(2641, 132, 132, 20, f64_producing).targets_a_step, 2u);
    // f64 at N = 10 976: 5 rounds of ceil(10976 / 660) = 17 targets, groups of 9 and 8: three a step.
    const fused_grid_shape f64_large = fused_grid_shape_for(10976, 132, 132, 20, f64_producing);
    EXPECT_EQ(f64_large.tile, 17u);
    EXPECT_EQ(f64_large.targets_a_step, 3u);
}

TEST(FusedGridShape, AsManyBuffersAsTheSharedMemoryHolds) {
    // Per-block opt-in shared memory: 227 KiB (cc 9.0, 10.0), 163 KiB (cc 8.0), 99 KiB (cc 8.6, 8.9, 12.0).
    // The kernel's sizes (fused_grid_kernel.cuh): a buffer is 3 * tile rows of 228 floats or 226
    // doubles, here tiles of 10; the targets take 16 or 32 bytes each.
    const std::size_t f32 = fused_grid_buffer_bytes(10, 228, 4), f64 = fused_grid_buffer_bytes(10, 226, 8);
    const std::size_t targets32 = 10 * 16, targets64 = 10 * 32;
    EXPECT_EQ(f32, 3u * 10 * 228 * 4);
    EXPECT_EQ(f64, 3u * 10 * 226 * 8);
    EXPECT_EQ(fused_grid_buffers_fitting(227 * 1024, targets32, f32), fused_grid_buffers_max);
    EXPECT_EQ(fused_grid_buffers_fitting(227 * 1024, targets64, f64), 4u);
    EXPECT_EQ(fused_grid_buffers_fitting(163 * 1024, targets64, f64), 3u);
    EXPECT_EQ(fused_grid_buffers_fitting(99 * 1024, targets32, f32), 3u);
    EXPECT_EQ(fused_grid_buffers_fitting(99 * 1024, targets64, f64), 1u);
    EXPECT_EQ(fused_grid_buffers_fitting(targets64 + f64 - 1, targets64, f64), 0u);
    EXPECT_EQ(fused_grid_buffers_fitting(targets64 - 1, targets64, f64), 0u);
    // Exactly at the edge: k buffers fit k * buffer + fixed bytes, not one byte less.
    for (unsigned k = 1; k <= fused_grid_buffers_max; ++k) {
        EXPECT_EQ(fused_grid_buffers_fitting(targets32 + k * f32, targets32, f32), k);
        EXPECT_EQ(fused_grid_buffers_fitting(targets32 + k * f32 - 1, targets32, f32), k - 1);
    }
}

TEST(FusedGridShape, TheLargestTileOfWhichTwoBuffersFit) {
    // The kernel's rows and tile_max: f32 and ds 228 floats, tiles of 30 (480 bytes of targets);
    // f64 226 doubles, tiles of 20 (640 bytes). Two buffers of the largest tile, 227 KiB a block (H200):
    // 480 + 2 * 3 * 30 * 228 * 4 = 164 640 and 640 + 2 * 3 * 20 * 226 * 8 = 217 600 bytes fit; 99 KiB
    // (101 376 bytes): (101 376 - 480) / (2 * 3 * 228 * 4) = 18.4 and (101 376 - 640) / (2 * 3 * 226 * 8)
    // = 9.3; 163 KiB: 30.4 (so 30) and 15.3.
    struct kind {
        unsigned row;
        std::size_t value_bytes, targets_bytes;
        unsigned tile_max;
    };
    const kind f32{228, 4, 480, 30}, f64{226, 8, 640, 20};
    const auto fitting = [](std::size_t shared, const kind& k) {
        return fused_grid_tile_fitting(shared, k.targets_bytes, k.row, k.value_bytes, k.tile_max);
    };
    EXPECT_EQ(fitting(227 * 1024, f32), 30u);
    EXPECT_EQ(fitting(227 * 1024, f64), 20u);
    EXPECT_EQ(fitting(163 * 1024, f32), 30u);
    EXPECT_EQ(fitting(163 * 1024, f64), 15u);
    EXPECT_EQ(fitting(99 * 1024, f32), 18u);
    EXPECT_EQ(fitting(99 * 1024, f64), 9u);
    // Its definition at every size from nothing to 227 KiB: two buffers of the tile fit and not of
    // one more, or, where two of no tile fit, one of the tile and not of one more; 0 where none fits.
    for (const kind& k : {f32, f64}) {
        for (std::size_t shared = 0; shared <= 227 * 1024; shared += 97) {
            const unsigned tile = fitting(shared, k);
            const auto buffers = [&](unsigned t) {
                return fused_grid_buffers_fitting(shared, k.targets_bytes,
                                                  fused_grid_buffer_bytes(t, k.row, k.value_bytes));
            };
            const std::string what = "shared " + std::to_string(shared) + ", row " + std::to_string(k.row);
            if (tile == 0) {
                EXPECT_EQ(buffers(1), 0u) << what;
                continue;
            }
            ASSERT_LE(tile, k.tile_max) << what;
            const unsigned wanted = buffers(1) >= 2 ? 2u : 1u;
            EXPECT_GE(buffers(tile), wanted) << what;
            if (tile < k.tile_max) EXPECT_LT(buffers(tile + 1), wanted) << what;
        }
    }
}

TEST(FusedGridShape, EveryProducingWarpHasItsOwnRoleAndSchedulerZeroTheLastGroup) {
    // The kernel's blocks (fused_grid_kernel.cuh: 7 slices a group): f32 and ds 3 adding warps and
    // 4 groups, f64 2 and 2; one adding warp as well.
    struct block {
        unsigned adders, groups;
    };
    for (const block b : {block{3, 4}, block{2, 2}, block{1, 4}, block{1, 2}}) {
        const unsigned slices = 7, warps = b.adders + slices * b.groups;
        std::vector<unsigned> taken(slices * b.groups, 0);
        for (unsigned warp = b.adders; warp < warps; ++warp) {
            const fused_grid_role r = fused_grid_role_of(warp, b.adders, b.groups);
            const std::string what = std::to_string(b.adders) + " adding warps, " + std::to_string(b.groups) +
                                     " groups, warp " + std::to_string(warp);
            ASSERT_LT(r.group, b.groups) << what;
            ASSERT_LT(r.slice, slices) << what;
            ++taken[r.group * slices + r.slice];
            if (warp % 4 == 0) EXPECT_EQ(r.group, b.groups - 1) << what << ": beside adding warp 0";
        }
        for (unsigned role = 0; role < taken.size(); ++role) EXPECT_EQ(taken[role], 1u) << "role " << role;
    }
}
