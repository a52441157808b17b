#pragma once
// One team of warps computes the velocities of a tile of targets against all n sources, exactly (the
// CPU's sum): the velocity phase of the fused grid kernel (fused_grid_kernel.cuh) and, alone, the
// exact HI kernel adding-warps (hi_adding_warps_kernel.cuh). A block holds fused_grid_adders adding
// warps and fused_grid_producers producing warps; a tile is `tile` <= fused_grid_tile_max consecutive
// targets, and adding warp a takes its targets 10 a ... 10 a + 9 (fused_grid_adder_targets).
//   The sources are cut into chunks of fused_grid_chunk, one source a producing lane. For each target
//   of the tile the producing lanes evaluate their source's term with the far kernels' pair step
//   (far_prelude, far_term where the whole warp may take the far form, else
//   hydrodynamic_contribution: the same bits, physics/far_pair.hpp; several targets a step where that
//   pays, fused_grid_terms) into shared memory, while lane 3 i + c of an adding warp adds component c
//   of its target i's terms of the previous chunk one after the other in source order, continuing one
//   accumulator: v_t = ((0 + t_t0) + t_t1) + ..., the CPU's sum (ordered-split's,
//   hi_ordered_kernel.cuh). The chunk buffers pass between the two sides through named barriers
//   (fused_grid_signal), up to four deep: the serial additions of ten targets' components run side
//   by side in one instruction stream and wait on no evaluation but the first chunk's. A chain of n
//   additions is a round's critical path, whatever the tile, so the adding warps set how many targets
//   a round takes (fewer rounds of chains for a large system) and the tile how many producing lanes
//   feed one chain. How a launch cuts its targets into tiles: fused_grid_shape.hpp.
#include <cstddef>
#include <type_traits>

#include "device_types.cuh"
#include "fused_grid_shape.hpp"
#include "stokesian/numeric/float_float.hpp"
#include "stokesian/physics/far_pair.hpp"
#include "stokesian/physics/interactions.hpp"

namespace stokesian::cuda {

// A chunk holds one source for each lane of the fused_grid_slices warps of a target group; the
// fused_grid_groups groups take the tile's targets in turn, so fused_grid_slices *
// fused_grid_groups producing warps feed the adding warps. A chunk's terms take 3 * tile rows of
// fused_grid_row<W> values of shared memory: 16 bytes longer than the chunk, so rows are 16-byte
// aligned and 16 bytes apart modulo the 32 banks (the adding lanes' 16-byte loads of consecutive
// rows fill a wavefront without conflict), and the producing lanes store consecutive values of a row.
// Groups: as many producing warps as the register file holds at one block a multiprocessor (the
// velocity phase is latency-bound: more warps, more of it hidden): 3 + 28 warps of at most 64
// registers in f32; the f64 kernels need ~120 registers, so 2 + 14 warps.
inline constexpr unsigned fused_grid_slices = 7;
template <class W>
inline constexpr unsigned fused_grid_groups = sizeof(W) == 4 ? 4 : 2;
inline constexpr unsigned fused_grid_chunk = 32 * fused_grid_slices;
template <class W>
inline constexpr unsigned fused_grid_producers = fused_grid_slices* fused_grid_groups<W>;
template <class W>
inline constexpr unsigned fused_grid_warps = fused_grid_adders<W> + fused_grid_producers<W>;
template <class W>
inline constexpr unsigned fused_grid_block = 32 * fused_grid_warps<W>;
template <class W>
inline constexpr unsigned fused_grid_row = fused_grid_chunk + 16 / sizeof(W);
// Shared memory: the tile's targets, then the chunk buffers (as many as the launch gives,
// fused_grid_buffers_fitting), each 3 * tile rows (fused_grid_buffer_bytes).
template <class W>
inline constexpr std::size_t fused_grid_targets_bytes = fused_grid_tile_max<W> * sizeof(packed4<W>);

// The chunk buffers pass between the producing warps and the adding warps through named barriers
// (0 is __syncthreads'): the producers signal `filled + b` when they have written buffer b and wait
// on `emptied + b` before writing it again; the adding warps the other way round. Neither side waits
// for the other's slowest warp more than the buffers require, and producers run as many chunks
// ahead of the additions as there are buffers. At N = 864 (four chunks) four buffers let the
// producers run through without waiting: 3 % (f32) and 2 % (f64) faster than three on an H200
// (engine/docs/gpu-runs/2026-11-29-h200-fused-grid-scheduler-forms.txt).
inline constexpr unsigned fused_grid_filled = 1;
inline constexpr unsigned fused_grid_emptied = fused_grid_filled + fused_grid_buffers_max;
__device__ __forceinline__ void fused_grid_signal(unsigned barrier, unsigned threads) {
    asm volatile("bar.arrive %0, %1;" ::"r"(barrier), "r"(threads) : "memory");
}
__device__ __forceinline__ void fused_grid_wait(unsigned barrier, unsigned threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(barrier), "r"(threads) : "memory");
}
// The buffer that chunk c + 1 uses, after chunk c's `slot` (chunk c in buffer c % buffers).
__device__ __forceinline__ unsigned fused_grid_next_slot(unsigned slot, unsigned buffers) {
    return slot + 1u == buffers ? 0u : slot + 1u;
}

