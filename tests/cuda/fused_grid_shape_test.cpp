// The team kernels' tiles and blocks (cuda/fused_grid_shape.hpp, used by fused_grid_launch.cuh and
// adding-warps), on the host, for devices of several sizes: every target falls in exactly one tile
// of one block, no block of the cooperative launch lies beyond what the device holds at once or
// idles, tiles hold at most tile_max targets, a system of at most tile_max targets a multiprocessor
// takes one round with at most one block a multiprocessor, and a larger one the rounds of its rule
// (equal tiles: the fewest possible; full tiles: as many as it fills, then one), the full tiles
// against the measurement that chose them; the
// chunk buffers a block's shared memory holds and the largest tile of which two fit; the producing
// warps' roles; and how many targets a step they take, against the measurement that chose it.
#include <gtest/gtest.h>

#include <algorithm>
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
using stokesian::cuda::fused_grid_full_tile;
using stokesian::cuda::fused_grid_producing;
using stokesian::cuda::fused_grid_role;
using stokesian::cuda::fused_grid_role_of;
using stokesian::cuda::fused_grid_shape;
using stokesian::cuda::fused_grid_shape_for;
using stokesian::cuda::fused_grid_targets_a_step;
using stokesian::cuda::fused_grid_tile_fitting;
using stokesian::cuda::fused_grid_tile_max;
using stokesian::cuda::fused_grid_tiling;

namespace {

unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

// The kernels' producing warps: f32 four groups, at most two targets a step; f64 two, at most three;
// and the same one at a time (periodic boxes, ds).
constexpr fused_grid_producing f32_producing{4, 2}, f64_producing{2, 3}, f32_one{4, 1}, f64_one{2, 1};

// The targets a producing warp of the tile's largest group evaluates with k a step, counting a last
// step's repeated targets.
unsigned evaluations(unsigned tile, fused_grid_producing producing, unsigned k) {
    return ceil_div(ceil_div(tile, producing.groups), k) * k;
}

// The kernels' walk (fused_grid_each_tile): block b takes tiles k = b, b + blocks, ... of the launch,
// tile k < full_tiles at k * tile, a later one at full_tiles * tile + (k - full_tiles) * last_tile.
// Calls f(block, first, size) for each.
template <class F>
void walk_tiles(const fused_grid_shape& s, unsigned n, F&& f) {
    const fused_grid_tiling& t = s.tiling;
    for (unsigned b = 0; b < s.blocks; ++b)
        for (unsigned k = b;; k += s.blocks) {
            const bool full = k < t.full_tiles;
            const unsigned first = full ? k * t.tile : t.full_tiles * t.tile + (k - t.full_tiles) * t.last_tile;
            if (first >= n) break;
            f(b, first, full ? t.tile : std::min(t.last_tile, n - first));
        }
}

void check_shape(unsigned n, unsigned multiprocessors, unsigned per_multiprocessor, unsigned tile_max,
                 unsigned full_tile, fused_grid_producing producing) {
    const unsigned resident = multiprocessors * per_multiprocessor;
    const fused_grid_shape s = fused_grid_shape_for(n, multiprocessors, resident, tile_max, full_tile, producing);
    const fused_grid_tiling& t = s.tiling;
    const std::string what = "n = " + std::to_string(n) + ", " + std::to_string(multiprocessors) + " x " +
                             std::to_string(per_multiprocessor) + ", tiles of at most " + std::to_string(tile_max) +
                             ", full tile " + std::to_string(full_tile) + ", " + std::to_string(producing.groups) +
                             " groups, " + std::to_string(producing.most_a_step) + " a step at most";
    ASSERT_GE(t.tile, 1u) << what;
    ASSERT_LE(t.tile, tile_max) << what;
    ASSERT_GE(t.last_tile, 1u) << what;
    ASSERT_LE(t.last_tile, t.tile) << what;
    ASSERT_GE(s.blocks, 1u) << what;
    ASSERT_LE(s.blocks, resident) << what;
    // Full rounds are whole: every block takes one full tile in each, and they lie within the system.
    ASSERT_EQ(t.full_tiles % s.blocks, 0u) << what;
    ASSERT_LE(t.full_tiles * t.tile, n) << what;
    std::vector<unsigned> owners(n, 0), targets(s.blocks, 0), tiles(s.blocks, 0);
    walk_tiles(s, n, [&](unsigned b, unsigned first, unsigned size) {
        ASSERT_GE(size, 1u) << what;
        for (unsigned i = 0; i < size; ++i) ++owners[first + i];
        targets[b] += size;
        ++tiles[b];
    });
    for (unsigned b = 0; b < s.blocks; ++b) EXPECT_GT(targets[b], 0u) << what << ": block " << b << " has no target";
    for (unsigned i = 0; i < n; ++i) ASSERT_EQ(owners[i], 1u) << what << ": target " << i;
    const unsigned rounds = *std::max_element(tiles.begin(), tiles.end());
    const bool one_round = n <= tile_max * multiprocessors;
    if (one_round) {
        EXPECT_LE(s.blocks, multiprocessors) << what;
        EXPECT_EQ(rounds, 1u) << what;
        EXPECT_EQ(t.full_tiles, 0u) << what;
        // One a step unless the largest group holds two steps of the most.
        if (ceil_div(t.tile, producing.groups) < 2 * producing.most_a_step) {
            EXPECT_EQ(s.targets_a_step, 1u) << what;
            return;
        }
    } else if (full_tile == 0) {
        // Equal tiles in the fewest rounds.
        EXPECT_EQ(t.full_tiles, 0u) << what;
        EXPECT_EQ(rounds, ceil_div(n, tile_max * resident)) << what;
        if (resident == multiprocessors) EXPECT_GE(2 * t.tile, tile_max) << what;
    } else {
        // Full tiles (tile_max where smaller) in every round the system fills, the rest in one more.
        EXPECT_EQ(t.tile, std::min(full_tile, tile_max)) << what;
        EXPECT_EQ(rounds, ceil_div(n, t.tile * resident)) << what;
        EXPECT_EQ(t.full_tiles, (rounds - 1) * resident) << what;
    }
    // Several targets a step where the warps may take them: of 2 ... most_a_step, one with the
    // fewest evaluations of the (full) tile, and no smaller one with as few.
    if (producing.most_a_step < 2) {
        EXPECT_EQ(s.targets_a_step, 1u) << what;
        return;
    }
    ASSERT_GE(s.targets_a_step, 2u) << what;
    ASSERT_LE(s.targets_a_step, producing.most_a_step) << what;
    for (unsigned k = 2; k <= producing.most_a_step; ++k) {
        EXPECT_LE(evaluations(t.tile, producing, s.targets_a_step), evaluations(t.tile, producing, k)) << what;
        if (k < s.targets_a_step)
            EXPECT_LT(evaluations(t.tile, producing, s.targets_a_step), evaluations(t.tile, producing, k)) << what;
    }
}

}  // namespace

