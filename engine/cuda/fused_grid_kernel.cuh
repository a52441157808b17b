#pragma once
// The fused kernel for ONE system spread over the whole device (issue #32): many whole steps in
// one cooperative launch, the phases of a step separated by grid-wide barriers instead of kernel
// boundaries. At the paper's sizes (N ~ 10^2 ... 10^4) a step-by-step step is two or three
// launches of a few microseconds each, every one latency-bound; here a step costs its work and one
// grid barrier (two with short-range forces).
//
// A pair of warps per target t (fused_grid_pairs pairs a block; pairs take targets in turn where
// the device holds fewer): a producing warp and an adding warp. Each step is the paper's (Section 3.1) with the functions of the other
// engines, in their order:
//   drift:      drift_particle (physics/drift.hpp), by lane 0 of the adding warp;
//   forces:     F_t = F_ext,t, then short_range_force for j ascending within the cutoff, as
//               fused_block_kernel does (all pairs, 32 tested at a time by the adding warp; only
//               with short-range forces);
//   velocities: the producing warp evaluates the terms of a chunk of fused_grid_chunk sources with
//               the far kernels' pair step (far_prelude, far_term where the whole warp may take the
//               far form, else hydrodynamic_contribution: the same bits, physics/far_pair.hpp) into
//               shared memory, while lanes 0, 1, 2 of the adding warp add component 0, 1, 2 of the
//               previous chunk's terms one after the other in source order, continuing one
//               accumulator: v_t = ((0 + t_t0) + t_t1) + ..., the CPU's sum (ordered-split's,
//               hi_ordered_kernel.cuh). Two chunk buffers and one pair barrier per chunk: the
//               serial additions, the step's critical path, wait on no evaluation but the first.
// Barriers and buffers, per step (b = the step's parity):
//     drift: read v[t], write r[t], image[t], r_w[b][t]  | grid | forces: read r_w[b], v, write
//     F, F_w | grid | velocities: read r_w[b], F_w, write v
// The second barrier only with short-range forces. No barrier is needed after the velocities:
// t's velocity is written by lanes 0-2 of t's adding warp, whose lane 0 drifts t next (after
// __syncwarp); the next drift writes r_w[b'], last read before this step's first barrier; F, F_w
// and v are next written after the next step's first barrier, which no block passes before every
// block has read them here. Every thread takes part in every grid barrier.
//
// No __restrict__ and no read-only cache: the buffers are written during the launch by other blocks
// (the grid barrier orders plain loads and stores, not the non-coherent read-only path).
#include <cooperative_groups.h>

#include <cstdint>
#include <type_traits>

#include "fused_kernels.cuh"
#include "stokesian/physics/far_pair.hpp"

