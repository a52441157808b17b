#pragma once
// Timing of one hydrodynamic velocity update (the O(N^2) kernel alone) on the device, for the
// benchmarks. Host-only header.
#include <string>
#include <vector>

#include "stokesian/core/system.hpp"
#include "stokesian/numeric/precision.hpp"

namespace stokesian::cuda {

struct hi_timing {
    std::string kernel;
    precision hi;
    std::size_t particles;
    unsigned block;
    double median_ms, min_ms, max_ms;  // per velocity update, over the repeats
    int repeats;
};

// Uploads positions and forces (converted to the working precision of `hi`), warms up, then times
// `repeats` launches with CUDA events. Throws cuda_error without a device.
hi_timing time_hi_kernel(const std::string& kernel, precision hi, const system_parameters& system,
                         const std::vector<vec3<double>>& positions, const std::vector<vec3<double>>& forces,
                         int repeats, unsigned block = 128);

}  // namespace stokesian::cuda