TEST(FusedGridShape, EveryTargetOnceInTheRoundsOfItsRule) {
    // An H100 / H200 (132 SMs) with one or two blocks a multiprocessor, an A100 (108), a small GPU (20), one SM.
    // Tiles of at most 30 (f32 and ds) and 20 (f64) on an H200, fewer where less shared memory holds them;
    // equal tiles (0) and full tiles of 30, 28 (f32), 18, 20 (f64) and one larger than any tile_max.
    for (const fused_grid_producing producing : {f32_producing, f64_producing, f32_one, f64_one})
        for (const unsigned tile_max : {30u, 20u, 9u})
            for (const unsigned full_tile : {0u, 30u, 28u, 20u, 18u, 64u})
                for (const unsigned multiprocessors : {132u, 108u, 20u, 1u})
                    for (const unsigned per_multiprocessor : {1u, 2u})
                        for (unsigned n = 1; n <= 3000; n += n < 200 ? 1 : 37)
                            check_shape(n, multiprocessors, per_multiprocessor, tile_max, full_tile, producing);
    for (const unsigned n : {10976u, 42592u, 65536u})
        for (const unsigned full_tile : {0u, 30u, 28u, 20u, 18u}) {
            check_shape(n, 132, 1, 30, full_tile, f32_producing);
            check_shape(n, 132, 1, 20, full_tile, f64_producing);
            check_shape(n, 132, 1, 30, full_tile, f32_one);
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
        // Warps that take one at a time (periodic boxes, ds) take one.
        EXPECT_EQ(fused_grid_targets_a_step(tile, f64_one), 1u) << tile;
        EXPECT_EQ(fused_grid_targets_a_step(tile, f32_one), 1u) << tile;
    }
}

