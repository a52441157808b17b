#pragma once
// Host-side entry points of the fused small-system path of the CUDA backend (plain C++, like
// cuda_backend.hpp; the kernels are in fused_kernels.cuh, the engines in fused_engine.cuh/.cu).
//
// The fused path advances MANY steps of a system in ONE kernel launch: the whole system lives in
// one thread (N <= 8), one warp (N <= 5: one lane per particle pair) or one block (N <= 1024: one
// thread per particle), its state in registers / shared memory for the whole launch; or one system
// spreads over the whole device (the grid kernel: a cooperative launch, grid-wide barriers between
// the phases of a step, ordered-split's exact sums). Each step is the paper's
// (Section 3.1) with the same physics functions in the same order as the step-by-step CUDA engine
// and the CPU backend's all-pairs loop, so all three give bitwise the same trajectory (without
// short-range forces; with them the device's logf/expf may differ from the host's by 1 ulp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stokesian/core/batch.hpp"
#include "stokesian/core/device_context.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian::cuda {

// The largest system of a batch and of the block kernel: one block of at most 1024 threads.
inline constexpr std::size_t fused_block_max_particles = 1024;
// The largest system the fused path runs: one system on the whole device (the grid kernel). Far
// beyond where it pays (engine/docs/performance.md, "Whole steps in one launch"), a bound on its
// all-pairs sums per launch, not on memory.
inline constexpr std::size_t fused_max_particles = 65536;
// The most devices of one host that one system's grid kernel spreads over (fused_grid_devices.cuh):
// the devices a node usually holds.
inline constexpr unsigned fused_max_devices = 8;

// The single-system fused engine: the CUDA backend's kernel "fused" (--hi-kernel fused).
class fused_engine : public engine {
public:
    // Advances samples x interval steps, recording positions, images, velocities and forces on the
    // device every `interval` steps, and returns the `samples` frames, converted to double exactly
    // like read_frame(): out[k] is the frame after step() + (k + 1) x interval steps, equal to
    // what advance(interval) + read_frame() would give. As few launches as the per-launch budget
    // allows (fused_engine.cu: whole intervals per launch, up to 2^18 steps; a longer interval
    // spans several launches). The device buffer holds one launch's samples (at most ~70 bytes per
    // particle and sample), copied back after each launch. Throws std::invalid_argument for
    // interval = 0.
    void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) override = 0;
};

// Which of the fused kernels runs the systems (engine/cuda/fused_*kernel*.cuh). `automatic`, the
// default everywhere, picks by N (fused_engine.cu, automatic_fused_kernel; engine/docs/performance.md
// says why); the others force one kernel, for the bit-for-bit tests and stokesian_bench_small's
// old-vs-new comparison. Internal to the fused engine: not a scenario key or CLI spelling (the
// kernel name stays --hi-kernel fused), reported as the description's "fused_kernel".
enum class fused_kernel_choice {
    automatic,
    thread,     // one thread per system, 1 <= N <= 8
    pair_warp,  // one warp per system, one lane per ordered pair, N <= 5
    block,      // one block per system, one thread per particle, N <= 1024
    grid,       // one system on the whole device (cooperative launch), N <= fused_max_particles
};

// Why the grid kernel cannot run `config` (empty when it can): it sums ordered-split's way, so the
// tensor needs a far form (physics/tensors/far_form.hpp). (Short-range forces it tests over all
// pairs, with no neighbour list: auto takes it only where that was measured to pay.)
std::string fused_grid_refusal(const engine_config& config);

// Why the fused engine cannot spread one system of `particles` over `devices` devices (more than
// fused_max_devices, fewer particles than devices), after "the fused engine "; empty when it can.
std::string fused_devices_refusal(std::size_t particles, std::size_t devices);

// On the context's device, or one system on its several devices of this host (the grid kernel, a
// slice of the targets each; the devices need peer access). Throws std::invalid_argument for N = 0 or N > fused_max_particles, or
// an N or configuration the chosen kernel does not run; cuda_error without a device.
std::unique_ptr<fused_engine> make_fused_engine(const engine_config& config, const device_context& device,
                                                const initial_state& state,
                                                fused_kernel_choice kernel = fused_kernel_choice::automatic);
inline std::unique_ptr<fused_engine> make_fused_engine(const engine_config& config, const initial_state& state,
                                                       fused_kernel_choice kernel = fused_kernel_choice::automatic) {
    return make_fused_engine(config, device_context{}, state, kernel);
}

// The CUDA batch (stokesian/core/batch.hpp): the fused kernel with one thread, warp or block per
// member. config.hi_kernel must be empty or "fused". Members are validated by make_batch_engine().
std::unique_ptr<batch_engine> make_cuda_batch_engine(const engine_config& config, const device_context& device,
                                                     const std::vector<batch_member>& members,
                                                     fused_kernel_choice kernel = fused_kernel_choice::automatic);

}  // namespace stokesian::cuda
