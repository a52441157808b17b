// The launch checks of the team kernels (fused_grid_plan.cuh).
#include "fused_grid_plan.cuh"

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "cuda_check.hpp"

namespace stokesian::cuda {

void fused_grid_prepare(const void* kernel, std::size_t shared, unsigned block, const char* what) {
    // The largest shared memory each (device, kernel) was prepared for: a launch of a bare M·F is a
    // few microseconds at the paper's sizes, so the attribute and the occupancy query run once.
    static std::mutex mutex;
    static std::map<std::pair<int, const void*>, std::size_t> prepared;
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = prepared.find({device, kernel});
    if (it != prepared.end() && shared <= it->second) return;
    if (shared > 48 * 1024)
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
              (std::string("cudaFuncSetAttribute (") + what + " shared memory)").c_str());
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(block), shared),
          (std::string("cudaOccupancyMaxActiveBlocksPerMultiprocessor (") + what + ")").c_str());
    if (per_sm < 1)
        throw std::runtime_error(std::string("the ") + what + " does not fit a multiprocessor of this device");
    prepared[{device, kernel}] = shared;
}

}  // namespace stokesian::cuda
