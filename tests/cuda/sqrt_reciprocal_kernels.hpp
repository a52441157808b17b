#pragma once
// Host side of sqrt_reciprocal_kernels.cu: math::sqrt_and_reciprocal (physics/math.hpp) against
// the IEEE square root and division on the device, float by float and double by double.
#include <cstdint>
#include <vector>

namespace stokesian::test_support {

struct sqrt_reciprocal_census {
    std::uint64_t compared = 0;        // values x evaluated
    std::uint64_t mismatches = 0;      // those whose r or 1/r differs in its bits from the IEEE sequence's
    std::uint64_t first_mismatch = 0;  // the bits of the smallest such x (when mismatches > 0)
};

// Every float whose bits lie in [first, last], on the device.
sqrt_reciprocal_census sqrt_reciprocal_census_on_device(std::uint32_t first, std::uint32_t last);

// `count` doubles whose bits are the first `count` outputs of splitmix64 seeded with `seed`: every
// sign and binade about equally often, so that both sides of the fast path's range test are covered.
sqrt_reciprocal_census sqrt_reciprocal_census_random_doubles(std::uint64_t seed, std::uint64_t count);

// The doubles with the listed bits.
sqrt_reciprocal_census sqrt_reciprocal_census_doubles(const std::vector<std::uint64_t>& bits);

}  // namespace stokesian::test_support
