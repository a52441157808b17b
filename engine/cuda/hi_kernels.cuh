#pragma once
// Hydrodynamic-interaction kernels: v_i = sum_{j=0}^{N-1} mu_ij . F_j (paper, Eq. (rotneMobility))
// for the targets i in [first, last) against all N = n_sources sources, written to velocity[i]. A
// target's sum does not depend on the range (the split kernel's G is chosen from N, not from the
// range), so ranges give the whole-range velocities bit for bit. Tensor: the evaluator type
// (physics/tensor_registry.hpp).
//
// One thread per target particle, summing j = 0, 1, ..., N-1 in index order with the self term at
// j = i, exactly like the CPU backend's all-pairs loop: all of these give bitwise identical results
// (with each other and with the CPU). They differ only in how sources reach the threads:
//   naive         each thread reads every source from global memory (paper, Algorithm 1)
//   tiling        the block stages tiles of blockDim sources in shared memory (Nyland et al. 2007)
//   small-tiling  the first warp stages tiles of 32 sources (paper, Algorithm 2)
//
// The split kernel (run as fast-split) gives each target G consecutive lanes of a warp: lane l
// sums the sources j = l, l + G, ... of each tile in index order, then the G partial sums are
// added by a shuffle tree in a fixed order. Deterministic run to run, but not the CPU's order of
// summation; it fills the GPU at small N, where one thread per target leaves most of it idle.
//
// Fast = true evaluates the tensors with the hardware reciprocal square root
// (physics/mobility.hpp: distance_and_inverse); those instantiations live in the fast launches
// (hi_launch.cuh), compiled with FMA contraction.
#include "device_types.cuh"
#include "stokesian/physics/accumulate.hpp"
#include "stokesian/physics/interactions.hpp"

namespace stokesian::cuda {

template <class Tensor, class W, class A, bool Fast>
__global__ void hi_naive_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                vec3<A>* __restrict__ velocity, unsigned first, unsigned last, unsigned n,
                                interaction_parameters<W> p) {
    const unsigned i = first + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= last) return;
    const vec3<W> r_i = unpack(position[i]);
    vec3<A> acc = zero_vector<A>();
    for (unsigned j = 0; j < n; ++j)
        accumulate(acc, hydrodynamic_contribution<Tensor, Fast>(i == j, r_i, unpack(position[j]), unpack(force[j]), p));
    velocity[i] = acc;
}

// tile = blockDim.x (tiling) or 32 (small-tiling: only the first warp loads, Algorithm 2).
template <class Tensor, class W, class A, bool Fast, bool SmallTiles>
__global__ void hi_tiling_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                 vec3<A>* __restrict__ velocity, unsigned first, unsigned last, unsigned n,
                                 interaction_parameters<W> p) {
    extern __shared__ unsigned char shared_bytes[];
    const unsigned tile = SmallTiles ? 32u : blockDim.x;
    auto* tile_position = reinterpret_cast<packed4<W>*>(shared_bytes);
    auto* tile_force = tile_position + tile;
    const unsigned i = first + blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = i < last;
    const vec3<W> r_i = active ? unpack(position[i]) : vec3<W>{};
    vec3<A> acc = zero_vector<A>();
    for (unsigned start = 0; start < n; start += tile) {
        if (threadIdx.x < tile) {
            const unsigned j = start + threadIdx.x;
            if (j < n) {
                tile_position[threadIdx.x] = position[j];
                tile_force[threadIdx.x] = force[j];
            }
        }
        __syncthreads();
        const unsigned count = min(tile, n - start);
        if (active)
            for (unsigned k = 0; k < count; ++k)
                accumulate(acc, hydrodynamic_contribution<Tensor, Fast>(i == start + k, r_i, unpack(tile_position[k]),
                                                                        unpack(tile_force[k]), p));
        __syncthreads();
    }
    if (active) velocity[i] = acc;
}

// Partial sums of the split kernel travel between lanes by shuffles.
__device__ inline float shuffle_down(float v, unsigned offset) { return __shfl_down_sync(0xffffffffu, v, offset); }
__device__ inline double shuffle_down(double v, unsigned offset) { return __shfl_down_sync(0xffffffffu, v, offset); }
__device__ inline float_float shuffle_down(float_float v, unsigned offset) {
    return {__shfl_down_sync(0xffffffffu, v.hi, offset), __shfl_down_sync(0xffffffffu, v.lo, offset)};
}
template <class A>
__device__ inline vec3<A> shuffle_down(vec3<A> v, unsigned offset) {
    return {shuffle_down(v.x, offset), shuffle_down(v.y, offset), shuffle_down(v.z, offset)};
}
// acc + partial in the accumulator's arithmetic (float_float + float_float: AccurateDWPlusDW).
template <class A>
__device__ inline vec3<A> add_partial(vec3<A> a, vec3<A> b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}

// Group = G consecutive lanes per target (G divides 32); blockDim a multiple of 32.
template <class Tensor, class W, class A, bool Fast, int G>
__global__ void hi_split_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                vec3<A>* __restrict__ velocity, unsigned first, unsigned last, unsigned n,
                                interaction_parameters<W> p) {
    static_assert(G >= 1 && G <= 32 && (32 % G) == 0, "a group must divide the warp");
    extern __shared__ unsigned char shared_bytes[];
    const unsigned tile = blockDim.x;
    auto* tile_position = reinterpret_cast<packed4<W>*>(shared_bytes);
    auto* tile_force = tile_position + tile;
    const unsigned i = first + (blockIdx.x * blockDim.x + threadIdx.x) / G;  // this group's target
    const unsigned lane = threadIdx.x % G;
    const bool active = i < last;
    const vec3<W> r_i = active ? unpack(position[i]) : vec3<W>{};
    vec3<A> acc = zero_vector<A>();
    for (unsigned start = 0; start < n; start += tile) {
        const unsigned j = start + threadIdx.x;
        if (j < n) {
            tile_position[threadIdx.x] = position[j];
            tile_force[threadIdx.x] = force[j];
        }
        __syncthreads();
        const unsigned count = min(tile, n - start);
        if (active)
            for (unsigned k = lane; k < count; k += G)
                accumulate(acc, hydrodynamic_contribution<Tensor, Fast>(i == start + k, r_i, unpack(tile_position[k]),
                                                                        unpack(tile_force[k]), p));
        __syncthreads();
    }
    // Fixed shuffle tree: lane l adds lane l + offset for offset = G/2, G/4, ..., 1. Every lane of
    // the warp takes part (inactive groups carry zeros), so the full mask is right.
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2) acc = add_partial(acc, shuffle_down(acc, unsigned(offset)));
    if (active && lane == 0) velocity[i] = acc;
}

}  // namespace stokesian::cuda
