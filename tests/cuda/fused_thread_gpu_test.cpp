// The one-thread-per-system fused kernel (engine/cuda/fused_thread_kernel.cuh, N <= 8; label gpu,
// skipped without a device): bit for bit the step-by-step CUDA engine, the CPU all-pairs loop and
// the older fused kernels (pair-warp, block), in all nine precision modes, for N = 1 ... 8, periodic
// and open boxes, with ties at +-L/2, overlapping pairs and the Oseen tensor, with short-range forces,
// sampled across launch boundaries and in batches.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/frames.hpp"
#include "support/fused_runs.hpp"
#include "support/require_device.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using cuda::fused_kernel_choice;
using test_support::random_spheres;
using test_support::run_engine;
using test_support::run_fused;

namespace {

// Every stored type widens exactly to double, so equal doubles mean equal stored values; -0 == +0
// is the one blind spot, which std::signbit closes.
using test_support::expect_bitwise_equal;

// Four spheres of an fcc cell in a periodic box of edge 4: every separation component is 0 or
// exactly +-L/2 = +-2 -- the tie rule's averaged tensor (physics/interactions.hpp) for every pair.
// Forces with all three components, so that the tied part of the tensor acts.
initial_state tied_fcc_cell() {
    initial_state s;
    s.positions = {{-2, -2, -2}, {0, 0, -2}, {0, -2, 0}, {-2, 0, 0}};
    s.external_forces = {{0.25, -0.5, -1}, {-0.125, 0.75, -1}, {0.5, 0.25, -1}, {0, -0.25, -1}};
    return s;
}

struct small_case {
    std::string what;
    engine_config config;
    initial_state state;
};

// N = 1 ... 8: periodic with the paper's tensor, open, open with the Oseen tensor, and overlapping
// pairs (min distance 1.5a < 2a: the Rotne-Prager-Yamakawa overlap form).
std::vector<small_case> small_cases() {
    std::vector<small_case> cases;
    for (unsigned n = 1; n <= 8; ++n) {
        const double edge = 10.0 + 2.0 * n;
        engine_config c;
        c.dt = 0.01;
        c.system.box = {true, {edge, edge, edge}};
        cases.push_back({"N = " + std::to_string(n) + " periodic", c, random_spheres(n, edge, 2.5, 100 + n)});
        c.system.box = {false, {edge, edge, edge}};
        cases.push_back({"N = " + std::to_string(n) + " open", c, random_spheres(n, edge, 2.5, 200 + n)});
        c.system.tensor = hydrodynamic_tensor::oseen;
        cases.push_back({"N = " + std::to_string(n) + " open oseen", c, random_spheres(n, edge, 3.0, 300 + n)});
        c.system.tensor = hydrodynamic_tensor::rotne_prager;
        c.system.box = {true, {edge, edge, edge}};
        c.dt = 0.002;
        cases.push_back({"N = " + std::to_string(n) + " overlapping", c, random_spheres(n, 0.6 * edge, 1.5, 400 + n)});
    }
    engine_config c;
    c.system.box = {true, {4, 4, 4}};
    c.dt = 0.001;
    cases.push_back({"tied fcc cell", c, tied_fcc_cell()});
    return cases;
}

}  // namespace

// The tetrahedron: thread kernel == CPU == step-by-step CUDA == pair-warp == block, all nine modes.
TEST(FusedThreadKernel, TetrahedronIsBitwiseEveryPathInEveryMode) {
    REQUIRE_DEVICE();
    const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    for (precision hi : precisions)
        for (precision in : precisions) {
            engine_config c = make_engine_config(s);
            c.precision = {hi, in};
            for (std::uint64_t steps : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(3000)}) {
                const std::string what = to_string(c.precision) + " after " + std::to_string(steps) + " steps";
                const frame thread = run_fused(c, s.particles, steps, fused_kernel_choice::thread);
                // One system: the pair-warp kernel is the default (measured 3-4.5x faster per system
                // than the thread kernel, fused_engine.cu automatic_fused_kernel).
                EXPECT_NE(
                    cuda::make_fused_engine(c, s.particles)->description().details.at("fused_kernel").find("pair-warp"),
                    std::string::npos)
                    << "one N = 4 system runs on the pair-warp kernel by default";
                expect_bitwise_equal(thread, run_fused(c, s.particles, steps, fused_kernel_choice::pair_warp),
                                     "thread vs pair-warp, " + what);
                expect_bitwise_equal(thread, run_fused(c, s.particles, steps, fused_kernel_choice::block),
                                     "thread vs block, " + what);
                engine_config stepped = c;
                stepped.backend = "cuda";
                stepped.hi_kernel = "tiling";  // the step-by-step engine: auto takes the fused one here
                expect_bitwise_equal(thread, run_engine(stepped, s.particles, steps), "thread vs cuda, " + what);
                stepped.backend = "cpu";
                stepped.hi_kernel = "";
                stepped.threads = 1;
                expect_bitwise_equal(thread, run_engine(stepped, s.particles, steps), "thread vs cpu, " + what);
            }
        }
}

