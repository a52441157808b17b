#pragma once
// The far-field HI kernels (issue #13, engine/docs/performance.md "2026-11-27: far-field kernels"):
// far-tiling (exact arithmetic) and fast-far-split (hardware rsqrt, FMA contraction). They sum
// exactly as tiling (G = 1: one thread per target, sources in index order, the CPU's order) and
// the split kernel of fast-split (G lanes per target, fixed shuffle tree) do, and differ from them
// in how a pair term is evaluated:
//   - the box is a template parameter: an open box skips the minimum image and the tie test
//     entirely, a periodic one runs them without the run-time test of box.periodic;
//   - a warp-uniform far-field path: every lane computes its pairs' separation, r and 1/r (the
//     first steps of the general form), then the warp votes. If every lane's pair is untied
//     and in the tensor's far range (r >= 2a for Rotne-Prager), all lanes evaluate only the far
//     form (physics/tensors/far_form.hpp: evaluate's far-branch expressions, so the same bits as
//     the general form's select); otherwise each lane evaluates the general form
//     (hydrodynamic_contribution, as every other kernel). The self pair (r = 0), overlapping and
//     tied pairs are rare, so nearly every step of a large system takes the short path, which
//     leaves out the overlap form, both selects, the tie split and the self test.
// The lane's view of the block and its pair step (far_lane) serve ordered-split too (hi_ordered_kernel.cuh).
// A lane takes the far path only if its own pairs are in range, and then both paths give the same
// bits: the result does not depend on what the other lanes hold. Tensors without a far form do not
// reach these kernels (hi_launch_common.cuh launches tiling / fast-split for them).
#include <type_traits>

#include "hi_kernels.cuh"
#include "stokesian/physics/far_pair.hpp"

namespace stokesian::cuda {

// The force a tile holds: F_j (exact), mu0 F_j (fast: the three products by mu0 once per source and
// block instead of once per pair; the per-term rounding count is unchanged, one rounding of mu0 F
// for one of mu0 (...), engine/docs/far-kernels.md).
template <bool Fast, class W>
__device__ __forceinline__ packed4<W> staged_force(packed4<W> f, W self_mobility) {
    if constexpr (Fast) return {self_mobility * f.x, self_mobility * f.y, self_mobility * f.z, f.w};
    else return f;
}

// Slots per shared tile array: the tile and the 2G slots a step may read past its end.
__host__ __device__ constexpr unsigned far_tile_slots(unsigned tile, unsigned g) { return tile + 2 * g; }

// What a lane of a far kernel works with: the block's shared tiles (far_tile_slots each), its
// target i, its place in the target's group of G lanes, and the target's position.
template <class W, int G>
struct far_lane {
    packed4<W>* tile_position;
    packed4<W>* tile_force;
    unsigned i, lane;
    bool active;  // i is a target of the launch (the others compute dummy pairs, never added)
    vec3<W> r_i;

    __device__ __forceinline__ far_lane(unsigned char* shared, const packed4<W>* position, unsigned first,
                                        unsigned last)
        : tile_position(reinterpret_cast<packed4<W>*>(shared)),
          tile_force(tile_position + far_tile_slots(blockDim.x, G)),
          i(first + (blockIdx.x * blockDim.x + threadIdx.x) / G),
          lane(threadIdx.x % G),
          active(i < last),
          r_i(active ? unpack(position[i]) : vec3<W>{}) {}

    // The block stages sources [start, start + blockDim) (the fast kernels hold mu0 F), then waits.
    template <bool Fast>
    __device__ __forceinline__ void stage(unsigned start, unsigned n, const packed4<W>* position,
                                          const packed4<W>* force, W self_mobility) const {
        const unsigned j = start + threadIdx.x;
        if (j < n) {
            tile_position[threadIdx.x] = position[j];
            tile_force[threadIdx.x] = staged_force<Fast>(force[j], self_mobility);
        }
        __syncthreads();
    }

