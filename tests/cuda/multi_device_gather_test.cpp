// The multi-device step's decomposition rehearsed on the CPU (cuda/slice_gather.hpp, the plan the
// CUDA engine runs through NCCL; engine/docs/multi-gpu.md): D "devices" are D host arrays, each
// computes the velocities of its slice slice_of(N, D, d) with the CPU's all-pairs loop, the plan's
// broadcasts (in slice order) fill in the rest, and every array must then hold the whole-range
// velocities bit for bit -- for every precision mode, every D from 1 to 5 and N below, at and
// above D (empty slices, slices that differ by one). The plan itself: offsets and sizes in bytes,
// empty slices skipped, slices that do not continue refused.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "cpu/hi_loops.hpp"
#include "cuda/slice_gather.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/system.hpp"
#include "stokesian/core/target_slices.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/tensor_registry.hpp"
#include "support/backend_modes.hpp"

using namespace stokesian;

namespace {

template <class W>
std::vector<vec3<W>> random_vectors(std::size_t n, double spread, double offset, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-spread, spread);
    std::vector<vec3<W>> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(value_cast<W>(vec3<double>{u(rng), u(rng), u(rng) + offset}));
    return v;
}

template <class Policy>
void check_decomposition(std::size_t n, unsigned devices) {
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    system_parameters system;
    system.box = {true, {9.0, 9.0, 9.0}};
    const interaction_parameters<W> p = make_interaction_parameters<W>(system);
    const auto position = random_vectors<W>(n, 4.5, 0.0, 3), force = random_vectors<W>(n, 0.3, -1.0, 5);
    const auto nothing = [] {};
    using Tensor = rotne_prager_yamakawa_tensor;  // the default tensor (any would do: the loop is the point)

    std::vector<vec3<A>> whole(n, zero_vector<A>());
    cpu::mobility_all_pairs<Tensor, W, A>({0, n}, position, force, whole, p, nothing);

    // Each device's array starts with a marker outside its slice: the gather must overwrite it.
    const vec3<A> marker = value_cast<A>(vec3<double>{7.0, 7.0, 7.0});
    std::vector<std::vector<vec3<A>>> device(devices, std::vector<vec3<A>>(n, marker));
    const std::vector<target_range> slices = slices_of(n, devices);
    std::vector<unsigned char*> bytes;
    for (unsigned d = 0; d < devices; ++d) {
        cpu::mobility_all_pairs<Tensor, W, A>(slices[d], position, force, device[d], p, nothing);
        bytes.push_back(reinterpret_cast<unsigned char*>(device[d].data()));
    }
    cuda::gather_on_host(bytes, cuda::gather_plan(slices, sizeof(vec3<A>)));
    for (unsigned d = 0; d < devices; ++d)
        ASSERT_EQ(std::memcmp(device[d].data(), whole.data(), n * sizeof(vec3<A>)), 0)
            << to_string(Policy::mode) << ", N = " << n << ", " << devices << " devices: device " << d;
}

}  // namespace

// Each precision mode a test of its own.
class MultiDeviceGatherInEveryMode : public testing::TestWithParam<precision_mode> {};

INSTANTIATE_TEST_SUITE_P(OnTheHost, MultiDeviceGatherInEveryMode, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);

TEST_P(MultiDeviceGatherInEveryMode, SlicesGatheredInOrderGiveEveryDeviceTheWholeRangeVelocitiesBitwise) {
    dispatch_precision(GetParam(), [&]<class Policy>(Policy) {
        for (unsigned devices = 1; devices <= 5; ++devices)
            for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(4), std::size_t(5), std::size_t(37)})
                check_decomposition<Policy>(n, devices);
    });
}

TEST(MultiDeviceGather, ThePlanBroadcastsEachNonEmptySliceFromItsDevice) {
    // 7 items of 24 bytes over 3 devices: [0, 3) [3, 5) [5, 7).
    const auto plan = cuda::gather_plan(slices_of(7, 3), 24);
    ASSERT_EQ(plan.size(), 3u);
    const std::size_t expected[3][3] = {{0, 0, 72}, {1, 72, 48}, {2, 120, 48}};
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(plan[k].root, expected[k][0]);
        EXPECT_EQ(plan[k].offset_bytes, expected[k][1]);
        EXPECT_EQ(plan[k].bytes, expected[k][2]);
    }
    // Two particles on four devices: two empty slices, nothing to send from them.
    const auto sparse = cuda::gather_plan(slices_of(2, 4), 12);
    ASSERT_EQ(sparse.size(), 2u);
    EXPECT_EQ(sparse[0].root, 0u);
    EXPECT_EQ(sparse[1].root, 1u);
    EXPECT_EQ(sparse[1].offset_bytes, 12u);
    // Slices out of order or with a gap are not a decomposition.
    EXPECT_THROW(cuda::gather_plan({{0, 2}, {3, 5}}, 4), std::invalid_argument);
    EXPECT_THROW(cuda::gather_plan({{2, 4}, {0, 2}}, 4), std::invalid_argument);
}
