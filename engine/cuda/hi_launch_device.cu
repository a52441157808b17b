// What the HI launches read of the device: its multiprocessor count and, from it, the lanes per
// target of the split kernels, and the shared memory a block may use (hi_launch.cuh).
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <utility>

#include "far_split_shape.hpp"
#include "hi_launch.cuh"

namespace stokesian::cuda {

namespace {

// An attribute of the current device, read once per device ordinal (`fallback` when it cannot be read).
unsigned cached_device_attribute(cudaDeviceAttr attribute, unsigned fallback) {
    static std::mutex mutex;
    static std::map<std::pair<int, int>, unsigned> by_device;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        device = -1;
    }
    const std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = by_device.try_emplace({device, static_cast<int>(attribute)}, 0u);
    if (fresh) {
        int value = 0;
        if (device < 0 || cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) {
            cudaGetLastError();
            value = static_cast<int>(fallback);
        }
        it->second = static_cast<unsigned>(value);
    }
    return it->second;
}

}  // namespace

unsigned device_sm_count() { return cached_device_attribute(cudaDevAttrMultiProcessorCount, 132); }

unsigned device_shared_memory_per_block() {
    return cached_device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, 48 * 1024);
}

unsigned split_group_size(unsigned n) { return split_group_for(n, device_sm_count()); }

}  // namespace stokesian::cuda