// N = 1 ... 8 without short-range forces: thread kernel == CPU == step-by-step CUDA (== block).
TEST(FusedThreadKernel, SmallSystemsAreBitwiseCpuAndStepByStepInEveryMode) {
    REQUIRE_DEVICE();
    for (const small_case& k : small_cases())
        for (precision hi : precisions)
            for (precision in : precisions) {
                engine_config c = k.config;
                c.precision = {hi, in};
                const std::string what = k.what + ", " + to_string(c.precision);
                const frame thread = run_fused(c, k.state, 400, fused_kernel_choice::thread);
                c.backend = "cpu";
                c.threads = 1;
                expect_bitwise_equal(thread, run_engine(c, k.state, 400), "thread vs cpu, " + what);
                c.backend = "cuda";
                c.hi_kernel = "tiling";  // the step-by-step engine: auto takes the fused one here
                expect_bitwise_equal(thread, run_engine(c, k.state, 400), "thread vs cuda, " + what);
                expect_bitwise_equal(thread, run_fused(c, k.state, 400, fused_kernel_choice::block),
                                     "thread vs block, " + what);
            }
}

// Short-range forces (lubrication and the exponential repulsion): the device's logf/expf may differ
// from the host's by 1 ulp, so the comparison is with the device paths only (step-by-step CUDA and
// the block kernel), bitwise.
TEST(FusedThreadKernel, ShortRangeForcesAreBitwiseStepByStepAndBlock) {
    REQUIRE_DEVICE();
    for (unsigned n = 2; n <= 8; ++n) {
        const double edge = 7.0 + n;
        const initial_state s = random_spheres(n, edge, 2.4, 500 + n);
        engine_config c;
        c.system.box = {true, {edge, edge, edge}};
        c.system.lubrication.enabled = true;
        c.system.pair_force = {pair_force_kind::exponential, 1.0, 0.1, 2.5};
        c.dt = 0.001;
        c.backend = "cuda";
        for (precision hi : precisions)
            for (precision in : precisions) {
                c.precision = {hi, in};
                const std::string what = "N = " + std::to_string(n) + " short-range " + to_string(c.precision);
                const frame thread = run_fused(c, s, 300, fused_kernel_choice::thread);
                engine_config stepped = c;
                stepped.hi_kernel = "tiling";  // the step-by-step engine: auto takes the fused one here
                expect_bitwise_equal(thread, run_engine(stepped, s, 300), "thread vs cuda, " + what);
                expect_bitwise_equal(thread, run_fused(c, s, 300, fused_kernel_choice::block),
                                     "thread vs block, " + what);
            }
    }
}

