// The exact HI kernels (compiled without FMA contraction, IEEE division and square root).
#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include "hi_launch_common.cuh"

namespace stokesian::cuda {

unsigned split_group_size(unsigned n) {
    // Threads that fill the current device: its SM count, read once per device ordinal.
    static std::mutex mutex;
    static std::map<int, unsigned> wanted_by_device;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        device = -1;
    }
    unsigned wanted_threads = 0;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        auto [it, fresh] = wanted_by_device.try_emplace(device, 0u);
        if (fresh) {
            int sms = 0;
            if (device < 0 || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
                cudaGetLastError();
                sms = 132;
            }
            it->second = static_cast<unsigned>(sms) * 1024u;  // 32 warps per SM, a quarter of an H100's capacity
        }
        wanted_threads = it->second;
    }
    unsigned g = 1;
    while (g < 32 && static_cast<unsigned long long>(n) * g < wanted_threads) g *= 2;
    return g;
}

template <class W, class A>
void launch_hi_kernel(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                      vec3<A>* velocity, unsigned n, const interaction_parameters<W>& p, cudaStream_t stream) {
    require_warp_multiple(block);
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>);
    switch (kernel) {
        case hi_kernel::naive:
            hi_naive_kernel<W, A, false><<<blocks_for(n, block), block, 0, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::tiling:
            hi_tiling_kernel<W, A, false, false>
                <<<blocks_for(n, block), block, block * tile_bytes, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::small_tiling:
            hi_tiling_kernel<W, A, false, true>
                <<<blocks_for(n, block), block, 32 * tile_bytes, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::multi_target:
            hi_multi_target_kernel<W, A, false, 2>
                <<<blocks_for(n, block * 2), block, block * tile_bytes, stream>>>(position, force, velocity, n, p);
            break;
        case hi_kernel::split: launch_split<W, A, false>(block, position, force, velocity, n, p, stream); break;
        case hi_kernel::fast_tiling:
        case hi_kernel::fast_multi_target:
        case hi_kernel::fast_split:
            launch_hi_kernel_fast<W, A>(kernel, block, position, force, velocity, n, p, stream);
            return;
        case hi_kernel::fused:
            throw std::invalid_argument("hi-kernel 'fused' is an engine of its own, not an all-pairs kernel");
    }
    check_launch(to_string(kernel));
}

template void launch_hi_kernel<float, float>(hi_kernel, unsigned, const packed4<float>*, const packed4<float>*,
                                             vec3<float>*, unsigned, const interaction_parameters<float>&,
                                             cudaStream_t);
template void launch_hi_kernel<float, float_float>(hi_kernel, unsigned, const packed4<float>*, const packed4<float>*,
                                                   vec3<float_float>*, unsigned, const interaction_parameters<float>&,
                                                   cudaStream_t);
template void launch_hi_kernel<double, double>(hi_kernel, unsigned, const packed4<double>*, const packed4<double>*,
                                               vec3<double>*, unsigned, const interaction_parameters<double>&,
                                               cudaStream_t);

}  // namespace stokesian::cuda
