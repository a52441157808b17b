#pragma once
// The exact HI kernel adding-warps (issue #32): the fused grid kernel's velocity phase
// (fused_grid_velocities.cuh) alone, one product M·F a launch. A block is a team of producing warps,
// which evaluate the pair terms of a tile of targets chunk by chunk, and adding warps, which add them
// one after the other in source order while the next chunk is evaluated: the CPU's sum, bit for bit,
// without ordered-split's cost of adding lanes inside the producing warps (hi_ordered_kernel.cuh).
// Block b takes the b-th tile of each round of the launch's targets (fused_grid_each_tile, below);
// the shape (tiles, blocks, targets a step, chunk buffers) comes from the plan both team kernels use
// (fused_grid_plan.cuh), in full rounds (fused_grid_tiles) where the grid kernel takes equal tiles;
// UnitMobility: the launch's mu0 is 1 (fused_grid_terms).
#include "fused_grid_velocities.cuh"

namespace stokesian::cuda {

// Calls f(first, size) for each of this block's tiles (tiling: fused_grid_shape.hpp) of the targets
// begin ... end - 1, in order: its tile of each full round (whole: full_tiles is a multiple of the
// launch's blocks), then of the last. Two loops, one a tile size: as one loop over the launch's tile
// index adding-warps was 2 % (f64) and 5 % (f32) slower at N = 10 976 on an H200
// (engine/docs/gpu-runs/2026-11-30-h200-full-tiles-verify.txt).
template <class F>
__device__ __forceinline__ void fused_grid_each_tile(const fused_grid_tiling& t, unsigned begin, unsigned end, F&& f) {
    const unsigned rest = begin + t.full_tiles * t.tile;
    for (unsigned first = begin + blockIdx.x * t.tile; first < rest; first += gridDim.x * t.tile) f(first, t.tile);
    for (unsigned first = rest + blockIdx.x * t.last_tile; first < end; first += gridDim.x * t.last_tile)
        f(first, min(t.last_tile, end - first));
}

template <class Tensor, bool Periodic, unsigned TargetsAStep, bool UnitMobility, class A, class W>
__global__ void __launch_bounds__(fused_grid_block<W>)
    hi_adding_warps_kernel(const packed4<W>* position, const packed4<W>* force, vec3<A>* velocity, unsigned first,
                           unsigned last, unsigned n, fused_grid_tiling tiling, unsigned buffers, unsigned buffer,
                           interaction_parameters<W> p) {
    extern __shared__ __align__(16) unsigned char hi_adding_warps_shared[];
    fused_grid_each_tile(tiling, first, last, [&](unsigned t, unsigned size) {
        fused_grid_velocities<Tensor, Periodic, TargetsAStep, UnitMobility>(hi_adding_warps_shared, position, force,
                                                                            velocity, t, size, n, buffers, buffer, p);
    });
}

}  // namespace stokesian::cuda
