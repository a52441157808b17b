// The fast-* HI kernels: the hardware reciprocal square root (Fast = true) and FMA contraction
// (this file alone is compiled with --fmad=true, engine/CMakeLists.txt). They agree with the exact
// kernels to a few ulp per pair term, not bit for bit (tests/gpu: a derived tolerance).
#include <cuda_runtime.h>

#include "hi_launch_common.cuh"

namespace stokesian::cuda {

template <class W, class A>
void launch_hi_kernel_fast(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                           vec3<A>* velocity, unsigned n, const interaction_parameters<W>& p, cudaStream_t stream) {
    require_warp_multiple(block);
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>);
    switch (kernel) {
        case hi_kernel::fast_tiling:
            hi_tiling_kernel<W, A, true, false>
                <<<blocks_for(n, block), block, block * tile_bytes, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::fast_multi_target:
            hi_multi_target_kernel<W, A, true, 4>
                <<<blocks_for(n, block * 4), block, block * tile_bytes, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::fast_split: launch_split<W, A, true>(block, position, force, velocity, n, p, stream); break;
        default: throw std::invalid_argument(std::string("hi-kernel '") + to_string(kernel) + "' is not a fast kernel");
    }
    check_launch(to_string(kernel));
}

template void launch_hi_kernel_fast<float, float>(hi_kernel, unsigned, const packed4<float>*, const packed4<float>*,
                                                  vec3<float>*, unsigned, const interaction_parameters<float>&,
                                                  cudaStream_t);
template void launch_hi_kernel_fast<float, float_float>(hi_kernel, unsigned, const packed4<float>*,
                                                        const packed4<float>*, vec3<float_float>*, unsigned,
                                                        const interaction_parameters<float>&, cudaStream_t);
template void launch_hi_kernel_fast<double, double>(hi_kernel, unsigned, const packed4<double>*, const packed4<double>*,
                                                    vec3<double>*, unsigned, const interaction_parameters<double>&,
                                                    cudaStream_t);

}  // namespace stokesian::cuda
