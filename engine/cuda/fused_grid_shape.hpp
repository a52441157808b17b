#pragma once
// How the grid kernel (fused_grid_kernel.cuh) cuts one system of n particles into tiles, a block a
// tile at a time, and how many chunk buffers a block holds: host code without CUDA, so that a CPU
// test checks it (tests/cuda/fused_grid_shape_test.cpp).
#include <cstddef>

namespace stokesian::cuda {

inline constexpr unsigned fused_grid_tile_max = 10;    // 3 components a target: 30 adding lanes
inline constexpr unsigned fused_grid_buffers_max = 4;  // chunk buffers between producing and adding warps

// The chunk buffers of `buffer_bytes` each that fit a block's `shared_per_block` bytes of shared
// memory beside `fixed_bytes`, at most fused_grid_buffers_max; 0 when not even one fits. (Four
// f32 buffers need ~107 KiB and three f64 ones ~159 KiB: more than a block of some devices holds.)
constexpr unsigned fused_grid_buffers_fitting(std::size_t shared_per_block, std::size_t fixed_bytes,
                                              std::size_t buffer_bytes) {
    if (shared_per_block < fixed_bytes) return 0;
    const std::size_t fitting = (shared_per_block - fixed_bytes) / buffer_bytes;
    return fitting < fused_grid_buffers_max ? static_cast<unsigned>(fitting) : fused_grid_buffers_max;
}

struct fused_grid_shape {
    unsigned tile;    // targets a block takes at a time
    unsigned blocks;  // blocks of the launch; block b takes tiles b, b + blocks, ...
};

// `resident`: the blocks the device holds at once (blocks a multiprocessor times multiprocessors);
// every block of a cooperative launch must be resident. A system of at most fused_grid_tile_max
// targets a multiprocessor gets one block on each: the grid barrier's cost grows with the number of
// blocks, and a block's chain of n additions takes as long for one target as for ten. Larger
// systems fill every resident block with tiles of equal size, in as few rounds as they allow.
constexpr fused_grid_shape fused_grid_shape_for(unsigned n, unsigned multiprocessors, unsigned resident) {
    unsigned tile = 0;
    if (n <= fused_grid_tile_max * multiprocessors) {
        tile = (n + multiprocessors - 1) / multiprocessors;
    } else {
        const unsigned rounds = (n + fused_grid_tile_max * resident - 1) / (fused_grid_tile_max * resident);
        tile = (n + rounds * resident - 1) / (rounds * resident);
    }
    const unsigned tiles = (n + tile - 1) / tile;
    return {tile, tiles < resident ? tiles : resident};
}

}  // namespace stokesian::cuda
