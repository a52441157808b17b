#pragma once
// Warps that share one particle's work: shuffles of the state types over the full warp, an ordered
// sum of the lanes' terms, and the launch shape of a warp a particle.
#include "device_types.cuh"
#include "stokesian/numeric/float_float.hpp"

namespace stokesian::cuda {

inline constexpr unsigned full_warp = 0xffffffffu;
__device__ inline float shuffle(float x, unsigned src) { return __shfl_sync(full_warp, x, static_cast<int>(src)); }
__device__ inline double shuffle(double x, unsigned src) { return __shfl_sync(full_warp, x, static_cast<int>(src)); }
__device__ inline int shuffle(int x, unsigned src) { return __shfl_sync(full_warp, x, static_cast<int>(src)); }
__device__ inline float_float shuffle(float_float x, unsigned src) { return {shuffle(x.hi, src), shuffle(x.lo, src)}; }
template <class T>
__device__ inline vec3<T> shuffle(vec3<T> v, unsigned src) {
    return {shuffle(v.x, src), shuffle(v.y, src), shuffle(v.z, src)};
}

// sum += the terms of the lanes where `take` holds, one after the other in lane order, in every
// lane: a warp's batch of candidates added in ascending j where lane order is j's order (the CPU's
// serial sum, bit for bit, with the terms evaluated side by side).
template <class W>
__device__ __forceinline__ void add_in_lane_order(vec3<W>& sum, const vec3<W>& term, bool take) {
    for (unsigned left = __ballot_sync(full_warp, take); left != 0; left &= left - 1u)
        sum += shuffle(term, unsigned(__ffs(left)) - 1u);
}

// sum += term(j) for the row's `neighbours` entries j: a neighbour a lane, the terms added in the
// row's order (ascending j, the CPU's) in every lane of the particle's warp.
template <class W, class Term>
__device__ __forceinline__ void add_over_row(vec3<W>& sum, const unsigned* row, unsigned neighbours, Term term) {
    const unsigned lane = threadIdx.x % 32u;
    for (unsigned base = 0; base < neighbours; base += 32u) {
        const bool take = base + lane < neighbours;
        vec3<W> t{};
        if (take) t = term(row[base + lane]);
        add_in_lane_order(sum, t, take);
    }
}

// A warp a particle: at small N a thread a particle leaves the device nearly idle, each thread's
// loop over its neighbours one latency after the other (engine/docs/performance.md).
inline constexpr unsigned particle_warps_a_block = 4;
inline constexpr unsigned particle_warp_threads = 32u * particle_warps_a_block;
inline unsigned blocks_for_particle_warps(unsigned n) { return blocks_for(32ull * n, particle_warp_threads); }
__device__ inline unsigned particle_of_warp() { return (blockIdx.x * blockDim.x + threadIdx.x) / 32u; }

}  // namespace stokesian::cuda
