// The step-by-step CUDA engine's neighbour lists (engine/cuda/short_range_kernels.cuh: a warp a
// particle, hits compacted then sorted by index; label gpu, skipped without a device), parametrised
// over the nine precision modes, with rows longer than a warp and than the lists' first capacity of
// 32 (cuda_engine.cuh). The first build's rows overflow it, so the initial forces are summed from
// every particle (neighbour_rows.cuh); the capacity then follows the longest row and later steps
// read the lists. Every sum must be the CPU's order either way:
//   - the explicit scheme's short-range forces against the fused block kernel's, whose serial loop
//     over every particle (fused_kernels.cuh) shares no code with the lists or with their fallback
//     (the fused grid kernel shares the fallback's loop, add_over_every_particle), in a periodic box
//     (the cell list) and an open one (the scan over every particle);
//   - the implicit scheme's right-hand side and lubrication products (krylov_kernels.cuh) against
//     the CPU backend, with the two-body model (the CPU's bits on a device,
//     tests/backends/two_body_lubrication_conformance.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
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
#include "support/two_sphere_table.hpp"

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
    // periodic edge of 24 holds four cells of 6a a side (the cell list needs three). A decay length
    // of 1a keeps every term within e^-4 of the nearest, so that another order of the sum changes
    // its bits. The frame of step 0 holds the first build's forces (its rows overflow, so they are
    // summed from every particle); step 20's those of the grown lists.
    const double edge = 24.0, cutoff = 6.0;
    const initial_state s = random_spheres(600, edge, 2.2, 21);
    engine_config c;
    c.system.lubrication.enabled = true;
    c.system.pair_force = {pair_force_kind::exponential, 1.0, 1.0, cutoff};
    c.dt = 0.0005;
    c.backend = "cuda";
    c.hi_kernel = "adding-warps";  // an exact step-by-step kernel: auto would take the fused engine here
    c.precision = GetParam();
    for (const bool periodic : {true, false}) {
        c.system.box = {periodic, {edge, edge, edge}};
        const std::string what = std::string(periodic ? "periodic" : "open") + ", " + to_string(c.precision);
        ASSERT_GT(most_neighbours(s, {periodic, {edge, edge, edge}}, cutoff), 32u) << what;
        for (const std::uint64_t steps : {0u, 20u}) {
            const std::string when = what + ", step " + std::to_string(steps);
            const frame fused = run_fused(c, s, steps, cuda::fused_kernel_choice::block);
            for (const vec3<double>& r : fused.position)
                ASSERT_TRUE(std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.z)) << when;
            expect_bitwise_equal(run_engine(c, s, steps), fused, "step by step vs block kernel, " + when);
        }
    }
}

TEST_P(NeighbourLists, RowsBeyondTheFirstCapacityGiveTheCpusBitsInTheImplicitScheme) {
    REQUIRE_DEVICE();
    // The two-body model's short-range cutoff (5.5a) at n ~ 0.058 a^-3 inside an open cube: ~28
    // neighbours a particle on average, beyond 32 for a third of them (fewer at the faces). No pair
    // force: its exponential is the device's, not the CPU's. Step 0: the first build's rows overflow
    // (the initial solve sums them from every particle); step 3: the grown lists.
    const double edge = 19.0;
    const initial_state s = random_spheres(400, edge, 2.2, 22);
    engine_config c = testing_support::isolated_pair_config(lubrication_model::two_body, GetParam());
    c.dt = 0.001;
    const std::string what = "implicit, " + to_string(c.precision);
    ASSERT_GT(most_neighbours(s, {false, {edge, edge, edge}}, c.system.short_range_cutoff()), 32u) << what;
    engine_config gpu_config = c;
    gpu_config.backend = "cuda";
    for (const std::uint64_t steps : {0u, 3u}) {
        const std::string when = what + ", step " + std::to_string(steps);
        const frame cpu = run_engine(c, s, steps);
        ASSERT_GT(cpu.lubrication.lubricated_pairs, 0u) << when;
        const frame gpu = run_engine(gpu_config, s, steps);
        expect_bitwise_equal(gpu, cpu, "step by step vs the CPU, " + when);
        EXPECT_EQ(gpu.lubrication.lubricated_pairs, cpu.lubrication.lubricated_pairs) << when;
        EXPECT_EQ(gpu.lubrication.iterations, cpu.lubrication.iterations) << when;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryMode, NeighbourLists, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);
