// The grid kernel's tiles and blocks (cuda/fused_grid_shape.hpp, used by fused_grid_launch.cuh),
// on the host, for devices of several sizes: every target falls in exactly one tile of one block,
// no block of the cooperative launch lies beyond what the device holds at once or idles, tiles hold
// at most ten targets (30 adding lanes), a system of at most ten targets a multiprocessor takes one
// round with at most one block a multiprocessor, and a larger one takes the fewest rounds possible;
// and the chunk buffers a block's shared memory holds.
#include <gtest/gtest.h>

#include <vector>

#include "cuda/fused_grid_shape.hpp"

using stokesian::cuda::fused_grid_buffers_fitting;
using stokesian::cuda::fused_grid_buffers_max;
using stokesian::cuda::fused_grid_shape;
using stokesian::cuda::fused_grid_shape_for;
using stokesian::cuda::fused_grid_tile_max;

namespace {

unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

void check_shape(unsigned n, unsigned multiprocessors, unsigned per_multiprocessor) {
    const unsigned resident = multiprocessors * per_multiprocessor;
    const fused_grid_shape s = fused_grid_shape_for(n, multiprocessors, resident);
    const std::string what = "n = " + std::to_string(n) + ", " + std::to_string(multiprocessors) + " x " +
                             std::to_string(per_multiprocessor);
    ASSERT_GE(s.tile, 1u) << what;
    ASSERT_LE(s.tile, fused_grid_tile_max) << what;
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
    if (n <= fused_grid_tile_max * multiprocessors) {
        EXPECT_LE(s.blocks, multiprocessors) << what;
        EXPECT_EQ(rounds, 1u) << what;
    } else {
        EXPECT_EQ(rounds, ceil_div(n, fused_grid_tile_max * resident)) << what;
    }
}

}  // namespace

TEST(FusedGridShape, EveryTargetOnceInTheFewestRounds) {
    // An H100 / H200 (132 SMs) with one or two blocks a multiprocessor, an A100 (108), a small GPU (20), one SM.
    for (const unsigned multiprocessors : {132u, 108u, 20u, 1u})
        for (const unsigned per_multiprocessor : {1u, 2u})
            for (unsigned n = 1; n <= 3000; n += n < 200 ? 1 : 37) check_shape(n, multiprocessors, per_multiprocessor);
    for (const unsigned n : {10976u, 42592u, 65536u}) check_shape(n, 132, 1);
}

TEST(FusedGridShape, TheOpenFccBenchmarkOnAnH200) {
    // N = 864 on 132 SMs: tiles of 7 on 124 blocks (engine/docs/performance.md, "the grid kernel in tiles").
    const fused_grid_shape s = fused_grid_shape_for(864, 132, 132);
    EXPECT_EQ(s.tile, 7u);
    EXPECT_EQ(s.blocks, 124u);
}

TEST(FusedGridShape, AsManyBuffersAsTheSharedMemoryHolds) {
    // Per-block opt-in shared memory: 227 KiB (cc 9.0, 10.0), 163 KiB (cc 8.0), 99 KiB (cc 8.6, 8.9, 12.0).
    // The kernel's sizes (fused_grid_kernel.cuh): a buffer is 3 * 10 rows of 228 floats or 226 doubles.
    const std::size_t f32 = 3 * 10 * 228 * 4, f64 = 3 * 10 * 226 * 8, targets32 = 10 * 16, targets64 = 10 * 32;
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