namespace stokesian::cuda {

// Sources per chunk of the velocity phase: as many as the producing warp evaluates in one round
// (fused_grid_sources per lane), whose evaluation (one trip to memory, the square roots and
// divisions) takes about as long as the adding lanes' fused_grid_chunk serial additions. A chunk's
// terms take 3 rows of fused_grid_row words of shared memory, two chunks a pair of warps. The
// rows are 16-byte aligned (the adding lanes load 16 bytes at a time) and 4 words apart modulo the
// 32 banks, so the three adding lanes' loads never share a bank.
inline constexpr unsigned fused_grid_sources = 4;
inline constexpr unsigned fused_grid_chunk = 32 * fused_grid_sources;
inline constexpr unsigned fused_grid_row = fused_grid_chunk + 4;
// A block holds fused_grid_pairs targets, each a pair of warps (adding, producing) synchronised by
// a named barrier of its own: few blocks, because the grid barrier's cost grows with their number
// (measured on an H200: ~8 ns per block and barrier, engine/docs/performance.md).
inline constexpr unsigned fused_grid_pairs = 8;
inline constexpr unsigned fused_grid_pair_threads = 64;  // the adding warp, then the producing warp
inline constexpr unsigned fused_grid_block = fused_grid_pair_threads * fused_grid_pairs;
template <class W>
constexpr std::size_t fused_grid_shared_bytes() {
    return std::size_t(2) * 3 * fused_grid_row * sizeof(W) * fused_grid_pairs;
}

// The barrier of the pair of warps `pair` (named barrier 1 + pair; 0 is __syncthreads').
__device__ __forceinline__ void fused_grid_pair_barrier(unsigned pair) {
    static_assert(fused_grid_pair_threads == 64, "the barrier's thread count below");
    asm volatile("bar.sync %0, 64;" ::"r"(1u + pair) : "memory");
}

// The grid kernel's working copies: positions in the working precision for both parities (2n) and
// the forces (n), packed as the HI kernels read them.
template <class W>
struct fused_grid_buffers {
    packed4<W>* position_w;
    packed4<W>* force_w;
};

// The velocity of target t by its pair of warps (see the file's comment); lanes 0-2 of the adding
// warp write component 0-2. Both warps of the pair call it (pair barriers); `shared`: the pair's;
// `adding`: the caller is in the adding warp.
template <class Tensor, bool Periodic, class A, class W>
__device__ __forceinline__ void fused_grid_velocity(W* shared, unsigned pair, bool adding, const packed4<W>* r_w,
                                                    const packed4<W>* f_w, vec3<A>* velocity, unsigned t, unsigned n,
                                                    const interaction_parameters<W>& p) {
    constexpr unsigned U = fused_grid_sources, chunk = fused_grid_chunk, row = fused_grid_row;
    const unsigned lane = threadIdx.x % 32u;
    const unsigned chunks = (n + chunk - 1) / chunk;
    const vec3<W> r_t = unpack(r_w[t]);
    A acc{};
    for (unsigned c = 0; c <= chunks; ++c) {
        if (!adding && c < chunks) {
            W* const terms = shared + (c % 2) * 3 * row;
            const unsigned start = c * chunk;
            vec3<W> r_j[U], f_j[U];
            pair_prelude<W> q[U];
            bool far = true;
#pragma unroll
            for (unsigned u = 0; u < U; ++u) {
                const unsigned j = start + 32u * u + lane;
                const bool use = j < n;
                r_j[u] = use ? unpack(r_w[j]) : r_t;
                f_j[u] = use ? unpack(f_w[j]) : vec3<W>{};
                q[u] = far_prelude<Tensor, false, Periodic>(r_t, r_j[u], p);
                far = far && (q[u].far || !use);
            }
            const bool all_far = __all_sync(0xffffffffu, far);
#pragma unroll
            for (unsigned u = 0; u < U; ++u) {
                const unsigned k = 32u * u + lane, j = start + k;
                if (j >= n) continue;
                const vec3<W> term = all_far ? far_term<Tensor>(q[u], f_j[u], p.mobility, p.mobility.self_mobility)
                                             : hydrodynamic_contribution<Tensor, false>(j == t, r_t, r_j[u], f_j[u], p);
                terms[k] = term.x;
                terms[row + k] = term.y;
                terms[2 * row + k] = term.z;
            }
        }
        if (adding && lane < 3u && c > 0) {
            // The loads of a batch go out together; the additions stay one after the other.
            const W* const component = shared + ((c - 1) % 2) * 3 * row + lane * row;
            const unsigned count = min(chunk, n - (c - 1) * chunk);
            // 16-byte loads of a batch go out together; the additions stay one after the other.
            using load4 = std::conditional_t<sizeof(W) == 4, float4, double2>;
            constexpr unsigned per_load = 16 / sizeof(W), batch = 16;
            unsigned k = 0;
            for (; k + batch <= count; k += batch) {
                W loaded[batch];
#pragma unroll
                for (unsigned u = 0; u < batch; u += per_load)
                    *reinterpret_cast<load4*>(loaded + u) = *reinterpret_cast<const load4*>(component + k + u);
#pragma unroll
                for (unsigned u = 0; u < batch; ++u) acc = acc + loaded[u];
            }
            for (; k < count; ++k) acc = acc + component[k];
        }
        fused_grid_pair_barrier(pair);  // chunk c written, chunk c - 1 read: the buffers swap
    }
    if (adding && lane < 3u) {
        vec3<A>& v = velocity[t];
        (lane == 0u ? v.x : lane == 1u ? v.y : v.z) = acc;
    }
}

template <class P, class A, class W, class Tensor, bool Periodic>
__global__ void __launch_bounds__(fused_grid_block)
    fused_grid_kernel(fused_arguments<P, A, W> a, fused_grid_buffers<W> g, std::uint64_t steps, bool initialise) {
    extern __shared__ unsigned char fused_grid_shared[];
    const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const unsigned n = a.n;
    const unsigned threads = gridDim.x * blockDim.x;
    const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32u;
    const unsigned pair = threadIdx.x / fused_grid_pair_threads;
    const bool adding_warp = threadIdx.x % fused_grid_pair_threads < 32u;  // also computes the forces
    const bool leads = threadIdx.x % fused_grid_pair_threads == 0u;        // drifts and samples the pair's target
    W* const terms = reinterpret_cast<W*>(fused_grid_shared) + std::size_t(2) * 3 * fused_grid_row * pair;
    // The pair's targets: block b's pairs take b * pairs + pair, then a grid's worth further on.
    const unsigned first_target = blockIdx.x * fused_grid_pairs + pair;
    const unsigned target_stride = gridDim.x * fused_grid_pairs;
    const P dt = a.dt[0];
    const W cutoff2 = a.params.short_range_cutoff * a.params.short_range_cutoff;

    for (unsigned i = me; i < n; i += threads) {
        g.position_w[i] = pack(value_cast<W>(a.position[i]));
        g.force_w[i] = pack(a.short_range ? a.force[i] : a.external_force[i]);
    }
    grid.sync();

    // The adding warp tests 32 sources at a time; the few within the cutoff are added by every lane in
    // ascending j (lane order within a round, rounds ascending), F_t = F_ext,t first: the block
    // kernel's sum.
    const auto forces = [&](const packed4<W>* r_w) {
        if (!a.short_range) return;  // F_w holds F_ext (uniform over the launch)
        if (adding_warp)
            for (unsigned t = first_target; t < n; t += target_stride) {
                const vec3<W> r_t = unpack(r_w[t]);
                const vec3<W> v_t = value_cast<W>(a.velocity[t]);  // the previous velocities
                vec3<W> f_t = a.external_force[t];
                for (unsigned start = 0; start < n; start += 32u) {
                    const unsigned j = start + lane;
                    vec3<W> term{};
                    bool within = false;
                    if (j < n && j != t) {
                        const vec3<W> r_j = unpack(r_w[j]);
                        const vec3<W> d = minimum_image(r_t - r_j, a.params.box);
                        within = dot(d, d) < cutoff2;
                        if (within) term = short_range_force(r_t, r_j, v_t, value_cast<W>(a.velocity[j]), a.params);
                    }
                    for (unsigned left = __ballot_sync(0xffffffffu, within); left != 0; left &= left - 1u)
                        f_t += shuffle(term, unsigned(__ffs(left)) - 1u);
                }
                if (leads) {
                    a.force[t] = f_t;
                    g.force_w[t] = pack(f_t);
                }
            }
        grid.sync();
    };
    const auto velocities = [&](const packed4<W>* r_w) {
        for (unsigned t = first_target; t < n; t += target_stride)
            fused_grid_velocity<Tensor, Periodic>(terms, pair, adding_warp, r_w, g.force_w, a.velocity, t, n, a.params);
        __syncwarp();  // lanes 0-2's velocities, before lane 0 reads them
    };
    if (initialise) {
        forces(g.position_w);
        velocities(g.position_w);
    }
    unsigned b = 0;
    std::uint64_t since_sample = a.samples.phase, sample = 0;
    for (std::uint64_t s = 0; s < steps; ++s) {
        b ^= 1u;
        packed4<W>* const r_w = g.position_w + std::size_t(b) * n;
        for (unsigned t = first_target; leads && t < n; t += target_stride) {
            vec3<P> r = a.position[t];
            vec3<int> m = a.image[t];
            drift_particle(r, m, a.velocity[t], dt, a.box);
            a.position[t] = r;
            a.image[t] = m;
            r_w[t] = pack(value_cast<W>(r));
        }
        grid.sync();
        forces(r_w);
        velocities(r_w);
        if (a.samples.interval != 0 && ++since_sample == a.samples.interval) {
            since_sample = 0;
            for (unsigned t = first_target; leads && t < n; t += target_stride)
                record_sample(a.samples, sample * n + t, a.position[t], a.image[t], a.velocity[t], a.force[t]);
            ++sample;
        }
    }
}

}  // namespace stokesian::cuda
