#pragma once
// Host-side entry points of the CUDA backend's mobility checks (core/mobility_operator.hpp),
// plain C++ (engine/README.md, "Backends"); mobility_device.cu defines them.
#include <memory>
#include <vector>

#include "stokesian/core/mobility_operator.hpp"

namespace stokesian::cuda {

// v = mu F in double by the engine's exact tiling kernel (cuda/hi_kernels.cuh) on
// device.primary_ordinal(): bit for bit the CPU operator (IEEE device build).
std::unique_ptr<mobility_operator> make_cuda_mobility_operator(const system_parameters& system,
                                                               const std::vector<vec3<double>>& positions,
                                                               const device_context& device);

// The dense 3N x 3N mobility minus shift I, built in double on the device from
// hydrodynamic_contribution() (the function the host's mobility_matrix() calls: the same entries)
// and factorised by cuSOLVER (cusolverDnXpotrf, lower triangle). Checks the free memory first
// (cudaMemGetInfo): input_error naming the largest N that fits when it is too little; input_error
// when the host has no cuSOLVER (cusolver_library.hpp).
device_cholesky_result cuda_dense_cholesky(const system_parameters& system, const std::vector<vec3<double>>& positions,
                                           const device_context& device, double shift);

// The largest N whose dense matrix and workspace fit `free_bytes` of device memory.
std::size_t dense_cholesky_max_particles(double free_bytes);

}  // namespace stokesian::cuda
