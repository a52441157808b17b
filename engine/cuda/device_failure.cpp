// device_failure.hpp: naming the device that failed.
#include "device_failure.hpp"

#include <cuda_runtime.h>

#include <map>
#include <mutex>

namespace stokesian::cuda {

std::string device_name_of(int ordinal) {
    // Remembered per ordinal: after a fault the runtime may no longer answer (the engines ask once
    // at construction, so the name is known when it is needed).
    static std::mutex mutex;
    static std::map<int, std::string> known;
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto found = known.find(ordinal); found != known.end()) return found->second;
    cudaDeviceProp prop{};
    if (ordinal < 0 || cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
        cudaGetLastError();  // a query that failed leaves nothing behind for the next check
        return "unknown device";
    }
    return known[ordinal] = prop.name;
}

int current_device_ordinal() noexcept {
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return device;
}

void throw_device_failure(int ordinal, const std::string& what) {
    throw device_error(ordinal, device_name_of(ordinal), what);
}

}  // namespace stokesian::cuda
