#pragma once
// The exact HI kernel adding-warps (issue #32): the fused grid kernel's velocity phase
// (fused_grid_velocities.cuh) alone, one product M·F a launch. A block is a team of producing warps,
// which evaluate the pair terms of a tile of targets chunk by chunk, and adding warps, which add them
// one after the other in source order while the next chunk is evaluated: the CPU's sum, bit for bit,
// without ordered-split's cost of adding lanes inside the producing warps (hi_ordered_kernel.cuh).
// Block b takes the b-th tile of each round of the launch's targets (fused_grid_each_tile); the shape
// (tiles, blocks, targets a step, chunk buffers) is the grid kernel's for as many targets (fused_grid_plan.cuh);
// UnitMobility: the launch's mu0 is 1 (fused_grid_terms).
#include "fused_grid_velocities.cuh"

namespace stokesian::cuda {

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
