#pragma once
// Host side of the fused small-system path (fused_kernels.cuh, fused_thread_kernel.cuh):
// fused_systems<Policy> owns the device state of one or many systems of the same N and launches the
// fused kernel it chose (fused_kernel_choice, fused_backend.hpp);
// fused_engine_impl (one system, --hi-kernel fused) and fused_batch_engine (a batch,
// stokesian/core/batch.hpp) wrap it. Instantiated for all nine precision modes in fused_engine.cu.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "device_failure.hpp"
#include "fault_injection.hpp"
#include "fused_grid_kernel.cuh"
#include "fused_kernels.cuh"
#include "fused_parts.cuh"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/device_context.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/cuda/fused_backend.hpp"

namespace stokesian::cuda {

// The launches of fused_thread_kernel for N = 1 ... 8 (fused_thread_launch.cu, compiled apart).
template <class Policy>
struct fused_thread_launcher {
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;
    static void launch(const fused_arguments<P, A, W>& a, std::uint64_t steps, bool initialise);
};

// The launches of fused_grid_kernel (fused_grid_launch.cu, compiled apart).
template <class Policy>
struct fused_grid_launcher {
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;
    static void launch(const fused_arguments<P, A, W>& a, const fused_grid_buffers<W>& g,
                       const fused_grid_slice<P, A, W>& s, std::uint64_t steps, bool initialise);
};

template <class Policy>
class fused_systems {
public:
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;

    // One system per entry of `states` (all of the same N), with its own time step `dt[s]`.
    // Computes the initial forces and velocities on the context's devices (one launch each): one
    // device, or one system on several with the grid kernel (their slices of its targets).
    // `kernel`: automatic picks by N; another choice throws std::invalid_argument where it cannot run N.
    fused_systems(const engine_config& config, const device_context& device,
                  const std::vector<const initial_state*>& states, const std::vector<double>& dt,
                  fused_kernel_choice kernel);
    // Frees each part's buffers on its own device, after its last launch (on several devices a late
    // one may still store into the others).
    ~fused_systems();
    fused_systems(const fused_systems&) = delete;
    fused_systems& operator=(const fused_systems&) = delete;

    void advance(std::uint64_t steps);
    // Frames after step() + (k + 1) interval steps, k < samples, system-major within a sample:
    // out[k * systems() + s].
    void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out);
    void read_frames(std::vector<frame>& out) const;  // one per system
    // Checkpoints of a single-system instance (systems() == 1).
    void save_state(engine_state& out) const;
    void restore_state(const engine_state& state);
    // One system's words (batch_engine::save_member_state); restore leaves step() as it is.
    void save_system_state(std::size_t system, engine_state& out) const;
    void restore_system_state(std::size_t system, const engine_state& state);

    std::uint64_t step() const { return step_; }
    // The device a CUDA error is put down to: the one device, or on several the current one when the
    // error surfaced (-1, device_failure.hpp).
    int device() const { return parts_.size() == 1 ? parts_.front().device : -1; }
    unsigned particles() const { return n_; }
    std::size_t systems() const { return systems_; }
    engine_description description() const;

    // Steps per launch: at most 2^18 and about 2^27 pair evaluations (see fused_engine.cu).
    std::uint64_t steps_per_launch() const;

private:
    fused_kernel_choice kernel() const { return kernel_; }
    // Pair-warp kernel: one warp per system, up to fused_warps_per_block systems per block.
    unsigned pair_warps_per_block() const { return systems_ == 1 ? 1u : fused_warps_per_block; }
    // Blocks of a launch of the pair-warp or block kernel.
    unsigned blocks() const {
        const unsigned per_block = kernel_ == fused_kernel_choice::pair_warp ? pair_warps_per_block() : 1u;
        return (systems_ + per_block - 1) / per_block;
    }
    // One launch on every device; `interval` 0: no samples.
    void launch(std::uint64_t steps, bool initialise, std::uint64_t interval = 0, std::uint64_t phase = 0);
    void launch_on(fused_part<Policy>& on, std::uint64_t steps, bool initialise, std::uint64_t interval,
                   std::uint64_t phase);
    // The first `count` samples of the last launch into the host arrays.
    void download_samples(std::uint64_t count, std::vector<vec3<P>>& position, std::vector<vec3<int>>& image,
                          std::vector<vec3<A>>& velocity, std::vector<vec3<W>>& force) const;
    // Several devices: waits for every one (fused_parts.cuh); nothing on one.
    void finish() const {
        if (parts_.size() > 1) finish_on_every_device(parts_);
    }
    frame make_frame(std::size_t system, std::uint64_t step, const vec3<P>* position, const vec3<int>* image,
                     const vec3<A>* velocity, const vec3<W>* force) const;

    engine_config config_;
    interaction_parameters<W> params_;
    drift_box<P> box_{};
    unsigned n_ = 0;
    unsigned systems_ = 0;
    fused_kernel_choice kernel_ = fused_kernel_choice::automatic;  // never automatic once constructed
    std::vector<double> dt_;                                       // per system, as given (frame times)
    std::size_t shared_bytes_ = 0;
    std::vector<fused_part<Policy>> parts_;  // in the order of the device context's ordinals
    injected_fault fault_;                   // a test seam (fault_injection.hpp)
    std::uint64_t step_ = 0;
};

template <class Policy>
class fused_engine_impl final : public fused_engine {
public:
    fused_engine_impl(const engine_config& config, const device_context& device, const initial_state& state,
                      fused_kernel_choice kernel)
        : systems_(config, device, {&state}, {config.dt}, kernel) {}

    // A CUDA error after construction names the device (device_failure.hpp).
    void advance(std::uint64_t steps) override {
        on_device(systems_.device(), [&] { systems_.advance(steps); });
    }
    std::uint64_t step() const override { return systems_.step(); }
    std::size_t size() const override { return systems_.particles(); }
    void read_frame(frame& out) const override;
    engine_description description() const override { return systems_.description(); }
    void save_state(engine_state& out) const override {
        on_device(systems_.device(), [&] { systems_.save_state(out); });
    }
    void restore_state(const engine_state& state) override { systems_.restore_state(state); }
    void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) override {
        on_device(systems_.device(), [&] { systems_.advance_sampled(samples, interval, out); });
    }

private:
    fused_systems<Policy> systems_;
};

template <class Policy>
class fused_batch_engine final : public batch_engine {
public:
    fused_batch_engine(const engine_config& config, const device_context& device,
                       const std::vector<batch_member>& members, fused_kernel_choice kernel);

    // A CUDA error after construction names the device (device_failure.hpp), as for one system.
    void advance(std::uint64_t steps) override {
        on_device(systems_.device(), [&] { systems_.advance(steps); });
    }
    std::uint64_t step() const override { return systems_.step(); }
    std::size_t systems() const override { return systems_.systems(); }
    void read_frames(std::vector<frame>& out) const override {
        on_device(systems_.device(), [&] { systems_.read_frames(out); });
    }
    engine_description description() const override { return systems_.description(); }
    void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) override {
        on_device(systems_.device(), [&] { systems_.advance_sampled(samples, interval, out); });
    }
    void save_member_state(std::size_t member, engine_state& out) const override {
        on_device(systems_.device(), [&] { systems_.save_system_state(member, out); });
    }
    void restore_member_state(std::size_t member, const engine_state& state) override {
        on_device(systems_.device(), [&] { systems_.restore_system_state(member, state); });
    }

private:
    fused_systems<Policy> systems_;
};

}  // namespace stokesian::cuda
