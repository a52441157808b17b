// math::sqrt_and_reciprocal (physics/math.hpp), one and two values at a time, against the
// correctly rounded square root and division, value by value. The test target compiles with the
// engine's device flags (IEEE square root and division), so sqrt and 1 / r here are the sequences
// that sqrt_and_reciprocal writes out for its fast range and calls outside it.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/sqrt_reciprocal_kernels.hpp"
#include "stokesian/core/portable_random.hpp"
#include "stokesian/physics/math.hpp"

namespace stokesian::test_support {

namespace {

__device__ std::uint64_t bits_of(float x) { return __float_as_uint(x); }
__device__ std::uint64_t bits_of(double x) { return static_cast<std::uint64_t>(__double_as_longlong(x)); }
__device__ float real_of(std::uint32_t bits) { return __uint_as_float(bits); }
__device__ double real_of(std::uint64_t bits) { return __longlong_as_double(static_cast<long long>(bits)); }

// Bits compared; a NaN equals a NaN (its payload is not part of the contract).
template <class Real>
__device__ bool same(Real a, Real b) {
    return bits_of(a) == bits_of(b) || (a != a && b != b);
}

// The x of sample k: consecutive floats from `first`.
struct consecutive_floats {
    std::uint32_t first;
    __device__ std::uint32_t operator()(std::uint64_t k) const { return first + static_cast<std::uint32_t>(k); }
};
// The k-th output of splitmix64 from `seed`: bits spread evenly over every sign and exponent.
struct random_doubles {
    std::uint64_t seed;
    __device__ std::uint64_t operator()(std::uint64_t k) const {
        std::uint64_t state = seed + k * splitmix64_step;
        return splitmix64(state);
    }
};
struct listed_doubles {
    const std::uint64_t* bits;
    __device__ std::uint64_t operator()(std::uint64_t k) const { return bits[k]; }
};

// Counts the values x whose r or 1/r differ, one at a time or two at a time (x with the previous
// sample as its partner, in both places), and keeps the smallest such bits (`smallest` starts at
// all ones).
template <class Sample>
__global__ void sqrt_reciprocal_kernel(Sample sample, std::uint64_t count, unsigned long long* mismatches,
                                       unsigned long long* smallest) {
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
    unsigned long long found = 0;
    for (std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride) {
        const auto bits = sample(k);
        const auto x = real_of(bits), partner = real_of(sample(k > 0 ? k - 1 : k));
        using Real = std::remove_cv_t<decltype(x)>;
        const Real ieee_r = math::sqrt(x), ieee_inv_r = Real(1) / ieee_r;
        Real r, inv_r;
        math::sqrt_and_reciprocal(x, r, inv_r);
        bool same_bits = same(r, ieee_r) && same(inv_r, ieee_inv_r);
        const Real pairs[2][2] = {{x, partner}, {partner, x}};
        for (unsigned place = 0; place < 2; ++place) {
            Real rs[2], inv_rs[2];
            math::sqrt_and_reciprocal(pairs[place], rs, inv_rs);
            same_bits = same_bits && same(rs[place], ieee_r) && same(inv_rs[place], ieee_inv_r);
        }
        if (!same_bits) {
            ++found;
            atomicMin(smallest, static_cast<unsigned long long>(bits));
        }
    }
    if (found != 0) atomicAdd(mismatches, found);
}

template <class Sample>
sqrt_reciprocal_census census(Sample sample, std::uint64_t count) {
    cuda::device_buffer<unsigned long long> mismatches;
    cuda::device_buffer<unsigned long long> smallest;
    mismatches.upload({0ull});
    smallest.upload({~0ull});
    sqrt_reciprocal_kernel<<<4096, 256>>>(sample, count, mismatches.data(), smallest.data());
    cuda::check_launch("sqrt_reciprocal_kernel");
    cuda::check(cudaDeviceSynchronize(), "sqrt_reciprocal_kernel");
    std::vector<unsigned long long> found;
    std::vector<unsigned long long> least;
    mismatches.download(found);
    smallest.download(least);
    sqrt_reciprocal_census c;
    c.compared = count;
    c.mismatches = found.at(0);
    c.first_mismatch = least.at(0);
    return c;
}

}  // namespace

sqrt_reciprocal_census sqrt_reciprocal_census_on_device(std::uint32_t first, std::uint32_t last) {
    return census(consecutive_floats{first}, std::uint64_t(last) - first + 1);
}

sqrt_reciprocal_census sqrt_reciprocal_census_random_doubles(std::uint64_t seed, std::uint64_t count) {
    return census(random_doubles{seed}, count);
}

sqrt_reciprocal_census sqrt_reciprocal_census_doubles(const std::vector<std::uint64_t>& bits) {
    cuda::device_buffer<std::uint64_t> listed;
    listed.upload(bits);
    return census(listed_doubles{listed.data()}, bits.size());
}

}  // namespace stokesian::test_support
