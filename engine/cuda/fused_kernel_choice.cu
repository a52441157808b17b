// The fused engine's kernel choice and refusals (fused_kernel_choice.hpp).
#include "fused_kernel_choice.hpp"

#include <stdexcept>

#include "fused_kernels.cuh"
#include "stokesian/physics/tensor_registry.hpp"
#include "stokesian/physics/tensors/far_form.hpp"

namespace stokesian::cuda {

void check_particle_count(std::size_t n) {
    if (n == 0) throw std::invalid_argument("the fused CUDA path (--hi-kernel fused) needs at least one particle");
    if (n > fused_max_particles)
        throw std::invalid_argument("the fused CUDA path (--hi-kernel fused) runs at most " +
                                    std::to_string(fused_max_particles) + " particles: N = " + std::to_string(n) +
                                    " is too large (use the step-by-step kernels, e.g. --hi-kernel ordered-split)");
}

namespace {

bool has_far_form(hydrodynamic_tensor key) {
    return dispatch_tensor(key, [](auto t) { return far_form<decltype(t)>::available; });
}

// The default kernel for N systems of n particles, from the H100 measurements of 2026-11-27
// (engine/docs/fused-performance.md; stokesian_bench_small --kernels all): per
// system the pair-warp kernel is 3-4.5x faster than one thread per system in every mode (one
// system's step is a latency chain, which 16 pair lanes shorten and one thread lengthens), so it
// stays the choice for N <= 5; only a large batch, where 32 systems share a warp's instruction
// stream, gains from the thread kernel (8192 tetrahedra: 1.05-1.7x the pair-warp aggregate in
// 8 of 9 modes). Batches between 1 and 8192 systems were not measured: they keep the per-system choice.
// One system of fused_grid_from particles or more runs on the whole device (the grid kernel) where
// it can: on an H200 the block kernel took 8.3 us a step at N = 32 (one SM walks the sources one
// after the other), the grid kernel 2.8 us at N = 32 and 5.8 us at N = 128
// (engine/docs/gpu-runs/2026-11-28-h200-fused-grid-vs-block.txt, -bound.csv). Below N = 32 nothing
// was measured: the block kernel stays; the pair-warp kernel keeps N <= 5.
constexpr unsigned fused_thread_min_batch = 8192;
constexpr unsigned fused_grid_from = 32;
fused_kernel_choice automatic_fused_kernel(unsigned n, unsigned systems, bool grid_possible) {
    if (systems >= fused_thread_min_batch && n <= fused_thread_max_particles) return fused_kernel_choice::thread;
    if (systems == 1 && grid_possible && (n >= fused_grid_from || n > fused_block_max_particles))
        return fused_kernel_choice::grid;
    return n <= fused_pair_max_particles ? fused_kernel_choice::pair_warp : fused_kernel_choice::block;
}

}  // namespace

std::string fused_devices_refusal(std::size_t particles, std::size_t devices) {
    if (devices > fused_max_devices)
        return "runs on at most " + std::to_string(fused_max_devices) + " devices, not " + std::to_string(devices);
    if (devices > particles)
        return "runs at least one particle a device: N = " + std::to_string(particles) + " on " +
               std::to_string(devices) + " devices";
    return "";
}

fused_kernel_choice resolve_fused_kernel(fused_kernel_choice kernel, unsigned n, unsigned systems, unsigned devices,
                                         const std::string& grid_refusal) {
    if (devices > 1) {
        // One system over the devices: the grid kernel, a slice of the targets each.
        if (kernel != fused_kernel_choice::automatic && kernel != fused_kernel_choice::grid)
            throw std::invalid_argument(
                "the fused engine runs one system on several devices with its grid kernel only");
        if (const std::string why = fused_devices_refusal(n, devices); !why.empty())
            throw std::invalid_argument("the fused engine " + why);
        kernel = fused_kernel_choice::grid;
    }
    if (kernel == fused_kernel_choice::automatic) kernel = automatic_fused_kernel(n, systems, grid_refusal.empty());
    if (kernel == fused_kernel_choice::grid) {
        if (systems != 1)
            throw std::invalid_argument("the fused grid kernel runs one system, not a batch of " +
                                        std::to_string(systems));
        if (!grid_refusal.empty()) throw std::invalid_argument("the fused grid kernel " + grid_refusal);
        return kernel;
    }
    if (n > fused_block_max_particles)
        throw std::invalid_argument(
            "the fused CUDA path runs a batch member or the block kernel in one block of at most " +
            std::to_string(fused_block_max_particles) + " threads: N = " + std::to_string(n) +
            (grid_refusal.empty() ? std::string(" is too large")
                                  : "; a larger system runs on the whole device, but that kernel " + grid_refusal));
    if (kernel == fused_kernel_choice::thread && n > fused_thread_max_particles)
        throw std::invalid_argument("the one-thread fused kernel runs N <= " +
                                    std::to_string(fused_thread_max_particles) + ", not N = " + std::to_string(n));
    if (kernel == fused_kernel_choice::pair_warp && n > fused_pair_max_particles)
        throw std::invalid_argument("the pair-warp fused kernel runs N <= " + std::to_string(fused_pair_max_particles) +
                                    ", not N = " + std::to_string(n));
    return kernel;
}

std::string fused_grid_refusal(const engine_config& config) {
    if (!has_far_form(config.system.tensor))
        return "needs a tensor with a far form (rotne-prager), not '" + std::string(to_string(config.system.tensor)) +
               "'";
    return "";
}

}  // namespace stokesian::cuda
