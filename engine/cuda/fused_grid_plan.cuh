#pragma once
// How a launch of the team of warps (fused_grid_velocities.cuh) is cut on the current device: the
// tile, the blocks, the targets a step and the chunk buffers (the rules of fused_grid_shape.hpp with
// the device's multiprocessors and shared memory). One plan for both kernels that run the team: the
// fused grid kernel (fused_grid_launch.cuh) and the exact HI kernel adding-warps (hi_launch_common.cuh).
#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "fused_grid_shape.hpp"
#include "fused_grid_velocities.cuh"
#include "hi_launch.cuh"

namespace stokesian::cuda {

struct fused_grid_plan {
    fused_grid_shape shape;
    unsigned buffers;    // chunk buffers a block holds
    unsigned buffer;     // values a chunk buffer holds
    std::size_t shared;  // a block's dynamic shared memory, in bytes
};

// `targets` consecutive targets (the device's, against all the sources) whose producing warps take at
// most `most_a_step` targets at a time (the most the launch's kernels are compiled for), in tiles as
// `tiles` says (fused_grid_shape_for). One block a multiprocessor: a block's warps hold nearly all
// of its registers (f32: 31 warps of 64, f64: 16 of ~120), so a second one never fits
// (fused_grid_prepare checks the first).
template <class W>
fused_grid_plan fused_grid_plan_for(unsigned targets, unsigned most_a_step, fused_grid_tiles tiles) {
    const unsigned sms = device_sm_count();
    const std::size_t shared_per_block = device_shared_memory_per_block();
    const unsigned tile_max = fused_grid_tile_fitting(shared_per_block, fused_grid_targets_bytes<W>, fused_grid_row<W>,
                                                      sizeof(W), fused_grid_tile_max<W>);
    if (tile_max < 1)
        throw std::runtime_error(
            "a team of producing and adding warps (the fused grid kernel, adding-warps) does not "
            "fit a multiprocessor of this device");
    const unsigned full_tile =
        tiles == fused_grid_tiles::full_rounds ? fused_grid_full_tile(sizeof(W), most_a_step) : 0u;
    const fused_grid_shape shape =
        fused_grid_shape_for(targets, sms, sms, tile_max, full_tile, {fused_grid_groups<W>, most_a_step});
    const std::size_t buffer_bytes = fused_grid_buffer_bytes(shape.tiling.tile, fused_grid_row<W>, sizeof(W));
    const unsigned buffers = fused_grid_buffers_fitting(shared_per_block, fused_grid_targets_bytes<W>, buffer_bytes);
    return {shape, buffers, static_cast<unsigned>(buffer_bytes / sizeof(W)),
            fused_grid_targets_bytes<W> + buffers * buffer_bytes};
}

// Calls f(std::integral_constant<unsigned, K>{}) with K = k for k = 2 ... Most, else K = 1: a plan's
// targets a step (fused_grid_shape::targets_a_step) picks its kernel instantiation, among those the
// kernel is compiled for (Most = 1 where several a step do not pay: fused_grid_pairs_pay).
template <unsigned Most, class F>
void with_targets_a_step(unsigned k, F&& f) {
    if constexpr (Most >= 3)
        if (k == 3) return f(std::integral_constant<unsigned, 3>{});
    if constexpr (Most >= 2)
        if (k == 2) return f(std::integral_constant<unsigned, 2>{});
    f(std::integral_constant<unsigned, 1>{});
}

// Lets `kernel`, a team kernel of blocks of `block` threads, use `shared` bytes of dynamic shared
// memory, and checks that one such block fits a multiprocessor (else std::runtime_error, naming
// `what`). Once per device and kernel for a given size or less.
void fused_grid_prepare(const void* kernel, std::size_t shared, unsigned block, const char* what);

}  // namespace stokesian::cuda
