#pragma once
// The fused kernel for ONE system spread over the whole device (issue #32): many whole steps in
// one cooperative launch, the phases of a step separated by grid-wide barriers instead of kernel
// boundaries. At the paper's sizes (N ~ 10^2 ... 10^4) a step-by-step step is two or three
// launches of a few microseconds each, every one latency-bound; here a step costs its work and one
// grid barrier (two with short-range forces).
//
// Each step is the paper's (Section 3.1) with the functions of the other engines, in their order:
//   drift:      drift_particle (physics/drift.hpp), by the lane that leads target t's group;
//   forces:     F_i = F_ext,i, then short_range_force for j ascending within the cutoff, as
//               fused_block_kernel does (all pairs, G lanes testing at a time; only with
//               short-range forces);
//   velocities: ordered-split's rows (hi_ordered_kernel.cuh, ordered_split_targets): the terms of
//               far_lane::step, added in the CPU's order by the adding lanes, so the velocities are
//               the CPU's and ordered-split's to the bit.
// Barriers and buffers, per step (b = the step's parity):
//     drift: read v[t], write r[t], image[t], r_w[b][t]  | grid | forces: read r_w[b], v, write
//     F, F_w | grid | velocities: read r_w[b], F_w, write v
// The second barrier only with short-range forces. No barrier is needed after the velocities:
// target t's velocity is written by the adding lanes of the warp whose group leads t (same place
// of the same block), and that warp drifts t next (after __syncwarp); the next drift writes
// r_w[b'], last read before this step's first barrier; F, F_w and v are next written after the
// next step's first barrier, which no block passes before every block has read them here.
// Every thread takes part in every barrier; the loops over places (blocks of targets) are uniform
// over a block, so ordered_split_targets' block barriers are met by all its threads.
//
// No __restrict__ and no read-only cache: the buffers are written during the launch by other blocks
// (the grid barrier orders plain loads and stores, not the non-coherent read-only path).
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>

#include "fused_kernels.cuh"
#include "hi_launch.cuh"
#include "hi_ordered_kernel.cuh"

namespace stokesian::cuda {

// Threads per block of the grid kernel (the step kernels' block size, cuda_engine.cuh).
inline constexpr unsigned fused_grid_block = 128;

// Lanes per target: ordered-split's choice for N targets on this device (ordered_split_schedule.hpp),
// at least 4 (the grid kernel always adds in order; ordered-split hands large N to far-tiling).
inline unsigned fused_grid_group_size(unsigned n, bool dear_additions) {
    return std::max(4u, ordered_split::group_size(n, device_sm_count(), dear_additions));
}

// The grid kernel's working copies: positions in the working precision for both parities (2n) and
// the forces (n), packed as the HI kernels read them.
template <class W>
struct fused_grid_buffers {
    packed4<W>* position_w;
    packed4<W>* force_w;
};

template <class P, class A, class W, class Tensor, bool Periodic, int G>
__global__ void fused_grid_kernel(fused_arguments<P, A, W> a, fused_grid_buffers<W> g, std::uint64_t steps,
                                  bool initialise) {
    extern __shared__ unsigned char fused_grid_shared[];
    const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const unsigned n = a.n;
    const unsigned targets_per_place = blockDim.x / G;
    const unsigned places = (n + targets_per_place - 1) / targets_per_place;
    const unsigned threads = gridDim.x * blockDim.x;
    const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    // The lane that leads its group drifts and samples the group's target (ordered_split_targets
    // gives group threadIdx.x / G of place `place` the target place * targets_per_place + that).
    const bool leads = threadIdx.x % G == 0;
    const auto target_at = [&](unsigned place) { return place * targets_per_place + threadIdx.x / G; };
    const P dt = a.dt[0];
    const W cutoff2 = a.params.short_range_cutoff * a.params.short_range_cutoff;

    for (unsigned i = me; i < n; i += threads) {
        g.position_w[i] = pack(value_cast<W>(a.position[i]));
        g.force_w[i] = pack(a.short_range ? a.force[i] : a.external_force[i]);
    }
    grid.sync();

    // Target t's group tests G sources at a time; the few within the cutoff are added by the leader
    // in ascending j (lane order within a round, rounds ascending), F_t = F_ext,t first: the block
    // kernel's sum. The rounds are uniform over the warp (every lane shuffles), groups without a
    // term left read their own lane.
    const unsigned group_lane = threadIdx.x % G;
    const unsigned group_bits = (G == 32 ? 0xffffffffu : ((1u << G) - 1u)) << (threadIdx.x % 32 - group_lane);
    const auto forces = [&](const packed4<W>* r_w) {
        if (!a.short_range) return;  // F_w holds F_ext (uniform over the launch)
        for (unsigned place = blockIdx.x; place < places; place += gridDim.x) {
            const unsigned t = target_at(place);
            const bool active = t < n;
            const vec3<W> r_t = active ? unpack(r_w[t]) : vec3<W>{};
            const vec3<W> v_t = active ? value_cast<W>(a.velocity[t]) : vec3<W>{};  // previous velocities
            vec3<W> f_t = active ? a.external_force[t] : vec3<W>{};
            for (unsigned start = 0; start < n; start += G) {
                const unsigned j = start + group_lane;
                vec3<W> term{};
                bool within = false;
                if (active && j < n && j != t) {
                    const vec3<W> r_j = unpack(r_w[j]);
                    const vec3<W> d = minimum_image(r_t - r_j, a.params.box);
                    within = dot(d, d) < cutoff2;
                    if (within) term = short_range_force(r_t, r_j, v_t, value_cast<W>(a.velocity[j]), a.params);
                }
                unsigned left = __ballot_sync(0xffffffffu, within) & group_bits;
                while (__any_sync(0xffffffffu, left != 0)) {
                    const unsigned source = left != 0 ? unsigned(__ffs(left)) - 1u : threadIdx.x % 32;
                    const vec3<W> added = shuffle(term, source);
                    if (left != 0) {
                        f_t += added;
                        left &= left - 1u;
                    }
                }
            }
            if (active && leads) {
                a.force[t] = f_t;
                g.force_w[t] = pack(f_t);
            }
        }
        grid.sync();
    };
    const auto velocities = [&](const packed4<W>* r_w) {
        for (unsigned place = blockIdx.x; place < places; place += gridDim.x)
            ordered_split_targets<Tensor, W, A, Periodic, G>(fused_grid_shared, r_w, g.force_w, a.velocity, 0, n, n,
                                                             a.params, place);
        __syncwarp();  // the adding lanes' velocities, before their leaders read them
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
        for (unsigned place = blockIdx.x; place < places; place += gridDim.x) {
            const unsigned t = target_at(place);
            if (!leads || t >= n) continue;
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
            for (unsigned place = blockIdx.x; place < places; place += gridDim.x) {
                const unsigned t = target_at(place);
                if (leads && t < n)
                    record_sample(a.samples, sample * n + t, a.position[t], a.image[t], a.velocity[t], a.force[t]);
            }
            ++sample;
        }
    }
}

}  // namespace stokesian::cuda