// Whether several targets a step pay (measured on an H200,
// engine/docs/gpu-runs/2026-11-29-h200-fused-grid-two-targets.txt and -two-targets-*bound.csv):
// in open boxes in f32 and f64, 3-15 % faster from N = 4000 to 23 328. Not with float_float
// accumulators (ds): their adding lanes' chains set the pace, and two a step gained at most 1 %.
// Not in a periodic box: a lattice's pairs tied at +-L/2 send whole warps to the per-target path,
// and two a step were 2-10 % slower on the paper's periodic fcc lattice.
template <class A, bool Periodic>
inline constexpr bool fused_grid_pairs_pay = !Periodic && !std::is_same_v<A, float_float>;

// The most targets of a tile that one producing warp takes.
template <class W>
inline constexpr unsigned fused_grid_most = (fused_grid_tile_max<W> + fused_grid_groups<W> - 1) / fused_grid_groups<W>;

// A producing lane's terms of its source j for the targets first + i, i = group, group +
// fused_grid_groups, ... < tile, into rows 3 i, 3 i + 1, 3 i + 2 at column k. The loop over the
// targets is unrolled to its most (fused_grid_most), so that the rows' addresses are constants from
// one column pointer (5-9 % faster at N = 10 976, engine/docs/gpu-runs/2026-11-29-h200-fused-grid-forms-3.txt).
// TargetsAStep = 1: one target after the other. TargetsAStep = K > 1: K targets a
// step, decided before their square roots by one vote on r^2 (far_form_certainly_takes; a warp
// with a pair near 2a, tied or the self pair takes the targets one by one as for 1): the K pairs'
// square roots, reciprocals and far terms are one basic block of K independent chains. The f64
// kernel is latency-bound and gains most (engine/docs/performance.md); with the small tiles of one
// round a producing warp's odd target leaves half of its last step idle, so the launch takes
// several a step only where a warp's group holds at least two steps of them (fused_grid_shape_for),
// two or three (f64: fused_grid_most_a_step) as its tile's groups divide best
// (fused_grid_targets_a_step), in open boxes and not in ds (fused_grid_pairs_pay).
// UnitMobility: mu0 = 1 known at compile time (1 x = x, the same bits), three multiplications a term
// fewer. adding-warps takes it where mu0 = 1, the paper's units: 4-6 % faster at N = 10 976 on an H200;
// the fused grid kernel keeps its one form, which the second made 5-8 % slower in f32
// (engine/docs/gpu-runs/2026-11-30-h200-unit-mobility.txt).
template <class Tensor, bool Periodic, unsigned TargetsAStep, bool UnitMobility, class W>
__device__ __forceinline__ void fused_grid_terms(W* terms, const packed4<W>* targets, unsigned first, unsigned tile,
                                                 unsigned group, vec3<W> r_j, vec3<W> f_j, unsigned j, bool use,
                                                 unsigned k, const interaction_parameters<W>& p) {
    constexpr unsigned row = fused_grid_row<W>, groups = fused_grid_groups<W>, K = TargetsAStep;
    W* const column = terms + 3 * group * row + k;
    const W mu0 = UnitMobility ? W(1) : p.mobility.self_mobility;
#pragma unroll
    for (unsigned u = 0; u < fused_grid_most<W>; u += K) {
        const unsigned i0 = group + u * groups;
        if (i0 >= tile) break;
        if constexpr (K == 1) {
            // The far kernels' pair step: the far form where the whole warp may take it (one vote), else
            // hydrodynamic_contribution (the same bits, physics/far_pair.hpp). Lanes whose source lies
            // beyond N only vote. (Written out here and below: as one function for both, the compiler
            // gave the f64 kernel of one target a step 128 registers and 8-24 bytes of stack for 124 and
            // none.)
            const vec3<W> r_t = unpack(targets[i0]);
            pair_prelude<W> q;
            bool far = true;
            if (use) {
                q = far_prelude<Tensor, false, Periodic>(r_t, r_j, p);
                far = q.far;
            }
            const bool all_far = __all_sync(0xffffffffu, far);
            if (!use) continue;
            const vec3<W> term = all_far ? far_term<Tensor>(q, f_j, p.mobility, mu0)
                                         : hydrodynamic_contribution<Tensor, false>(j == first + i0, r_t, r_j, f_j, p);
            W* const component = column + 3 * u * groups * row;
            component[0] = term.x;
            component[row] = term.y;
            component[2 * row] = term.z;
        } else {
            // Target m of the step is i0 + m groups; past the tile it repeats i0 (evaluated, not stored).
            vec3<W> r_t[K];
            pair_prelude<W> q[K];
            W r2[K];
            bool certain = true;
#pragma unroll
            for (unsigned m = 0; m < K; ++m) {
                const unsigned i = i0 + m * groups;
                r_t[m] = unpack(targets[i < tile ? i : i0]);
                q[m].d = box_separation<Periodic>(r_t[m], r_j, p.box);
                r2[m] = dot(q[m].d, q[m].d);
                certain &= far_form_certainly_takes<Tensor, Periodic>(q[m].d, r2[m], p);
            }
            if (__all_sync(0xffffffffu, certain || !use)) {
                W r[K], inv_r[K];
                math::sqrt_and_reciprocal(r2, r, inv_r);
                if (!use) continue;
#pragma unroll
                for (unsigned m = 0; m < K; ++m) {
                    if (i0 + m * groups >= tile) break;
                    q[m].r = r[m];
                    q[m].inv_r = inv_r[m];
                    const vec3<W> term = far_term<Tensor>(q[m], f_j, p.mobility, mu0);
                    W* const component = column + 3 * (u + m) * groups * row;
                    component[0] = term.x;
                    component[row] = term.y;
                    component[2 * row] = term.z;
                }
            } else {
#pragma unroll
                for (unsigned m = 0; m < K; ++m) {
                    const unsigned i = i0 + m * groups;
                    if (i >= tile) break;
                    // The prelude again (finished from q[m] and r2[m] instead, the f32 kernel spills 56-80
                    // bytes for 24-40).
                    pair_prelude<W> one;
                    bool far = true;
                    if (use) {
                        one = far_prelude<Tensor, false, Periodic>(r_t[m], r_j, p);
                        far = one.far;
                    }
                    const bool all_far = __all_sync(0xffffffffu, far);
                    if (!use) continue;
                    const vec3<W> term =
                        all_far ? far_term<Tensor>(one, f_j, p.mobility, mu0)
                                : hydrodynamic_contribution<Tensor, false>(j == first + i, r_t[m], r_j, f_j, p);
                    W* const component = column + 3 * (u + m) * groups * row;
                    component[0] = term.x;
                    component[row] = term.y;
                    component[2 * row] = term.z;
                }
            }
        }
    }
}

