// The fused grid kernel (engine/cuda/fused_grid_kernel.cuh: one system on the whole device, many
// whole steps per cooperative launch; label gpu, skipped without a device), one body per behaviour,
// parametrised over the nine precision modes: bit for bit the CPU without short-range forces (open
// and periodic boxes, N not a multiple of a block's targets, N beyond one block, overlapping
// pairs, systems of several rounds), bit for bit the step-by-step CUDA engine and the block kernel
// with them (the device's logf/expf may differ from the host's), sampled frames and checkpoints as
// the other engines', and chosen by the fused engine where it applies.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "support/backend_modes.hpp"
#include "support/frames.hpp"
#include "support/fused_runs.hpp"
#include "support/require_device.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using cuda::fused_kernel_choice;
using test_support::expect_bitwise_equal;
using test_support::random_spheres;
using test_support::run_engine;
using test_support::run_fused;

namespace {

struct grid_case {
    std::string what;
    engine_config config;
    initial_state state;
};

// Sizes around the kernel's edges: fewer targets than a block holds (N = 3), N not a multiple of
// the targets per block (333), beyond one block of the block kernel (1500), one round whose
// producing warps take several targets a step (2200: tiles of 17, two a step in f32, three in f64;
// 1500 in f64: two); open and periodic boxes; overlapping pairs (the Rotne-Prager-Yamakawa overlap
// form, the far path's vote failing).
std::vector<grid_case> grid_cases() {
    std::vector<grid_case> cases;
    engine_config c;
    c.dt = 0.01;
    c.system.box = {true, {30, 30, 30}};
    cases.push_back({"N = 3 periodic", c, random_spheres(3, 30.0, 3.0, 1)});
    cases.push_back({"N = 333 periodic", c, random_spheres(333, 30.0, 2.2, 2)});
    c.system.box = {false, {40, 40, 40}};
    cases.push_back({"N = 1500 open", c, random_spheres(1500, 40.0, 2.2, 3)});
    c.system.box = {false, {46, 46, 46}};
    cases.push_back({"N = 2200 open", c, random_spheres(2200, 46.0, 2.2, 5)});
    c.system.box = {true, {16, 16, 16}};
    c.dt = 0.002;
    cases.push_back({"N = 200 overlapping", c, random_spheres(200, 16.0, 1.5, 4)});
    return cases;
}

class FusedGridKernel : public testing::TestWithParam<precision_mode> {};

}  // namespace

TEST_P(FusedGridKernel, IsBitwiseTheCpuWithoutShortRangeForces) {
    REQUIRE_DEVICE();
    for (const grid_case& k : grid_cases()) {
        engine_config c = k.config;
        c.precision = GetParam();
        const std::string what = k.what + ", " + to_string(c.precision);
        const frame grid = run_fused(c, k.state, 40, fused_kernel_choice::grid);
        c.backend = "cpu";
        expect_bitwise_equal(grid, run_engine(c, k.state, 40), "grid vs cpu, " + what);
    }
}

// Systems of several rounds (N = 6000 and 6912: more targets than one round of full tiles holds on a
// device of up to 200 multiprocessors), whose producing warps take several targets a step under one
// vote on r^2 (fused_grid_terms): bit for bit the CPU, with pairs near and below 2a (the per-target
// fallback) in the open box and without them in the periodic one. On a device of 132
// multiprocessors (H100, H200) f64 takes two a step at N = 6000 (tiles of 16: groups of 8) and
// three at 6912 (tiles of 18: groups of 9, fused_grid_targets_a_step); f32 two at both.
TEST_P(FusedGridKernel, SystemsOfSeveralRoundsAreBitwiseTheCpu) {
    REQUIRE_DEVICE();
    engine_config c;
    c.dt = 0.01;
    c.precision = GetParam();
    struct system_case {
        bool periodic;
        unsigned n;
    };
    for (const system_case k : {system_case{true, 6000}, system_case{false, 6000}, system_case{false, 6912}}) {
        c.system.box = {k.periodic, {60, 60, 60}};
        const initial_state s = random_spheres(k.n, 60.0, k.periodic ? 2.2 : 1.5, k.periodic ? 11 : 12);
        const std::string what = std::string(k.periodic ? "periodic" : "open") + " N = " + std::to_string(k.n) + ", " +
                                 to_string(c.precision);
        c.backend = "";
        const frame grid = run_fused(c, s, 4, fused_kernel_choice::grid);
        c.backend = "cpu";
        expect_bitwise_equal(grid, run_engine(c, s, 4), "grid vs cpu, " + what);
    }
}

