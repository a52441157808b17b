#pragma once
// The CUDA backend's hydrodynamic-interaction kernels, by name (--hi-kernel). Host-only header.
#include <string>
#include <vector>

namespace stokesian::cuda {

enum class hi_kernel {
    naive,           // paper, Algorithm 1
    tiling,          // Nyland et al.: tiles of blockDim sources in shared memory (default)
    small_tiling,    // paper, Algorithm 2: tiles of 32 loaded by the first warp
    fast_split,      // several lanes per target, fixed shuffle tree (fills the GPU at small N); fast math
    far_tiling,      // tiling with the box as a template and a warp-uniform far-field path (hi_far_kernels.cuh)
    fast_far_split,  // fast-split's lanes and order with far-tiling's far-field path, fast math
    ordered_split,   // several lanes per target, the sum in the CPU's order (hi_ordered_kernel.cuh)
    adding_warps,    // producing warps and adding warps, the sum in the CPU's order (hi_adding_warps_kernel.cuh)
    fused,           // the fused small-system engine (many steps per launch)
};

// "" -> tiling. Throws std::invalid_argument listing the names.
hi_kernel parse_hi_kernel(const std::string& name);
const char* to_string(hi_kernel k);
// Exact kernels sum in the CPU's order and reproduce the CPU backend bit for bit.
bool sums_in_cpu_order(hi_kernel k);
bool uses_fast_math(hi_kernel k);
// The block size a kernel launches with, for a run's provenance: the engine's `engine_block`, or the
// rule of a kernel that sizes its blocks itself (fast-far-split: one a multiprocessor up to a bound,
// cuda/far_split_shape.hpp; adding-warps: one team a multiprocessor, cuda/fused_grid_plan.cuh).
std::string block_size_description(hi_kernel k, unsigned engine_block);
// The kernels of the step-by-step engine, the default first (fused is an engine of its own, which
// the CUDA backend runs for the kernel name "fused": backends/cuda_registration.cpp).
std::vector<std::string> step_kernel_names();

}  // namespace stokesian::cuda
