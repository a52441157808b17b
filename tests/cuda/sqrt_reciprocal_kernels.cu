// math::sqrt_and_reciprocal (physics/math.hpp) against the correctly rounded square root and
// division, for every float of a range of bit patterns. The test target compiles with the engine's
// device flags (IEEE square root and division), so sqrtf and 1.0f / r here are the sequences that
// sqrt_and_reciprocal writes out for its fast range and calls outside it.
#include <cstdint>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/sqrt_reciprocal_kernels.hpp"
#include "stokesian/physics/math.hpp"

namespace stokesian::test_support {

namespace {

// Counts the floats whose r or 1/r differ and keeps the smallest such bits (`smallest` starts at
// 0xffffffff).
__global__ void sqrt_reciprocal_kernel(std::uint32_t first, std::uint64_t count, unsigned long long* mismatches,
                                       unsigned* smallest) {
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
    unsigned long long found = 0;
    for (std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride) {
        const std::uint32_t bits = first + static_cast<std::uint32_t>(k);
        const float x = __uint_as_float(bits);
        float r, inv_r;
        math::sqrt_and_reciprocal(x, r, inv_r);
        const float ieee_r = sqrtf(x);
        const float ieee_inv_r = 1.0f / ieee_r;
        // Bits compared; a NaN equals a NaN (its payload is not part of the contract).
        const bool same_r = __float_as_uint(r) == __float_as_uint(ieee_r) || (r != r && ieee_r != ieee_r);
        const bool same_inv_r =
            __float_as_uint(inv_r) == __float_as_uint(ieee_inv_r) || (inv_r != inv_r && ieee_inv_r != ieee_inv_r);
        if (!same_r || !same_inv_r) {
            ++found;
            atomicMin(smallest, bits);
        }
    }
    if (found != 0) atomicAdd(mismatches, found);
}

}  // namespace

sqrt_reciprocal_census sqrt_reciprocal_census_on_device(std::uint32_t first, std::uint32_t last) {
    const std::uint64_t count = std::uint64_t(last) - first + 1;
    cuda::device_buffer<unsigned long long> mismatches;
    cuda::device_buffer<unsigned> smallest;
    mismatches.upload({0ull});
    smallest.upload({0xffffffffu});
    sqrt_reciprocal_kernel<<<4096, 256>>>(first, count, mismatches.data(), smallest.data());
    cuda::check_launch("sqrt_reciprocal_kernel");
    cuda::check(cudaDeviceSynchronize(), "sqrt_reciprocal_kernel");
    std::vector<unsigned long long> found;
    std::vector<unsigned> least;
    mismatches.download(found);
    smallest.download(least);
    sqrt_reciprocal_census c;
    c.compared = count;
    c.mismatches = found.at(0);
    c.first_mismatch = least.at(0);
    return c;
}

}  // namespace stokesian::test_support
