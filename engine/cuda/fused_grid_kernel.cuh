#pragma once
// The fused kernel for ONE system spread over the whole device (issue #32): many whole steps in
// one cooperative launch, the phases of a step separated by grid-wide barriers instead of kernel
// boundaries. At the paper's sizes (N ~ 10^2 ... 10^4) a step-by-step step is two or three
// launches of a few microseconds each, every one latency-bound; here a step costs its work and one
// grid barrier (two with short-range forces).
//
// A block is a team: fused_grid_adders adding warps and fused_grid_producers producing warps. The
// targets are cut into tiles of `tile` <= fused_grid_tile_max consecutive particles; block b takes
// tiles b, b + the grid's blocks, ... Adding warp a takes the tile's targets 10 a ... 10 a + 9
// (fused_grid_adder_targets), its target i for short. Each step is the paper's (Section 3.1) with
// the functions of the other engines, in their order:
//   drift:      drift_particle (physics/drift.hpp), by lane i of an adding warp for its target i;
//   forces:     F_t = F_ext,t, then short_range_force for j ascending within the cutoff, as
//               fused_block_kernel does (all pairs, 32 tested at a time by one warp a target; only
//               with short-range forces);
//   velocities: the team's velocity phase (fused_grid_velocities.cuh), a tile at a time: producing
//               warps evaluate the pair terms into chunk buffers, the adding warps add them one after
//               the other in source order, the CPU's sum.
// Barriers and buffers, per step (b = the step's parity):
//     drift: read v[t], write r[t], image[t], r_w[b][t]  | grid | forces: read r_w[b], v, write
//     F, F_w | grid | velocities: read r_w[b], F_w, write v
// The second barrier only with short-range forces. No barrier is needed after the velocities:
// t's velocity is written by lanes 3 i ... 3 i + 2 of an adding warp, whose lane i drifts t next
// (after __syncwarp); the next drift writes r_w[b'], last read before this step's first barrier;
// F, F_w and v are next written after the next step's first barrier, which no block passes before
// every block has read them here. Every thread takes part in every grid barrier. On several devices
// (fused_grid_devices.cuh) each device takes a slice of the targets, every barrier spans the devices
// and a target's state is stored into every device: the same argument holds across them.
//
// No __restrict__ and no read-only cache: the buffers are written during the launch by other blocks
// (the grid barrier orders plain loads and stores, not the non-coherent read-only path).
#include <cooperative_groups.h>

#include <cstdint>

#include "fused_grid_devices.cuh"
#include "fused_grid_shape.hpp"
#include "fused_grid_velocities.cuh"
#include "fused_kernels.cuh"
#include "neighbour_rows.cuh"

