// What the HI launches read of the device: its multiprocessor count and, from it, the lanes per
// target of the split kernels (hi_launch.cuh).
#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include "hi_launch.cuh"

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

}  // namespace stokesian::cuda
