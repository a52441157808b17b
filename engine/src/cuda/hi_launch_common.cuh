#pragma once
// Launch helpers shared by hi_launch_exact.cu and hi_launch_fast.cu (the kernels are compiled in
// each with that file's floating-point flags).
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "hi_kernels.cuh"
#include "hi_launch.cuh"

namespace stokesian::cuda {

template <class W, class A, bool Fast, int G>
void launch_split_group(unsigned block, const packed4<W>* position, const packed4<W>* force, vec3<A>* velocity,
                        unsigned n, const interaction_parameters<W>& p, cudaStream_t stream) {
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>) * block;
    hi_split_kernel<W, A, Fast, G>
        <<<blocks_for(static_cast<unsigned long long>(n) * G, block), block, tile_bytes, stream>>>(position, force,
                                                                                                   velocity, n, p);
}

template <class W, class A, bool Fast>
void launch_split(unsigned block, const packed4<W>* position, const packed4<W>* force, vec3<A>* velocity, unsigned n,
                  const interaction_parameters<W>& p, cudaStream_t stream) {
    switch (split_group_size(n)) {
        case 1: launch_split_group<W, A, Fast, 1>(block, position, force, velocity, n, p, stream); break;
        case 2: launch_split_group<W, A, Fast, 2>(block, position, force, velocity, n, p, stream); break;
        case 4: launch_split_group<W, A, Fast, 4>(block, position, force, velocity, n, p, stream); break;
        case 8: launch_split_group<W, A, Fast, 8>(block, position, force, velocity, n, p, stream); break;
        case 16: launch_split_group<W, A, Fast, 16>(block, position, force, velocity, n, p, stream); break;
        default: launch_split_group<W, A, Fast, 32>(block, position, force, velocity, n, p, stream); break;
    }
}

inline void require_warp_multiple(unsigned block) {
    if (block % 32 != 0 || block == 0)
        throw std::invalid_argument("HI kernels need a block size that is a multiple of 32, got " +
                                    std::to_string(block));
}

}  // namespace stokesian::cuda
