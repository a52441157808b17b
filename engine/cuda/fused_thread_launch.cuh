#pragma once
// Launches of the one-thread-per-system fused kernel (fused_thread_kernel.cuh): N = 1 ... 8 and the
// tensor chosen at run time. Included by the files generated from fused_thread_launch.cu.in, one per
// HI precision of the list, each instantiating the modes of its precision, so that the fully unrolled
// kernels (48 per precision) compile in several files side by side instead of one after the other.
#include <stdexcept>
#include <utility>

#include "cuda_check.hpp"
#include "fused_engine.cuh"
#include "fused_thread_kernel.cuh"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian::cuda {

namespace fused_thread_detail {

template <class P, class A, class W, class Tensor, unsigned... K>
void launch_for_n(std::integer_sequence<unsigned, K...>, const fused_arguments<P, A, W>& a, std::uint64_t steps,
                  bool initialise) {
    // One warp per block: a batch of 32 systems per block spreads over the SMs (a small batch, e.g.
    // 132 systems, still runs on 5 SMs instead of sharing one), and the kernel may use up to 255
    // registers per thread (N = 8 in f64 keeps ~ 8 x 20 state words).
    const unsigned blocks = (a.systems + fused_thread_block - 1) / fused_thread_block;
    bool launched = false;
    (
        [&] {
            constexpr unsigned n = K + fused_thread_min_particles;
            if (a.n != n) return;
            fused_thread_kernel<P, A, W, n, Tensor><<<blocks, fused_thread_block>>>(a, steps, initialise);
            launched = true;
        }(),
        ...);
    if (!launched) throw std::logic_error("fused thread kernel launched for N outside 1 ... 8");
    check_launch("fused_thread_kernel");
}

}  // namespace fused_thread_detail

template <class Policy>
void fused_thread_launcher<Policy>::launch(const fused_arguments<P, A, W>& a, std::uint64_t steps, bool initialise) {
    constexpr unsigned count = fused_thread_max_particles - fused_thread_min_particles + 1;
    dispatch_tensor(a.params.mobility.tensor, [&](auto tensor) {
        using T = decltype(tensor);
        // Pair-form tensors only: the fused engine refuses a block evaluator (rpy-ewald) before any launch.
        if constexpr (tensor_evaluator<T>)
            fused_thread_detail::launch_for_n<P, A, W, T>(std::make_integer_sequence<unsigned, count>{}, a, steps,
                                                          initialise);
        else throw std::logic_error("fused thread kernel launched for a block tensor");
    });
}

}  // namespace stokesian::cuda
