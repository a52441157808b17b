// The fast-* HI kernels: the hardware reciprocal square root (Fast = true) and FMA contraction
// (this file alone is compiled with --fmad=true, engine/CMakeLists.txt). They agree with the exact
// kernels to a few ulp per pair term, not bit for bit (tests/cuda: a derived tolerance).
#include <cuda_runtime.h>

#include "hi_launch_common.cuh"

namespace stokesian::cuda {

template <class W, class A>
void launch_hi_kernel_fast(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                           vec3<A>* velocity, target_range targets, unsigned n_sources,
                           const interaction_parameters<W>& p, cudaStream_t stream) {
    if (!uses_fast_math(kernel))
        throw std::invalid_argument(std::string("hi-kernel '") + to_string(kernel) + "' is not a fast kernel");
    hi_launch<W, A> l;
    if (!make_hi_launch(l, block, position, force, velocity, targets, n_sources, stream)) return;
    dispatch_tensor(p.mobility.tensor, [&]<class Tensor>(Tensor) { launch_fast_hi_kernel<Tensor>(kernel, l, p); });
    check_launch(to_string(kernel));
}

#define STOKESIAN_INSTANTIATE(W, A)                                                                                \
    template void launch_hi_kernel_fast<W, A>(hi_kernel, unsigned, const packed4<W>*, const packed4<W>*, vec3<A>*, \
                                              target_range, unsigned, const interaction_parameters<W>&, cudaStream_t);
STOKESIAN_INSTANTIATE(float, float)
STOKESIAN_INSTANTIATE(float, float_float)
STOKESIAN_INSTANTIATE(double, double)
#undef STOKESIAN_INSTANTIATE

}  // namespace stokesian::cuda
