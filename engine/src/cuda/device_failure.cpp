// device_failure.hpp: naming the device that failed.
#include "device_failure.hpp"

#include <cuda_runtime.h>

namespace stokesian::cuda {

std::string device_name_of(int ordinal) {
    cudaDeviceProp prop{};
    if (ordinal < 0 || cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
        cudaGetLastError();  // a query that failed leaves nothing behind for the next check
        return "unknown device";
    }
    return prop.name;
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