// The velocities of the tile's targets first ... first + tile - 1 (see the file's comment), through
// `buffers` chunk buffers of `buffer` values; lane 3 i + c of adding warp a (warp a) writes
// component c of target 10 a + i. Every thread of the block calls it (block barriers).
template <class Tensor, bool Periodic, unsigned TargetsAStep, bool UnitMobility, class A, class W>
__device__ __forceinline__ void fused_grid_velocities(unsigned char* shared, const packed4<W>* r_w,
                                                      const packed4<W>* f_w, vec3<A>* velocity, unsigned first,
                                                      unsigned tile, unsigned n, unsigned buffers, unsigned buffer,
                                                      const interaction_parameters<W>& p) {
    constexpr unsigned chunk = fused_grid_chunk, row = fused_grid_row<W>;
    packed4<W>* const targets = reinterpret_cast<packed4<W>*>(shared);
    W* const terms = reinterpret_cast<W*>(shared + fused_grid_targets_bytes<W>);
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    const unsigned chunks = (n + chunk - 1) / chunk;
    if (warp == 0 && lane < tile) targets[lane] = r_w[first + lane];
    // Each side passes the barrier that publishes the targets in its own branch: one barrier after
    // the branches, with the first chunk's loads ahead of it, measured 2 % slower at N = 864
    // (engine/docs/gpu-runs/2026-11-28-h200-fused-grid-tile-forms.txt, form G).
    if (warp >= fused_grid_adders<W>) {
        const fused_grid_role role = fused_grid_role_of(warp, fused_grid_adders<W>, fused_grid_groups<W>);
        const unsigned group = role.group;
        const unsigned k = role.slice * 32u + lane;  // the lane's source within each chunk
        vec3<W> r_next{}, f_next{};
        if (k < n) {
            r_next = unpack(r_w[k]);
            f_next = unpack(f_w[k]);
        }
        __syncthreads();  // the targets written
        for (unsigned c = 0, slot = 0; c < chunks; ++c, slot = fused_grid_next_slot(slot, buffers)) {
            const unsigned j = c * chunk + k;
            const vec3<W> r_j = r_next, f_j = f_next;
            if (j + chunk < n) {  // the next chunk's source, loaded while this one's terms are evaluated
                r_next = unpack(r_w[j + chunk]);
                f_next = unpack(f_w[j + chunk]);
            }
            if (c >= buffers) fused_grid_wait(fused_grid_emptied + slot, fused_grid_block<W>);
            fused_grid_terms<Tensor, Periodic, TargetsAStep, UnitMobility>(terms + slot * buffer, targets, first, tile,
                                                                           group, r_j, f_j, j, j < n, k, p);
            fused_grid_signal(fused_grid_filled + slot, fused_grid_block<W>);
        }
        return;
    }
    __syncthreads();  // the targets written
    // The row this lane adds: component c of the warp's target i at lane 3 i + c.
    const unsigned adding = 3u * fused_grid_adder_targets * warp + lane;
    const bool adds = lane < 3u * fused_grid_adder_targets && adding < 3u * tile;
    A acc{};
    for (unsigned c = 0, slot = 0; c < chunks; ++c, slot = fused_grid_next_slot(slot, buffers)) {
        fused_grid_wait(fused_grid_filled + slot, fused_grid_block<W>);
        if (adds) {
            const W* const component = terms + slot * buffer + adding * row;
            const unsigned count = min(chunk, n - c * chunk);
            // The additions stay one after the other; the 16-byte loads run ahead of them. A full
            // chunk is unrolled whole, so that the compiler issues each load a few batches before
            // its additions (in f32 3 % faster at N = 864, 6 % at 2048: form I of
            // engine/docs/gpu-runs/2026-11-28-h200-fused-grid-tile-forms-2.txt); the last, partial
            // chunk goes by batches of 16.
            using load4 = std::conditional_t<sizeof(W) == 4, float4, double2>;
            constexpr unsigned per_load = 16 / sizeof(W), batch = 16;
            unsigned m = 0;
            if (count == chunk) {
#pragma unroll
                for (; m < chunk; m += per_load) {
                    W loaded[per_load];
                    *reinterpret_cast<load4*>(loaded) = *reinterpret_cast<const load4*>(component + m);
#pragma unroll
                    for (unsigned u = 0; u < per_load; ++u) acc = acc + loaded[u];
                }
            }
            for (; m + batch <= count; m += batch) {
                W loaded[batch];
#pragma unroll
                for (unsigned u = 0; u < batch; u += per_load)
                    *reinterpret_cast<load4*>(loaded + u) = *reinterpret_cast<const load4*>(component + m + u);
#pragma unroll
                for (unsigned u = 0; u < batch; ++u) acc = acc + loaded[u];
            }
            for (; m < count; ++m) acc = acc + component[m];
        }
        if (c + buffers < chunks) fused_grid_signal(fused_grid_emptied + slot, fused_grid_block<W>);
    }
    if (adds) {
        vec3<A>& v = velocity[first + adding / 3u];
        const unsigned component = lane % 3u;
        (component == 0u ? v.x : component == 1u ? v.y : v.z) = acc;
    }
}

}  // namespace stokesian::cuda
