#pragma once
// The grid kernel (fused_grid_kernel.cuh) on several devices of one host: each device runs one
// cooperative launch over its slice of the targets (core/target_slices.hpp, the one rule of every
// decomposition) and every source. What a device writes of its targets' state (positions, images,
// velocities, forces, the working copies) it also stores into every other device's arrays through
// peer access (NVLink or PCIe), so that every device holds the whole state, as after the
// step-by-step engine's gathers; a target's sums are its own whatever its slice, so the run is the
// one-device run bit for bit.
//
// A barrier across the devices separates the phases where one device barrier did: every thread
// fences its stores into the peers (system scope), a grid barrier, then thread 0 of block 0 tells
// each peer that this device arrived (a release store at system scope into the peer's arrival word
// for this device) and waits until every peer has arrived at the same barrier (acquire loads of its
// own words), then a grid barrier again. Barriers are counted across launches (the device's
// `passed`), so each word only grows. A launch begins with such a barrier too: a peer may still
// read the buffers of its last step while this device starts the next launch.
//
// A peer that faults stops this device too (its stores into the peer fault). One that does not
// arrive within fused_peer_wait_ns without a fault (a launch that never came) would leave this
// device waiting for ever: thread 0 marks the launch abandoned instead, every thread leaves it after
// the next grid barrier, and the host reports it (finish_on_every_device, fused_parts.cuh).
#include <cooperative_groups.h>

#include <cstdint>

#include "fused_kernels.cuh"
#include "stokesian/cuda/fused_backend.hpp"

namespace stokesian::cuda {

// Far above any step: a whole step at N = 42 592 in f64 takes 4.8 ms on two H200
// (engine/docs/gpu-runs/2026-11-29-h200x2-fused-two-devices-bound.csv); a peer late by ten seconds is gone.
inline constexpr std::uint64_t fused_peer_wait_ns = 10'000'000'000ull;

// One peer's copies of the state, written by this device for its own targets.
template <class P, class A, class W>
struct fused_peer_arrays {
    vec3<P>* position;
    vec3<int>* image;
    vec3<A>* velocity;
    vec3<W>* force;
    packed4<W>* position_w;  // both parities, as fused_grid_buffers
    packed4<W>* force_w;
    std::uint64_t* arrived;  // the peer's arrival words, one per device of the group
    unsigned index;          // the peer's place in the group
};

// This device's part of the run. One device: the slice [0, n) and no peers.
template <class P, class A, class W>
struct fused_grid_slice {
    unsigned begin, end;                     // this device's targets
    unsigned index;                          // its place in the group
    unsigned peers;                          // the other devices of the group
    const fused_peer_arrays<P, A, W>* peer;  // peers entries, in device memory
    std::uint64_t* arrived;                  // arrived[q]: the barriers device q has reached
    // [0]: the barriers this device has passed, over every launch; [1]: nonzero once a peer failed
    // to arrive in time (the launch abandoned).
    std::uint64_t* barriers;
};

__device__ __forceinline__ void store_release_system(std::uint64_t* word, std::uint64_t value) {
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(word), "l"(value) : "memory");
}
__device__ __forceinline__ std::uint64_t load_acquire_system(const std::uint64_t* word) {
    std::uint64_t value;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(value) : "l"(word) : "memory");
    return value;
}
__device__ __forceinline__ std::uint64_t global_time_ns() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The barrier across the devices (the file's comment), in the grid kernel of one of several devices
// (its OnDevices form; the one-device kernel has its grid barrier alone). Every thread of every
// block calls it; `passed`: thread 0 of block 0's count of barriers (others ignore it). False: the
// launch is abandoned, leave it.
template <class P, class A, class W>
__device__ __forceinline__ bool fused_devices_meet(const cooperative_groups::grid_group& grid,
                                                   const fused_grid_slice<P, A, W>& s, std::uint64_t& passed) {
    __threadfence_system();  // this thread's stores into the peers, before thread 0 says so
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        const std::uint64_t barrier = ++passed;
        for (unsigned k = 0; k < s.peers; ++k) store_release_system(s.peer[k].arrived + s.index, barrier);
        const std::uint64_t start = global_time_ns();
        for (unsigned k = 0; k < s.peers; ++k)
            while (load_acquire_system(s.arrived + s.peer[k].index) < barrier) {
                if (global_time_ns() - start > fused_peer_wait_ns) {
                    s.barriers[1] = 1;
                    break;
                }
                __nanosleep(64);
            }
    }
    grid.sync();
    return *static_cast<volatile const std::uint64_t*>(s.barriers + 1) == 0;
}

// Stores of this device's target t into every peer (the OnDevices kernel).
template <class P, class A, class W>
__device__ __forceinline__ void share_drift(const fused_grid_slice<P, A, W>& s, unsigned t, std::size_t parity_offset,
                                            vec3<P> r, vec3<int> m, packed4<W> r_w) {
    for (unsigned k = 0; k < s.peers; ++k) {
        const fused_peer_arrays<P, A, W>& q = s.peer[k];
        q.position[t] = r;
        q.image[t] = m;
        q.position_w[parity_offset + t] = r_w;
    }
}
template <class P, class A, class W>
__device__ __forceinline__ void share_force(const fused_grid_slice<P, A, W>& s, unsigned t, vec3<W> f) {
    for (unsigned k = 0; k < s.peers; ++k) {
        s.peer[k].force[t] = f;
        s.peer[k].force_w[t] = pack(f);
    }
}
template <class P, class A, class W>
__device__ __forceinline__ void share_velocity(const fused_grid_slice<P, A, W>& s, unsigned t, vec3<A> v) {
    for (unsigned k = 0; k < s.peers; ++k) s.peer[k].velocity[t] = v;
}

}  // namespace stokesian::cuda