TEST(FusedGridShape, ThreeTargetsAStepWhereTheyWereMeasuredFaster) {
    // engine/docs/gpu-runs/2026-11-29-h200-fused-grid-three-targets.csv: the f64 grid kernel (equal
    // tiles) with two ('k2') or three ('k3') targets a step forced, the open fcc lattice on an H200
    // (132 multiprocessors, tiles of at most 20 in f64), two rounds each. At every measured N the
    // launch takes the form that was faster in its better round.
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
        EXPECT_EQ(fused_grid_shape_for(n, 132, 132, 20, 0, f64_producing).targets_a_step, faster) << "N = " << n;
    }
}

TEST(FusedGridShape, OneRoundTakesSeveralAStepOnlyWhereTheyWereMeasuredFaster) {
    // engine/docs/gpu-runs/2026-11-30-h200-one-round-targets-a-step.csv: the grid kernel (and
    // adding-warps, not used here: a bare M.F of ~10 us is launch-bound) with one, two or three (f64)
    // targets a step forced, open fcc N = 32 ... 2916 on an H200 (132 multiprocessors, tiles of at
    // most 30 in f32 and 20 in f64), three rounds. At every N of one round the launch's choice was,
    // in its best round, no slower than each form measured beside it: several a step faster than
    // one where it takes them, one no slower than two or three where it takes one.
    std::ifstream csv(std::string(stokesian::test_support::project_source_dir) +
                      "/engine/docs/gpu-runs/2026-11-30-h200-one-round-targets-a-step.csv");
    ASSERT_TRUE(csv);
    std::map<std::pair<std::string, unsigned>, std::map<unsigned, double>> best;  // (hi, N) -> k -> ms
    for (const auto& row : stokesian::test_support::csv_records(csv)) {
        if (row.at("kernel") != "fused") continue;
        const unsigned n = static_cast<unsigned>(std::stoul(row.at("particles")));
        const unsigned k = static_cast<unsigned>(std::stoul(row.at("targets_a_step")));
        const double ms = std::stod(row.at("whole_step_median_ms"));
        auto [at, fresh] = best[{row.at("hi_precision"), n}].emplace(k, ms);
        if (!fresh && ms < at->second) at->second = ms;
    }
    unsigned one_round_sizes = 0;
    for (const auto& [key, by_k] : best) {
        const auto& [hi, n] = key;
        const bool f32 = hi == "f32";
        const unsigned tile_max = f32 ? 30u : 20u;
        if (n > tile_max * 132) continue;  // several rounds: ThreeTargetsAStepWhereTheyWereMeasuredFaster
        ++one_round_sizes;
        const unsigned chosen =
            fused_grid_shape_for(n, 132, 132, tile_max, 0, f32 ? f32_producing : f64_producing).targets_a_step;
        ASSERT_TRUE(by_k.count(chosen)) << hi << " N = " << n;
        for (const auto& [k, ms] : by_k)
            if (chosen == 1 || k == 1) EXPECT_LE(by_k.at(chosen), ms) << hi << " N = " << n << ": " << k << " a step";
    }
    EXPECT_EQ(one_round_sizes, 15u);  // f32: 32 ... 2916 (8 sizes), f64: 32 ... 2048 (7)
}

TEST(FusedGridShape, TheFullTilesWereTheFastestOnAverageInTheirCsv) {
    // engine/docs/gpu-runs/2026-11-30-h200-full-tiles.csv: adding-warps on an H200, open and periodic
    // fcc, N = 5324 ... 42 592, with equal tiles ('equal') and with full rounds of each tile. For each
    // box and precision the tile whose time lay least above the fastest form's, on average over the
    // sizes, is the table's (fused_grid_full_tile; one a step in periodic boxes), and in ds equal
    // tiles (hi_launch_common.cuh).
    std::ifstream csv(std::string(stokesian::test_support::project_source_dir) +
                      "/engine/docs/gpu-runs/2026-11-30-h200-full-tiles.csv");
    ASSERT_TRUE(csv);
    // (boundary, precision) -> N -> form -> ms
    std::map<std::pair<std::string, std::string>, std::map<unsigned, std::map<std::string, double>>> measured;
    for (const auto& row : stokesian::test_support::csv_records(csv))
        measured[{row.at("boundary"), row.at("precision")}][static_cast<unsigned>(std::stoul(row.at("particles")))]
                [row.at("tile")] = std::stod(row.at("hi_median_ms"));
    ASSERT_EQ(measured.size(), 6u);
    for (const auto& [kind, by_n] : measured) {
        const auto& [boundary, precision] = kind;
        ASSERT_EQ(by_n.size(), 12u) << boundary << " " << precision;
        std::map<std::string, double> excess;  // form -> sum over N of (ms / fastest ms - 1)
        for (const auto& [n, by_form] : by_n) {
            double fastest = by_form.begin()->second;
            for (const auto& [form, ms] : by_form) fastest = std::min(fastest, ms);
            for (const auto& [form, ms] : by_form) excess[form] += ms / fastest - 1.0;
        }
        std::string best = excess.begin()->first;
        for (const auto& [form, sum] : excess)
            if (sum < excess.at(best)) best = form;
        const unsigned most = boundary == "open" ? 2u : 1u;  // more than one a step (f64: three) or one
        const std::string table = precision == "ds"    ? "equal"
                                  : precision == "f32" ? std::to_string(fused_grid_full_tile(4, most))
                                                       : std::to_string(fused_grid_full_tile(8, most));
        EXPECT_EQ(table, best) << boundary << " " << precision;
    }
}

