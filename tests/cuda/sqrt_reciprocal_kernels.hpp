#pragma once
// Host side of sqrt_reciprocal_kernels.cu: math::sqrt_and_reciprocal (physics/math.hpp) against
// sqrtf and 1.0f / r on the device, float by float.
#include <cstdint>

namespace stokesian::test_support {

struct sqrt_reciprocal_census {
    std::uint64_t compared = 0;        // floats x evaluated
    std::uint64_t mismatches = 0;      // those whose r or 1/r differs in its bits from the IEEE sequence's
    std::uint32_t first_mismatch = 0;  // the bits of the smallest such x (when mismatches > 0)
};

// Every float whose bits lie in [first, last], on the device.
sqrt_reciprocal_census sqrt_reciprocal_census_on_device(std::uint32_t first, std::uint32_t last);

}  // namespace stokesian::test_support
