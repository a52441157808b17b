// Placing suite runs on GPUs (regression::balance_over_devices, place_on_gpus; `suite run --gpus`):
// longest first onto the least-loaded device, on fake device lists (no GPU needed). The costs are
// the nightly's pair-step estimates N^2 x steps (reference_data/suites/nightly.toml at full length).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "stokesian/core/errors.hpp"
#include "stokesian/regression/suite_runner.hpp"

using namespace stokesian;
using regression::balance_over_devices;

namespace {

// 4 tetrahedra at dt = 0.001 (N = 4, 2.6e8 steps), 5 at dt = 0.01 (5.17e7), 5 fcc (N = 4000, 100
// steps), 2 approaching pairs (N = 2, 5e5 steps): the nightly's 17 runs less one dt = 0.001 mode.
std::vector<double> nightly_like() {
    std::vector<double> c;
    c.reserve(16);
    for (int k = 0; k < 5; ++k) c.push_back(16.0 * 5.17e7);
    for (int k = 0; k < 4; ++k) c.push_back(16.0 * 2.6e8);
    for (int k = 0; k < 2; ++k) c.push_back(4.0 * 5e5);
    for (int k = 0; k < 5; ++k) c.push_back(4000.0 * 4000.0 * 100.0);
    return c;
}

std::vector<double> loads_of(const std::vector<double>& costs, const std::vector<std::size_t>& device, std::size_t n) {
    std::vector<double> loads(n, 0.0);
    for (std::size_t k = 0; k < costs.size(); ++k) loads[device[k]] += costs[k];
    return loads;
}

}  // namespace

TEST(SuitePlacement, TheLongestRunsSpreadOverTheDevicesAndTheShortOnesFillIn) {
    const std::vector<double> costs = nightly_like();
    for (const std::size_t n : {std::size_t{2}, std::size_t{4}}) {
        const std::vector<std::size_t> device = balance_over_devices(costs, std::vector<double>(n, 0.0));
        ASSERT_EQ(device.size(), costs.size());
        // The four dt = 0.001 tetrahedra (indices 5..8), the critical path: as evenly as they can be.
        std::vector<std::size_t> long_runs(n, 0);
        for (std::size_t k = 5; k < 9; ++k) ++long_runs[device[k]];
        for (const std::size_t count : long_runs) EXPECT_EQ(count, 4 / n) << n << " devices";
        // Greedy longest-first: no device carries more than the least-loaded one plus the largest run.
        const std::vector<double> loads = loads_of(costs, device, n);
        const double largest = *std::max_element(costs.begin(), costs.end());
        EXPECT_LE(*std::max_element(loads.begin(), loads.end()),
                  *std::min_element(loads.begin(), loads.end()) + largest);
    }
}

TEST(SuitePlacement, OneDeviceTakesEverythingTiesGoToTheLowestIndexPreloadedDevicesLessWork) {
    const std::vector<double> costs{3.0, 3.0, 1.0};
    EXPECT_EQ(balance_over_devices(costs, {0.0}), (std::vector<std::size_t>{0, 0, 0}));
    // Equal costs on empty devices: first to device 0, the next to 1, then the least loaded (1 has 3, 0 has 3: 0).
    EXPECT_EQ(balance_over_devices(costs, {0.0, 0.0}), (std::vector<std::size_t>{0, 1, 0}));
    // Device 0 already busy (a run with its own run.devices): the long runs go elsewhere first.
    EXPECT_EQ(balance_over_devices(costs, {10.0, 0.0, 0.0}), (std::vector<std::size_t>{1, 2, 1}));
    // The same input gives the same placement (a nightly placed twice lands the same way).
    EXPECT_EQ(balance_over_devices(nightly_like(), {0.0, 0.0, 0.0}),
              balance_over_devices(nightly_like(), {0.0, 0.0, 0.0}));
    EXPECT_THROW(balance_over_devices(costs, {}), std::invalid_argument);
}

TEST(SuitePlacement, HostRunsAreNeverPlacedAndGpusForThemIsBadInput) {
    std::vector<regression::prepared_run> runs(2);
    for (auto& p : runs) p.scenario_.run.backend = "cpu";
    regression::place_on_gpus(runs, {});  // not asked: nothing to do
    for (const auto& p : runs) EXPECT_FALSE(p.scenario_.run.devices.given());
    EXPECT_THROW(regression::place_on_gpus(runs, parse_device_selection("0")), input_error);
    EXPECT_THROW(regression::place_on_gpus(runs, parse_device_selection("all")), input_error);
    for (const auto& p : runs) EXPECT_FALSE(p.scenario_.run.devices.given());
}