TEST(FusedGridShape, TheOpenFccBenchmarkOnAnH200) {
    // Equal tiles (the grid kernel): N = 864 on 132 SMs: tiles of 7 on 124 blocks, one adding warp
    // busy (engine/docs/performance.md, "the grid kernel in tiles"); N = 10 976 with tiles of at most
    // 30 (f32): 3 rounds of ceil(10976 / 396) = 28 targets, 132 blocks.
    const fused_grid_shape small = fused_grid_shape_for(864, 132, 132, 30, 0, f32_producing);
    EXPECT_EQ(small.tiling.tile, 7u);
    EXPECT_EQ(small.blocks, 124u);
    const fused_grid_shape large = fused_grid_shape_for(10976, 132, 132, 30, 0, f32_producing);
    EXPECT_EQ(large.tiling.tile, 28u);
    EXPECT_EQ(large.blocks, 132u);
    // One target a step in one round while a warp's group holds fewer than two steps of the most
    // (f32: 4 targets, tiles of 13 from N = 1585; f64: 6, tiles of 11 from N = 1321), several from
    // there and in every later round: f32's tiles of 30 hold 3960 targets on 132 multiprocessors,
    // f64's of 20 hold 2640.
    EXPECT_EQ(small.targets_a_step, 1u);
    EXPECT_EQ(large.targets_a_step, 2u);
    EXPECT_EQ(fused_grid_shape_for(1584, 132, 132, 30, 0, f32_producing).targets_a_step, 1u);
    EXPECT_EQ(fused_grid_shape_for(1585, 132, 132, 30, 0, f32_producing).targets_a_step, 2u);
    EXPECT_EQ(fused_grid_shape_for(1320, 132, 132, 20, 0, f64_producing).targets_a_step, 1u);
    EXPECT_EQ(fused_grid_shape_for(1321, 132, 132, 20, 0, f64_producing).targets_a_step, 2u);
    EXPECT_EQ(fused_grid_shape_for(2640, 132, 132, 20, 0, f64_producing).targets_a_step, 2u);  // groups of 10
    EXPECT_EQ(fused_grid_shape_for(2641, 132, 132, 20, 0, f64_producing).targets_a_step, 2u);
    // f64 at N = 10 976: 5 rounds of ceil(10976 / 660) = 17 targets, groups of 9 and 8: three a step.
    const fused_grid_shape f64_large = fused_grid_shape_for(10976, 132, 132, 20, 0, f64_producing);
    EXPECT_EQ(f64_large.tiling.tile, 17u);
    EXPECT_EQ(f64_large.targets_a_step, 3u);
    // Full rounds (adding-warps) at N = 10 976: f32 two rounds of 30 (7920 targets), the 3056 left in
    // tiles of ceil(3056 / 132) = 24; f64 four rounds of 18 (9504), the 1472 left in tiles of 12,
    // three a step (groups of 9).
    const fused_grid_shape f32_full = fused_grid_shape_for(10976, 132, 132, 30, 30, f32_producing);
    EXPECT_EQ(f32_full.tiling.tile, 30u);
    EXPECT_EQ(f32_full.tiling.full_tiles, 264u);
    EXPECT_EQ(f32_full.tiling.last_tile, 24u);
    EXPECT_EQ(f32_full.targets_a_step, 2u);
    const fused_grid_shape f64_full = fused_grid_shape_for(10976, 132, 132, 20, 18, f64_producing);
    EXPECT_EQ(f64_full.tiling.tile, 18u);
    EXPECT_EQ(f64_full.tiling.full_tiles, 528u);
    EXPECT_EQ(f64_full.tiling.last_tile, 12u);
    EXPECT_EQ(f64_full.targets_a_step, 3u);
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
