// The implicit lubrication scheme on the CUDA backend (label gpu; skipped without a device): the
// head-on pair of scenarios/approaching_pairs_implicit.toml follows the lubrication law below
// s = 1e-4 without overlap, as on the CPU, and agrees with the CPU within a derived bound; every
// solve of the random aggregate meets the tolerance by its true residual or the run stops; the fused
// path refuses the scheme (the dense solve and resume of every backend:
// tests/backends/implicit_lubrication_conformance.hpp). Checks and bounds: tests/support/implicit_lubrication_checks.hpp,
// engine/docs/lubrication.md.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/converged_solves.hpp"
#include "support/implicit_lubrication_checks.hpp"
#include "support/random_cluster.hpp"
#include "support/require_device.hpp"

using namespace stokesian;
using namespace stokesian::testing_support;

namespace {

const std::filesystem::path scenario_file = std::filesystem::path(::stokesian::test_support::project_source_dir) /
                                            "scenarios" / "approaching_pairs_implicit.toml";

}  // namespace

TEST(ImplicitLubricationGpu, HeadOnGapFollowsTheLawAndAgreesWithTheCpu) {
    REQUIRE_DEVICE();
    const scenario s = load_scenario(scenario_file, "head_on");
    engine_config c = make_engine_config(s);
    c.threads = 1;
    const std::uint64_t steps = s.run.total_steps();
    c.backend = "cpu";
    const pair_track cpu = track_pair(c, s.particles, steps);
    for (const char* kernel : {"tiling", "naive", "small-tiling", "ordered-split"}) {
        SCOPED_TRACE(kernel);
        c.backend = "cuda";
        c.hi_kernel = kernel;
        const pair_track gpu = track_pair(c, s.particles, steps);
        const double u = std::ldexp(1.0, -53);
        expect_head_on_follows_the_law(gpu, s.system, s.run.dt, lubrication_tolerance(s.run.precision), u);

        // Against the CPU. The two backends run the same iteration in the same order with the same
        // rounding (krylov_arithmetic.hpp; these four HI kernels sum in the CPU's order) except for
        // the logarithm in zeta: device and host log each err by <= 1 ulp, so a resistance differs by
        // <= 2u relative, and w = m D/(1 + 2 m zeta) by <= 2u (its sensitivity to zeta is
        // 2 m zeta/(1 + 2 m zeta) < 1). Two solves that each stop at a residual rho may differ by
        // (rho_cpu + rho_gpu) |w| (support header). Per step the positions take dt w and are rounded:
        // |x| < 2 gives ulp 2u, half of it per rounding, two particles, and the rounded results differ
        // by at most the inputs' difference plus both roundings: the gap difference grows by <=
        // 4u + dt |w| (2u + rho_cpu + rho_gpu) per step. The closing speed w = -lambda s rises with s,
        // so a gap difference contracts (d dw/ds < 0): no amplification. Bitwise agreement is
        // allowed (and what happens when the logs agree).
        ASSERT_EQ(gpu.gap.size(), cpu.gap.size());
        double bound = 0.0;
        std::size_t different = 0;
        for (std::size_t k = 0; k < cpu.gap.size(); ++k) {
            if (k > 0)
                bound += 4 * u + c.dt * std::fabs(cpu.speed[k - 1]) *
                                     (2 * u + cpu.residual[k - 1] + gpu.residual[k - 1] + 64 * u);
            ASSERT_NEAR(gpu.gap[k], cpu.gap[k], bound) << "t = " << cpu.time[k];
            EXPECT_EQ(gpu.iterations[k], cpu.iterations[k]) << "t = " << cpu.time[k];
            if (gpu.gap[k] != cpu.gap[k]) ++different;
        }
        std::printf("[ %s ] GPU vs CPU: %zu of %zu gaps differ; final gaps %.17g (GPU) %.17g (CPU)\n", kernel,
                    different, cpu.gap.size(), gpu.gap.back(), cpu.gap.back());
    }
}

TEST(ImplicitLubricationGpu, EverySolveMeetsTheToleranceByItsTrueResidualOrTheRunStops) {
    // The 30-sphere aggregate of tests/core/implicit_lubrication_refinement_test.cpp on the device:
    // the solver (core/lubrication_solver.hpp, shared with the CPU) checks the true residual,
    // refines and stops the same way; every solve is checked as on the CPU. The CPU's outcome is
    // printed beside it (the backends differ at most through the device's log, engine/docs/lubrication.md).
    REQUIRE_DEVICE();
    const initial_state s = random_aggregate(30, 1, 0.01, 0.5, {0.0, 0.0, -1.0});
    for (const precision_mode& mode : implicit_solver_modes) {
        SCOPED_TRACE(to_string(mode));
        engine_config c = implicit_lubrication_config(mode, 0.01, "cuda");
        c.threads = 1;
        const checked_run gpu = run_checking_every_solve(c, s, 400, "cuda " + std::string(to_string(mode)));
        c.backend = "cpu";
        const checked_run cpu = run_checking_every_solve(c, s, 400, "cpu " + std::string(to_string(mode)));
        std::printf("[ %s ] last step checked: cuda %llu, cpu %llu; refined solves: cuda %llu, cpu %llu\n",
                    std::string(to_string(mode)).c_str(), static_cast<unsigned long long>(gpu.last_step),
                    static_cast<unsigned long long>(cpu.last_step), static_cast<unsigned long long>(gpu.refined_solves),
                    static_cast<unsigned long long>(cpu.refined_solves));
        if (mode.hi == precision::f64) {
            EXPECT_EQ(gpu.refined_solves, 0u);
            EXPECT_EQ(gpu.stop, "");
        }
    }
}

TEST(ImplicitLubricationGpu, FusedPathRefusesTheImplicitScheme) {
    REQUIRE_DEVICE();
    const scenario s = load_scenario(scenario_file, "head_on");
    engine_config c = make_engine_config(s);
    c.backend = "cuda";
    c.hi_kernel = "fused";
    EXPECT_THROW(make_engine(c, s.particles), input_error);  // one line on run.hi_kernel, exit 2
}
