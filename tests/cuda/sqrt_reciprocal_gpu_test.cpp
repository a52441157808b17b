// math::sqrt_and_reciprocal (physics/math.hpp): on the device, float, its written-out fast path
// and its fallback give the bits of sqrtf and 1.0f / r for every one of the 2^32 floats (positive
// and negative, zero, subnormal, infinite, NaN); the exact kernels' pair terms rest on it.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "cuda/sqrt_reciprocal_kernels.hpp"
#include "support/require_device.hpp"

namespace stokesian {
namespace {

TEST(SqrtReciprocalGpu, EveryFloatGivesTheBitsOfTheIeeeSquareRootAndReciprocal) {
    REQUIRE_DEVICE();
    // The positive floats, then the negative ones.
    for (const auto& [first, last] : {std::pair<std::uint32_t, std::uint32_t>{0u, 0x7fffffffu},
                                      std::pair<std::uint32_t, std::uint32_t>{0x80000000u, 0xffffffffu}}) {
        const test_support::sqrt_reciprocal_census c = test_support::sqrt_reciprocal_census_on_device(first, last);
        EXPECT_EQ(c.compared, std::uint64_t(last) - first + 1);
        EXPECT_EQ(c.mismatches, 0u) << "first mismatching float: bits 0x" << std::hex << c.first_mismatch;
    }
}

}  // namespace
}  // namespace stokesian
