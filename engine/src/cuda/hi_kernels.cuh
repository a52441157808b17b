#pragma once
// Hydrodynamic-interaction kernels: v_i = sum_{j=0}^{N-1} mu_ij . F_j (paper, Eq. (rotneMobility)).
// One thread per target particle; every variant sums j = 0, 1, ..., N-1 in index order with the
// self term at j = i, exactly like the CPU backend's all-pairs loop, so all variants (and the CPU)
// give bitwise identical results. They differ only in how sources reach the threads:
//   naive         each thread reads every source from global memory (paper, Algorithm 1)
//   tiling        the block stages tiles of blockDim sources in shared memory (Nyland et al. 2007)
//   small-tiling  the first warp stages tiles of 32 sources (paper, Algorithm 2)
//   multi-target  tiles as in tiling, and each thread serves TARGETS particles, so each source
//                 read from shared memory feeds TARGETS pair evaluations (register blocking)
#include "device_types.cuh"
#include "stokesian/physics/accumulate.hpp"
#include "stokesian/physics/interactions.hpp"

namespace stokesian::cuda {

template <class W, class A>
__global__ void hi_naive_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                vec3<A>* __restrict__ velocity, unsigned n, interaction_parameters<W> p) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const vec3<W> r_i = unpack(position[i]);
    vec3<A> acc = zero_vector<A>();
    for (unsigned j = 0; j < n; ++j)
        accumulate(acc, hydrodynamic_contribution(i == j, r_i, unpack(position[j]), unpack(force[j]), p));
    velocity[i] = acc;
}

// tile = blockDim.x (tiling) or 32 (small-tiling: only the first warp loads, Algorithm 2).
template <class W, class A, bool SmallTiles>
__global__ void hi_tiling_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                 vec3<A>* __restrict__ velocity, unsigned n, interaction_parameters<W> p) {
    extern __shared__ unsigned char shared_bytes[];
    const unsigned tile = SmallTiles ? 32u : blockDim.x;
    auto* tile_position = reinterpret_cast<packed4<W>*>(shared_bytes);
    auto* tile_force = tile_position + tile;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = i < n;
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
                accumulate(acc, hydrodynamic_contribution(i == start + k, r_i, unpack(tile_position[k]),
                                                          unpack(tile_force[k]), p));
        __syncthreads();
    }
    if (active) velocity[i] = acc;
}

template <class W, class A, int Targets>
__global__ void hi_multi_target_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                       vec3<A>* __restrict__ velocity, unsigned n, interaction_parameters<W> p) {
    extern __shared__ unsigned char shared_bytes[];
    const unsigned tile = blockDim.x;
    auto* tile_position = reinterpret_cast<packed4<W>*>(shared_bytes);
    auto* tile_force = tile_position + tile;
    // Thread t of block b serves targets b*Targets*B + t + k*B, k < Targets (coalesced).
    const unsigned base = blockIdx.x * Targets * blockDim.x + threadIdx.x;
    vec3<W> r_i[Targets];
    vec3<A> acc[Targets];
#pragma unroll
    for (int k = 0; k < Targets; ++k) {
        const unsigned i = base + k * blockDim.x;
        r_i[k] = i < n ? unpack(position[i]) : vec3<W>{};
        acc[k] = zero_vector<A>();
    }
    for (unsigned start = 0; start < n; start += tile) {
        const unsigned j = start + threadIdx.x;
        if (j < n) {
            tile_position[threadIdx.x] = position[j];
            tile_force[threadIdx.x] = force[j];
        }
        __syncthreads();
        const unsigned count = min(tile, n - start);
        for (unsigned s = 0; s < count; ++s) {
            const vec3<W> r_j = unpack(tile_position[s]);
            const vec3<W> f_j = unpack(tile_force[s]);
#pragma unroll
            for (int k = 0; k < Targets; ++k)
                accumulate(acc[k], hydrodynamic_contribution(base + k * blockDim.x == start + s, r_i[k], r_j, f_j, p));
        }
        __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < Targets; ++k) {
        const unsigned i = base + k * blockDim.x;
        if (i < n) velocity[i] = acc[k];
    }
}

}  // namespace stokesian::cuda
