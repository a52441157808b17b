// The exact HI kernels (compiled without FMA contraction, IEEE division and square root).
#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include "hi_launch_common.cuh"

namespace stokesian::cuda {

unsigned device_sm_count() {
    static std::mutex mutex;
    static std::map<int, unsigned> sms_by_device;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        device = -1;
    }
    const std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = sms_by_device.try_emplace(device, 0u);
    if (fresh) {
        int sms = 0;
        if (device < 0 || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
            cudaGetLastError();
            sms = 132;
        }
        it->second = static_cast<unsigned>(sms);
    }
    return it->second;
}

unsigned split_group_size(unsigned n) {
    const unsigned wanted_threads = device_sm_count() * 1024u;  // 32 warps per SM, a quarter of an H100's capacity
    unsigned g = 1;
    while (g < 32 && static_cast<unsigned long long>(n) * g < wanted_threads) g *= 2;
    return g;
}

template <class W, class A>
void launch_hi_kernel(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                      vec3<A>* velocity, target_range targets, unsigned n_sources, const interaction_parameters<W>& p,
                      cudaStream_t stream) {
    if (kernel == hi_kernel::fused)
        throw std::invalid_argument("hi-kernel 'fused' is an engine of its own, not an all-pairs kernel");
    if (uses_fast_math(kernel))
        return launch_hi_kernel_fast<W, A>(kernel, block, position, force, velocity, targets, n_sources, p, stream);
    hi_launch<W, A> l;
    if (!make_hi_launch(l, block, position, force, velocity, targets, n_sources, stream)) return;
    dispatch_tensor(p.mobility.tensor, [&]<class Tensor>(Tensor) { launch_exact_hi_kernel<Tensor>(kernel, l, p); });
    check_launch(to_string(kernel));
}

#define STOKESIAN_INSTANTIATE(W, A)                                                                           \
    template void launch_hi_kernel<W, A>(hi_kernel, unsigned, const packed4<W>*, const packed4<W>*, vec3<A>*, \
                                         target_range, unsigned, const interaction_parameters<W>&, cudaStream_t);
STOKESIAN_INSTANTIATE(float, float)
STOKESIAN_INSTANTIATE(float, float_float)
STOKESIAN_INSTANTIATE(double, double)
#undef STOKESIAN_INSTANTIATE

}  // namespace stokesian::cuda
