// The step-by-step CUDA engine's neighbour lists (engine/cuda/short_range_kernels.cuh: a warp a
// particle, hits compacted then sorted by index; label gpu, skipped without a device), one body
// parametrised over the nine precision modes: with lists longer than a warp and than the engine's
// first capacity (so the lists are built again, wider), the short-range forces are bit for bit the
// fused grid kernel's, whose all-pairs test (fused_grid_kernel.cuh) shares no code with the lists,
// in a periodic box (the cell list) and an open one (the scan over every particle).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "stokesian/physics/box.hpp"
#include "support/backend_modes.hpp"
#include "support/frames.hpp"
#include "support/fused_runs.hpp"
#include "support/require_device.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using test_support::expect_bitwise_equal;
using test_support::random_spheres;
using test_support::run_engine;
using test_support::run_fused;

namespace {

class NeighbourLists : public testing::TestWithParam<precision_mode> {};

// The most particles within `cutoff` of one particle (minimum image where the box is periodic).
std::size_t most_neighbours(const initial_state& s, const box_geometry<double>& box, double cutoff) {
    std::size_t most = 0;
    for (std::size_t i = 0; i < s.positions.size(); ++i) {
        std::size_t count = 0;
        for (std::size_t j = 0; j < s.positions.size(); ++j) {
            const vec3<double> d = minimum_image(s.positions[i] - s.positions[j], box);
            if (j != i && dot(d, d) < cutoff * cutoff) ++count;
        }
        most = std::max(most, count);
    }
    return most;
}

}  // namespace

TEST_P(NeighbourLists, ListsLongerThanAWarpAndTheFirstCapacityGiveTheFusedKernelsForces) {
    REQUIRE_DEVICE();
    // An exponential repulsion reaching 6a at a volume fraction of ~18 %: ~39 neighbours a particle
    // on average, beyond the lists' first capacity (32, cuda_engine.cuh) and a warp's 32 lanes. A
    // periodic edge of 24 holds four cells of 6a a side (the cell list needs three).
    const double edge = 24.0, cutoff = 6.0;
    const initial_state s = random_spheres(600, edge, 2.2, 21);
    engine_config c;
    c.system.lubrication.enabled = true;
    c.system.pair_force = {pair_force_kind::exponential, 1.0, 0.1, cutoff};
    c.dt = 0.0005;
    c.backend = "cuda";
    c.precision = GetParam();
    for (const bool periodic : {true, false}) {
        c.system.box = {periodic, {edge, edge, edge}};
        const std::string what = std::string(periodic ? "periodic" : "open") + ", " + to_string(c.precision);
        ASSERT_GT(most_neighbours(s, {periodic, {edge, edge, edge}}, cutoff), 32u) << what;
        const frame fused = run_fused(c, s, 20, cuda::fused_kernel_choice::grid);
        for (const vec3<double>& r : fused.position)
            ASSERT_TRUE(std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.z)) << what;
        expect_bitwise_equal(run_engine(c, s, 20), fused, "step by step vs grid kernel, " + what);
    }
}

INSTANTIATE_TEST_SUITE_P(EveryMode, NeighbourLists, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);
