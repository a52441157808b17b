// Launches of the one-thread-per-system fused kernel (fused_thread_kernel.cuh), N = 1 ... 8 chosen at
// run time, for all nine precision modes: in a file of their own so that these 72 fully unrolled
// kernels compile beside the rest of the fused engine (fused_engine.cu) rather than after it.
#include <utility>

#include "cuda_check.hpp"
#include "fused_engine.cuh"
#include "fused_thread_kernel.cuh"

namespace stokesian::cuda {

namespace {

template <class P, class A, class W, unsigned... K>
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
            fused_thread_kernel<P, A, W, n><<<blocks, fused_thread_block>>>(a, steps, initialise);
            launched = true;
        }(),
        ...);
    if (!launched) throw std::logic_error("fused thread kernel launched for N outside 1 ... 8");
    check_launch("fused_thread_kernel");
}

}  // namespace

template <class Policy>
void fused_thread_launcher<Policy>::launch(const fused_arguments<P, A, W>& a, std::uint64_t steps, bool initialise) {
    launch_for_n(std::make_integer_sequence<unsigned, fused_thread_max_particles - fused_thread_min_particles + 1>{}, a,
                 steps, initialise);
}

STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(fused_thread_launcher)

}  // namespace stokesian::cuda