namespace stokesian::cuda {

// The grid kernel's working copies: positions in the working precision for both parities (2n) and
// the forces (n), packed as the HI kernels read them.
template <class W>
struct fused_grid_buffers {
    packed4<W>* position_w;
    packed4<W>* force_w;
};

// The short-range force on target t by one warp: every source tested, 32 at a time; the few within
// the cutoff are added by every lane in ascending j, F_t = F_ext,t first (add_over_every_particle):
// the block kernel's sum. Lane 0 writes.
template <bool OnDevices, class P, class A, class W>
__device__ __forceinline__ void fused_grid_force(const fused_arguments<P, A, W>& a, const fused_grid_slice<P, A, W>& s,
                                                 packed4<W>* force_w, const packed4<W>* r_w, unsigned t, W cutoff2) {
    const vec3<W> r_t = unpack(r_w[t]);
    const vec3<W> v_t = value_cast<W>(a.velocity[t]);  // the previous velocities
    vec3<W> f_t = a.external_force[t];
    add_over_every_particle(f_t, t, r_t, r_w, a.n, a.params.box, cutoff2, [&](unsigned j, const vec3<W>& r_j) {
        return short_range_force(r_t, r_j, v_t, value_cast<W>(a.velocity[j]), a.params);
    });
    if (threadIdx.x % 32u == 0u) {
        a.force[t] = f_t;
        force_w[t] = pack(f_t);
        if constexpr (OnDevices) share_force(s, t, f_t);
    }
}

// OnDevices: one of several devices (fused_grid_devices.cuh), the targets of slice s; otherwise the
// only one, every target (s unused: the kernel is the one-device kernel instruction for instruction,
// its parameters at the same offsets).
template <class P, class A, class W, class Tensor, bool Periodic, unsigned TargetsAStep, bool OnDevices>
__global__ void __launch_bounds__(fused_grid_block<W>)
    fused_grid_kernel(fused_arguments<P, A, W> a, fused_grid_buffers<W> g, unsigned tile, unsigned buffers,
                      unsigned buffer, std::uint64_t steps, bool initialise, fused_grid_slice<P, A, W> s) {
    extern __shared__ __align__(16) unsigned char fused_grid_shared[];
    const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const unsigned n = a.n;
    const unsigned begin = OnDevices ? s.begin : 0u, end = OnDevices ? s.end : n;  // the targets
    const unsigned threads = gridDim.x * blockDim.x;
    const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    // Block b's tiles start at begin + b * tile, a grid's worth of tiles apart; lane i of adding warp
    // a owns target fused_grid_adder_targets * a + i of each (drift, samples, stores into the peers):
    // the warp that adds its velocity.
    const unsigned first_tile = begin + blockIdx.x * tile, tile_stride = gridDim.x * tile;
    const unsigned owned = fused_grid_adder_targets * warp + lane;
    const bool owns = warp < fused_grid_adders<W> && lane < fused_grid_adder_targets && owned < tile;
    const P dt = a.dt[0];
    const W cutoff2 = a.params.short_range_cutoff * a.params.short_range_cutoff;
    std::uint64_t passed = 0;  // OnDevices: thread 0 of block 0's count of barriers across the devices
    if constexpr (OnDevices)
        if (blockIdx.x == 0 && threadIdx.x == 0) passed = s.barriers[0];
    // False: the launch is abandoned (a peer late), leave it.
    const auto barrier = [&] {
        if constexpr (OnDevices) {
            return fused_devices_meet(grid, s, passed);
        } else {
            grid.sync();
            return true;
        }
    };

    for (unsigned i = me; i < n; i += threads) {
        g.position_w[i] = pack(value_cast<W>(a.position[i]));
        g.force_w[i] = pack(a.short_range ? a.force[i] : a.external_force[i]);
    }
    if (!barrier()) return;

    const auto forces = [&](const packed4<W>* r_w) {
        if (!a.short_range) return true;  // F_w holds F_ext (uniform over the launch)
        for (unsigned first = first_tile; first < end; first += tile_stride)
            for (unsigned i = warp; i < tile && first + i < end; i += fused_grid_warps<W>)
                fused_grid_force<OnDevices>(a, s, g.force_w, r_w, first + i, cutoff2);
        return barrier();
    };
    const auto velocities = [&](const packed4<W>* r_w) {
        for (unsigned first = first_tile; first < end; first += tile_stride)
            fused_grid_velocities<Tensor, Periodic, TargetsAStep, false>(fused_grid_shared, r_w, g.force_w, a.velocity,
                                                                         first, min(tile, end - first), n, buffers,
                                                                         buffer, a.params);
        __syncwarp();  // lanes 3 i ... 3 i + 2's velocities, before lane i reads them
        if constexpr (OnDevices)
            for (unsigned t = first_tile + owned; owns && t < end; t += tile_stride)
                share_velocity(s, t, a.velocity[t]);
    };
    if (initialise) {
        if (!forces(g.position_w)) return;
        velocities(g.position_w);
    }
    fused_launch_clock clock = make_launch_clock(a.samples.interval, a.samples.phase, steps);
    unsigned b = 0;
    unsigned sample = 0;  // samples recorded in this launch
    for (unsigned step = 0; step < clock.steps; ++step) {
        b ^= 1u;
        packed4<W>* const r_w = g.position_w + std::size_t(b) * n;
        for (unsigned t = first_tile + owned; owns && t < end; t += tile_stride) {
            vec3<P> r = a.position[t];
            vec3<int> m = a.image[t];
            drift_particle(r, m, a.velocity[t], dt, a.box);
            a.position[t] = r;
            a.image[t] = m;
            const packed4<W> r_t = pack(value_cast<W>(r));
            r_w[t] = r_t;
            if constexpr (OnDevices) share_drift(s, t, std::size_t(b) * n, r, m, r_t);
        }
        if (!barrier()) return;
        if (!forces(r_w)) return;
        velocities(r_w);
        if (sample_due(clock)) {
            for (unsigned t = first_tile + owned; owns && t < end; t += tile_stride)
                record_sample(a.samples, std::size_t(sample) * n + t, a.position[t], a.image[t], a.velocity[t],
                              a.force[t]);
            ++sample;
        }
    }
    if constexpr (OnDevices)
        if (blockIdx.x == 0 && threadIdx.x == 0) s.barriers[0] = passed;
}

}  // namespace stokesian::cuda