    // The step at kk of a tile of `count` sources from `start`: this lane's sources k0 = kk + lane
    // and k1 = kk + G + lane (past count they read stale or unset slots: use0 / use1 false), and
    // their terms. The far form where every lane of the warp may take it (one vote over the warp,
    // full mask: every lane runs every step), else the general form, which gets `general` (mu0 = 1
    // where the tile holds mu0 F). t0 / t1 are written only where use0 / use1 (the far path writes both).
    template <class Tensor, bool Fast, bool Periodic>
    __device__ __forceinline__ void step(unsigned start, unsigned kk, unsigned count,
                                         const interaction_parameters<W>& p, const interaction_parameters<W>& general,
                                         bool& use0, bool& use1, vec3<W>& t0, vec3<W>& t1) const {
        const unsigned k0 = kk + lane, k1 = kk + G + lane;
        use0 = active && k0 < count;
        use1 = active && k1 < count;
        const vec3<W> r0 = unpack(tile_position[k0]), r1 = unpack(tile_position[k1]);
        const vec3<W> f0 = unpack(tile_force[k0]), f1 = unpack(tile_force[k1]);
        const vec3<W> targets[2] = {r_i, r_i}, sources[2] = {r0, r1};
        pair_prelude<W> q[2];
        far_preludes<Tensor, Fast, Periodic>(targets, sources, p, q);
        const pair_prelude<W>&q0 = q[0], &q1 = q[1];
        if (__all_sync(0xffffffffu, (q0.far || !use0) && (q1.far || !use1))) {
            // The fast kernels stage mu0 F (staged_force, above): mu0 = 1, a literal the compiler folds.
            t0 = far_term<Tensor>(q0, f0, p.mobility, Fast ? W(1) : p.mobility.self_mobility);
            t1 = far_term<Tensor>(q1, f1, p.mobility, Fast ? W(1) : p.mobility.self_mobility);
        } else {
            if (use0) t0 = hydrodynamic_contribution<Tensor, Fast>(i == start + k0, r_i, r0, f0, general);
            if (use1) t1 = hydrodynamic_contribution<Tensor, Fast>(i == start + k1, r_i, r1, f1, general);
        }
    }
};

// The general path's parameters: with the fast kernels' staged mu0 F, mu0 = 1.
template <bool Fast, class W>
__device__ __forceinline__ interaction_parameters<W> general_parameters(const interaction_parameters<W>& p) {
    interaction_parameters<W> general = p;
    if (Fast) general.mobility.self_mobility = W(1);
    return general;
}

// Steps whose float terms the ds fast kernel adds in float before one double-word addition
// (hi_far_kernel), 1 where it adds every term at once. A partial sum never spans two tiles, so a
// launch whose tiles (blockDim sources, 2G a step) hold a multiple of these steps sums in groups of
// this many steps from the first, whatever its block (far_split_shape.hpp).
template <bool Fast, class W, class A>
inline constexpr unsigned far_presum_steps = Fast && !std::is_same_v<A, W> ? 4u : 1u;

// hi_split_kernel's summation (G = 1: hi_tiling_kernel's), two sources per lane and step: lane l
// of a group takes k0 = kk + l and then k1 = kk + G + l, so each target still sums its sources in
// the same order. Every lane of the warp runs every step (targets past the range and sources past
// the tile compute a dummy pair from a spare or stale slot, never added), so the vote can take the
// full mask; one vote covers both pairs of a step.
template <class Tensor, class W, class A, bool Fast, bool Periodic, int G>
__global__ void hi_far_kernel(const packed4<W>* __restrict__ position, const packed4<W>* __restrict__ force,
                              vec3<A>* __restrict__ velocity, unsigned first, unsigned last, unsigned n,
                              interaction_parameters<W> p) {
    static_assert(G >= 1 && G <= 32 && (32 % G) == 0, "a group must divide the warp");
    extern __shared__ unsigned char shared_bytes[];
    const far_lane<W, G> me(shared_bytes, position, first, last);
    const interaction_parameters<W> general = general_parameters<Fast>(p);
    vec3<A> acc = zero_vector<A>();
    // ds, fast: up to 2 * presum_steps = 8 float terms are added in float first, then one DWPlusFP
    // (30 flops) adds their sum: ~4 instead of 30 flops per term. Each term gains at most 7 float
    // roundings (gamma_7(u_w) over the 8): the fast per-term count 65u becomes 72u, within
    // port-check's k = 80 (far-kernels.md, "The rounding bound").
    constexpr unsigned presum_steps = far_presum_steps<Fast, W, A>;
    constexpr bool presum = presum_steps > 1;
    vec3<W> part{};
    unsigned pending = 0;
    for (unsigned start = 0; start < n; start += blockDim.x) {
        me.template stage<Fast>(start, n, position, force, p.mobility.self_mobility);
        const unsigned count = min(blockDim.x, n - start);  // the same in every lane: uniform trip count
        for (unsigned kk = 0; kk < count; kk += 2 * G) {
            bool use0, use1;
            vec3<W> t0, t1;
            me.template step<Tensor, Fast, Periodic>(start, kk, count, p, general, use0, use1, t0, t1);
            if constexpr (presum) {
                if (use1) part = part + (t0 + t1);  // use1 implies use0 (k1 > k0)
                else if (use0) part = part + t0;
                if (++pending == presum_steps) {  // uniform: every lane counts the same steps
                    accumulate(acc, part);
                    part = vec3<W>{};
                    pending = 0;
                }
            } else {
                if (use0) accumulate(acc, t0);
                if (use1) accumulate(acc, t1);
            }
        }
        if constexpr (presum) {
            if (pending != 0) accumulate(acc, part);  // a partial sum never spans two tiles
            part = vec3<W>{};
            pending = 0;
        }
        __syncthreads();
    }
    // hi_split_kernel's tree (every lane of the warp takes part; inactive groups carry zeros).
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2) acc = add_partial(acc, shuffle_down(acc, unsigned(offset)));
    if (me.active && me.lane == 0) velocity[me.i] = acc;
}

}  // namespace stokesian::cuda