// Samples recorded on the device (several per launch, more than one launch holds, and an interval
// longer than a launch) equal advance(interval) + read_frame() repeated on the block kernel.
TEST(FusedThreadKernel, SampledFramesEqualRepeatedAdvanceAcrossLaunches) {
    REQUIRE_DEVICE();
    const scenario tet =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    struct sampled_case {
        std::string what;
        engine_config config;
        initial_state state;
        std::uint64_t samples, interval;
    };
    std::vector<sampled_case> cases;
    for (precision hi : precisions)
        for (precision in : precisions) {
            engine_config c = make_engine_config(tet);
            c.precision = {hi, in};
            cases.push_back({"tetrahedron " + to_string(c.precision), c, tet.particles, 15, 41});
        }
    {
        engine_config c = make_engine_config(tet);
        c.precision = {precision::ds, precision::ds};
        cases.push_back({"tetrahedron, 7000 samples (two launches)", c, tet.particles, 7000, 41});
        cases.push_back({"tetrahedron, interval 300000 (> one launch)", c, tet.particles, 2, 300000});
    }
    {
        engine_config c;
        c.system.box = {true, {14, 14, 14}};
        c.system.lubrication.enabled = true;
        c.dt = 0.001;
        c.precision = {precision::f64, precision::ds};
        cases.push_back({"N = 7 with lubrication", c, random_spheres(7, 14.0, 2.4, 9), 10, 13});
    }
    for (auto& k : cases) {
        k.config.backend = "cuda";
        auto sampled = cuda::make_fused_engine(k.config, k.state, fused_kernel_choice::thread);
        auto stepped = cuda::make_fused_engine(k.config, k.state, fused_kernel_choice::block);
        sampled->advance(5);
        stepped->advance(5);
        test_support::expect_samples_equal_steps(*sampled, *stepped, k.samples, k.interval, k.what);
    }
}

// Batches on the thread kernel (70 members: two full warps and a partial one, two time steps):
// every member bitwise its solo run on the CPU, in all nine modes, for N = 3 (open) and N = 8
// (periodic, with a tie-free random start).
TEST(FusedThreadKernel, BatchMembersAreBitwiseTheirSoloCpuRuns) {
    REQUIRE_DEVICE();
    struct batch_case {
        std::string what;
        engine_config config;
        initial_state base;
    };
    std::vector<batch_case> cases;
    {
        engine_config c;
        c.system.box = {false, {20, 20, 20}};
        cases.push_back({"N = 3 open", c, random_spheres(3, 20.0, 3.0, 31)});
        c.system.box = {true, {26, 26, 26}};
        cases.push_back({"N = 8 periodic", c, random_spheres(8, 26.0, 3.0, 32)});
    }
    for (auto& k : cases)
        for (precision hi : precisions)
            for (precision in : precisions) {
                engine_config c = k.config;
                c.precision = {hi, in};
                c.backend = "cuda";
                std::mt19937_64 rng(7);
                std::uniform_real_distribution<double> u(-0.3, 0.3);
                std::vector<batch_member> members(70);
                for (std::size_t m = 0; m < members.size(); ++m) {
                    members[m].state = k.base;
                    for (auto& r : members[m].state.positions) r = r + vec3<double>{u(rng), u(rng), u(rng)};
                    members[m].dt = m % 2 ? 0.01 : 0.005;
                }
                auto batch = cuda::make_cuda_batch_engine(c, device_context{}, members, fused_kernel_choice::thread);
                EXPECT_NE(batch->description().details.at("fused_kernel").find("thread"), std::string::npos);
                batch->advance(150);
                batch->advance(100);
                std::vector<frame> frames;
                batch->read_frames(frames);
                ASSERT_EQ(frames.size(), members.size());
                for (std::size_t m = 0; m < members.size(); m += 3) {  // every third: the CPU is the slow part
                    engine_config solo = c;
                    solo.backend = "cpu";
                    solo.threads = 1;
                    solo.dt = members[m].dt;
                    expect_bitwise_equal(frames[m], run_engine(solo, members[m].state, 250),
                                         k.what + " " + to_string(c.precision) + ", member " + std::to_string(m));
                }
            }
}

TEST(FusedThreadKernel, RejectsSystemsItCannotRun) {
    REQUIRE_DEVICE();
    engine_config c;
    c.system.box = {true, {30, 30, 30}};
    c.backend = "cuda";
    EXPECT_THROW(cuda::make_fused_engine(c, random_spheres(9, 30.0, 2.5, 1), fused_kernel_choice::thread),
                 std::invalid_argument);
    EXPECT_THROW(cuda::make_fused_engine(c, random_spheres(6, 30.0, 2.5, 1), fused_kernel_choice::pair_warp),
                 std::invalid_argument);
    EXPECT_NE(cuda::make_fused_engine(c, random_spheres(9, 30.0, 2.5, 1))
                  ->description()
                  .details.at("fused_kernel")
                  .find("block"),
              std::string::npos);
}
