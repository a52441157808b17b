#pragma once
// One place that launches the hydrodynamic-interaction kernels (hi_kernels.cuh), used by the
// engine and by the kernel benchmark, so both time exactly what runs.
#include <cuda_runtime.h>

#include <stdexcept>

#include "cuda_check.hpp"
#include "cuda_engine.cuh"
#include "hi_kernels.cuh"

namespace stokesian::cuda {

inline constexpr int multi_target_count = 2;

template <class W, class A>
void launch_hi_kernel(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                      vec3<A>* velocity, unsigned n, const interaction_parameters<W>& p, cudaStream_t stream = 0) {
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>);
    switch (kernel) {
        case hi_kernel::naive:
            hi_naive_kernel<W, A><<<blocks_for(n, block), block, 0, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::tiling:
            hi_tiling_kernel<W, A, false><<<blocks_for(n, block), block, block * tile_bytes, stream>>>(
                position, force, velocity, n, p);
            break;
        case hi_kernel::small_tiling:
            hi_tiling_kernel<W, A, true><<<blocks_for(n, block), block, 32 * tile_bytes, stream>>>(
                position, force, velocity, n, p);
            break;
        case hi_kernel::multi_target:
            hi_multi_target_kernel<W, A, multi_target_count>
                <<<blocks_for(n, block * multi_target_count), block, block * tile_bytes, stream>>>(position, force,
                                                                                                  velocity, n, p);
            break;
        default: throw std::invalid_argument(std::string("hi-kernel '") + to_string(kernel) + "' is not an all-pairs kernel");
    }
    check_launch(to_string(kernel));
}

}  // namespace stokesian::cuda