// Lubrication and the exponential repulsion: the device paths only (see the file's comment).
TEST_P(FusedGridKernel, ShortRangeForcesAreBitwiseStepByStepAndBlock) {
    REQUIRE_DEVICE();
    // A dilute start (volume fraction ~5 %, closest gap 0.2a): the explicit scheme stays stable, so the
    // frames compared are finite (an unstable run would compare NaN patterns).
    const double edge = 30.0;
    const initial_state s = random_spheres(300, edge, 2.2, 5);
    engine_config c;
    c.system.box = {true, {edge, edge, edge}};
    c.system.lubrication.enabled = true;
    c.system.pair_force = {pair_force_kind::exponential, 1.0, 0.1, 2.5};
    c.dt = 0.0005;
    c.backend = "cuda";
    c.precision = GetParam();
    const std::string what = "N = 300 short-range " + to_string(c.precision);
    const frame grid = run_fused(c, s, 60, fused_kernel_choice::grid);
    for (const vec3<double>& r : grid.position)
        ASSERT_TRUE(std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.z)) << what;
    engine_config stepped = c;
    stepped.hi_kernel = "tiling";  // the step-by-step engine: auto takes the fused one at N = 300
    expect_bitwise_equal(grid, run_engine(stepped, s, 60), "grid vs cuda, " + what);
    expect_bitwise_equal(grid, run_fused(c, s, 60, fused_kernel_choice::block), "grid vs block, " + what);
}

// Samples recorded on the device and a checkpoint resumed in a new engine equal advance + read_frame
// on the CPU.
TEST_P(FusedGridKernel, SamplesAndCheckpointsAreTheCpusFrames) {
    REQUIRE_DEVICE();
    engine_config c;
    c.system.box = {true, {24, 24, 24}};
    c.dt = 0.01;
    c.precision = GetParam();
    const initial_state s = random_spheres(250, 24.0, 2.2, 6);
    auto grid = cuda::make_fused_engine(c, s, fused_kernel_choice::grid);
    engine_config cpu_config = c;
    cpu_config.backend = "cpu";
    auto cpu = make_engine(cpu_config, s);
    grid->advance(3);
    cpu->advance(3);
    test_support::expect_samples_equal_steps(*grid, *cpu, 6, 7, to_string(c.precision));
    engine_state saved;
    grid->save_state(saved);
    grid->advance(11);
    frame continued;
    grid->read_frame(continued);
    auto resumed = cuda::make_fused_engine(c, s, fused_kernel_choice::grid);
    resumed->restore_state(saved);
    resumed->advance(11);
    frame after_resume;
    resumed->read_frame(after_resume);
    expect_bitwise_equal(after_resume, continued, to_string(c.precision) + ", resumed from a checkpoint");
    cpu->advance(11);
    frame f;
    cpu->read_frame(f);
    expect_bitwise_equal(continued, f, to_string(c.precision) + ", after the checkpoint");
}

INSTANTIATE_TEST_SUITE_P(EveryMode, FusedGridKernel, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);

// More places than resident blocks (N = 40 000: each block takes several in turn), the widest and the
// narrowest HI precision: bit for bit the CPU.
TEST(FusedGridKernelLarge, BlocksTakingSeveralPlacesAreBitwiseTheCpu) {
    REQUIRE_DEVICE();
    engine_config c;
    c.system.box = {true, {160, 160, 160}};
    c.dt = 0.01;
    const initial_state s = random_spheres(40000, 160.0, 2.2, 7);
    for (const precision_mode mode :
         {precision_mode{precision::f32, precision::f32}, precision_mode{precision::f64, precision::f64}}) {
        c.precision = mode;
        c.backend = "";
        const frame grid = run_fused(c, s, 2, fused_kernel_choice::grid);
        c.backend = "cpu";
        expect_bitwise_equal(grid, run_engine(c, s, 2), "N = 40000, " + to_string(mode));
    }
}

TEST(FusedGridKernelChoice, OneLargeSystemRunsOnTheGridAndWhatItCannotRunIsRefused) {
    REQUIRE_DEVICE();
    engine_config c;
    c.system.box = {true, {40, 40, 40}};
    const initial_state large = random_spheres(1500, 40.0, 2.2, 8);
    const auto kernel_of = [](const engine& e) { return e.description().details.at("fused_kernel"); };
    EXPECT_EQ(kernel_of(*cuda::make_fused_engine(c, large)).rfind("grid", 0), 0u) << "N = 1500, automatic";
    EXPECT_EQ(kernel_of(*cuda::make_fused_engine(c, random_spheres(4, 40.0, 3.0, 9))).rfind("pair-warp", 0), 0u)
        << "N = 4 stays on the pair-warp kernel";
    // A tensor without a far form: the grid kernel cannot sum it, and N > 1024 fits no block.
    engine_config oseen = c;
    oseen.system.tensor = hydrodynamic_tensor::oseen;
    EXPECT_THROW(cuda::make_fused_engine(oseen, large), std::invalid_argument);
    EXPECT_EQ(kernel_of(*cuda::make_fused_engine(oseen, random_spheres(300, 40.0, 2.2, 10))).rfind("block", 0), 0u)
        << "the Oseen tensor at N = 300 stays on the block kernel";
    // A batch of members beyond one block.
    std::vector<batch_member> members(2);
    for (auto& m : members) {
        m.state = large;
        m.dt = 0.01;
    }
    c.backend = "cuda";
    EXPECT_THROW(cuda::make_cuda_batch_engine(c, device_context{}, members), std::invalid_argument);
}
