#pragma once
// The ordered-split kernel (issue #13): several lanes per target like the split kernel, the sum in the CPU's
// order like tiling, so it is exact (bit for bit the CPU) and fills the GPU at small N, where one
// thread per target leaves it idle (engine/docs/far-kernels.md, "ordered-split").
//
// The G lanes of a group evaluate the terms of 2G consecutive sources a step (far_lane::step: the
// far kernels' pair step, so the terms are theirs and the CPU's to the bit) and put them in shared
// memory; then three lanes of the warp per group, one per component of the group's target, add
// them one after the other in index order, each step continuing the same accumulator, exactly as
// the CPU's loop does: v_i = (((0 + t_i0) + t_i1) + ...) in the accumulator's arithmetic. Only the
// ordered additions are serial; the terms, most of the work, spread over G times as many lanes.
// The result does not depend on G, which follows the number of targets of the launch.
#include <cstddef>
#include <type_traits>

#include "hi_far_kernels.cuh"
#include "ordered_split_schedule.hpp"

namespace stokesian::cuda {

// Shared memory of a block of `block` threads: the tiles and each warp's term array.
template <class W>
__host__ __device__ constexpr std::size_t ordered_split_shared_bytes(unsigned block, unsigned g) {
    return 2 * sizeof(packed4<W>) * far_tile_slots(block, g) + sizeof(W) * ordered_split::words_per_warp * (block / 32);
}

// The velocities of the block's targets, the block standing at place `block` of the launch (every
// thread of the block calls it: it synchronises the block). G in {4, 8, 16, 32} (the adding lanes,
// 3 per group, fit one warp); blockDim a multiple of 32; `shared`: ordered_split_shared_bytes. No
// __restrict__ here: the persistent kernel (fused_grid_kernel.cuh) reads buffers it writes; the
// step kernel below keeps it on its parameters.
template <class Tensor, class W, class A, bool Periodic, int G>
__device__ __forceinline__ void ordered_split_targets(unsigned char* shared, const packed4<W>* position,
                                                      const packed4<W>* force, vec3<A>* velocity, unsigned first,
                                                      unsigned last, unsigned n, const interaction_parameters<W>& p,
                                                      unsigned block) {
    static_assert(G >= 4 && G <= 32 && (32 % G) == 0, "three adding lanes per group must fit the warp");
    const far_lane<W, G> me(shared, position, first, last, block);
    const unsigned warp_lane = threadIdx.x % 32;
    W* terms = reinterpret_cast<W*>(me.tile_force + far_tile_slots(blockDim.x, G)) +
               threadIdx.x / 32 * ordered_split::words_per_warp;
    // The adding lane 3g + c of the warp adds component c of group g's target (ordered_split_schedule.hpp).
    const unsigned component = ordered_split::added_component(warp_lane);
    const unsigned added_target =
        first + (block * blockDim.x + threadIdx.x - warp_lane) / G + ordered_split::added_group(warp_lane);
    const bool adding = ordered_split::adds(warp_lane, G) && added_target < last;
    A acc{};
    for (unsigned start = 0; start < n; start += blockDim.x) {
        me.template stage<false>(start, n, position, force, p.mobility.self_mobility);
        const unsigned count = min(blockDim.x, n - start);  // the same in every lane: uniform trip count
        for (unsigned kk = 0; kk < count; kk += 2 * G) {
            bool use0, use1;
            vec3<W> t0, t1;
            me.template step<Tensor, false, Periodic>(start, kk, count, p, p, use0, use1, t0, t1);
            using ordered_split::term_word;
            if (use0) {
                terms[term_word(0, 0, warp_lane)] = t0.x;
                terms[term_word(1, 0, warp_lane)] = t0.y;
                terms[term_word(2, 0, warp_lane)] = t0.z;
            }
            if (use1) {
                terms[term_word(0, 1, warp_lane)] = t1.x;
                terms[term_word(1, 1, warp_lane)] = t1.y;
                terms[term_word(2, 1, warp_lane)] = t1.z;
            }
            __syncwarp();
            if (adding) {
                // Sources kk, kk + 1, ..., kk + 2G - 1 in this order, those of the tile only. With a
                // float or float_float accumulator a whole step (every step but a tile's last, the
                // same in every lane) adds without a test per term; a double accumulator keeps the
                // tested form, which measured 1-3 % faster for it (the whole-step form: ds 14-33 %
                // and f32 ~3 % faster; far-kernels.md, "Whole steps without a test per term"). The
                // same additions in the same order either way. (Two loops, not one taking the count:
                // nvcc 13.0 compiles the float_float case of that form differently, not measured.)
                const unsigned left = count - kk;
                if (!std::is_same_v<A, double> && left >= 2 * unsigned(G)) {
#pragma unroll
                    for (unsigned t = 0; t < 2 * unsigned(G); ++t)
                        acc = acc + terms[ordered_split::added_word(warp_lane, G, t)];
                } else {
#pragma unroll
                    for (unsigned t = 0; t < 2 * unsigned(G); ++t)
                        if (t < left) acc = acc + terms[ordered_split::added_word(warp_lane, G, t)];
                }
            }
            __syncwarp();
        }
        __syncthreads();
    }
    if (adding) {
        vec3<A>& v = velocity[added_target];
        (component == 0 ? v.x : component == 1 ? v.y : v.z) = acc;
    }
}

template <class Tensor, class W, class A, bool Periodic, int G>
__global__ void hi_ordered_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                                  vec3<A>* __restrict__ velocity, unsigned first, unsigned last, unsigned n,
                                  interaction_parameters<W> p) {
    extern __shared__ unsigned char shared_bytes[];
    ordered_split_targets<Tensor, W, A, Periodic, G>(shared_bytes, position, force, velocity, first, last, n, p,
                                                     blockIdx.x);
}

}  // namespace stokesian::cuda
