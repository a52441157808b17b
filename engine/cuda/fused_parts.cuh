#pragma once
// A device's share of the fused engine (fused_engine.cuh): its buffers, each holding every system's
// whole state, and what several shares of one system do together -- peer access and each share's
// table of the others (fused_grid_devices.cuh), waiting for all of them, gathering their samples.
// On one device the one share steps every target.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_failure.hpp"
#include "device_rows.hpp"
#include "fused_grid_devices.cuh"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/physics/target_range.hpp"

namespace stokesian::cuda {

template <class Policy>
struct fused_part {
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;

    int device;          // ordinal
    target_range slice;  // the targets it steps: all of them on one device
    device_buffer<P> dt;
    device_buffer<vec3<P>> position;
    device_buffer<vec3<int>> image;
    device_buffer<vec3<A>> velocity;
    device_buffer<vec3<W>> force;
    device_buffer<vec3<W>> external_force;
    // The grid kernel's working copies (fused_grid_buffers): 2n positions, n forces.
    device_buffer<packed4<W>> grid_position_w;
    device_buffer<packed4<W>> grid_force_w;
    device_buffer<vec3<P>> sample_position;
    device_buffer<vec3<int>> sample_image;
    device_buffer<vec3<A>> sample_velocity;
    device_buffer<vec3<W>> sample_force;
    // Several devices only: fused_grid_slice's words (arrived, fused_max_devices of them, then passed
    // and abandoned) and the table of the other parts.
    device_buffer<std::uint64_t> barrier_words;
    device_buffer<fused_peer_arrays<P, A, W>> peers;

    // The grid kernel's view of this part of `parts` (fused_grid_slice).
    fused_grid_slice<P, A, W> grid_slice(std::size_t parts) {
        const bool shared = parts > 1;
        return {static_cast<unsigned>(slice.begin),
                static_cast<unsigned>(slice.end),
                index,
                shared ? static_cast<unsigned>(parts - 1) : 0u,
                shared ? peers.data() : nullptr,
                shared ? barrier_words.data() : nullptr,
                shared ? barrier_words.data() + fused_max_devices : nullptr};
    }
    unsigned index = 0;  // its place among the parts
};

// Peer access between the parts' devices, and each part's zeroed barrier words and table of the
// others (its allocations made: their addresses go into the tables).
template <class Policy>
void connect_parts(std::vector<fused_part<Policy>>& parts) {
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;
    std::vector<int> ordinals;
    for (const fused_part<Policy>& p : parts) ordinals.push_back(p.device);
    enable_peer_access(ordinals);
    for (fused_part<Policy>& p : parts) {
        use_device(p.device);
        p.barrier_words.upload(std::vector<std::uint64_t>(fused_max_devices + 2, 0));
    }
    for (fused_part<Policy>& p : parts) {
        std::vector<fused_peer_arrays<P, A, W>> peers;
        for (fused_part<Policy>& other : parts) {
            if (&other == &p) continue;
            peers.push_back({other.position.data(), other.image.data(), other.velocity.data(), other.force.data(),
                             other.grid_position_w.data(), other.grid_force_w.data(), other.barrier_words.data(),
                             other.index});
        }
        use_device(p.device);
        p.peers.upload(peers);
    }
}

// Waits for every part's launches. Throws device_error naming the first device whose launches
// failed -- and every other that failed with it: each device writes into the others' memory, so a
// fault on one stops the others too, and which came first the runtime cannot say -- or else a device
// whose launch was abandoned (a peer that never arrived at a barrier).
template <class Policy>
void finish_on_every_device(const std::vector<fused_part<Policy>>& parts) {
    std::vector<std::pair<int, std::string>> failed;
    for (const fused_part<Policy>& p : parts) {
        use_device(p.device);
        if (const cudaError_t status = cudaStreamSynchronize(cudaStreamPerThread); status != cudaSuccess)
            failed.emplace_back(p.device,
                                std::string(cudaGetErrorString(status)) + " (" + cudaGetErrorName(status) + ")");
    }
    if (!failed.empty()) {
        std::string what = "CUDA error in a fused launch on several devices: " + failed.front().second;
        for (std::size_t k = 1; k < failed.size(); ++k)
            what += "; device " + std::to_string(failed[k].first) + " (" + device_name_of(failed[k].first) +
                    ") failed too: " + failed[k].second;
        if (failed.size() > 1) what += " (the devices write into each other's memory: a fault on one stops all)";
        throw_device_failure(failed.front().first, what);
    }
    for (const fused_part<Policy>& p : parts) {
        std::vector<std::uint64_t> abandoned;
        use_device(p.device);
        p.barrier_words.download(abandoned, fused_max_devices + 1, 1);
        if (abandoned.front() != 0)
            throw_device_failure(p.device, "the fused engine waited more than " +
                                               std::to_string(fused_peer_wait_ns / 1'000'000'000u) +
                                               " s at a barrier for another device of the run, and stopped");
    }
    use_device(parts.front().device);
}

// Of one system on several parts: samples 0 ... count - 1 of the last launch (sample k's target t at
// k * n + t, recorded by the part whose slice holds t) into the host arrays.
template <class Policy, class P, class A, class W>
void gather_samples(const std::vector<fused_part<Policy>>& parts, std::size_t n, std::uint64_t count,
                    std::vector<vec3<P>>& position, std::vector<vec3<int>>& image, std::vector<vec3<A>>& velocity,
                    std::vector<vec3<W>>& force) {
    const std::size_t records = static_cast<std::size_t>(count) * n;
    position.resize(records);
    image.resize(records);
    velocity.resize(records);
    force.resize(records);
    for (const fused_part<Policy>& p : parts) {
        use_device(p.device);
        const std::size_t first = p.slice.begin, size = p.slice.size();
        download_rows(p.sample_position, position, first, size, count, n);
        download_rows(p.sample_image, image, first, size, count, n);
        download_rows(p.sample_velocity, velocity, first, size, count, n);
        download_rows(p.sample_force, force, first, size, count, n);
    }
    use_device(parts.front().device);
}

}  // namespace stokesian::cuda
