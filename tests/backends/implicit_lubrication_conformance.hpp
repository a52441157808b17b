#pragma once
// The implicit lubrication scheme (engine/docs/lubrication.md) on every registered backend, one
// body per behaviour, parametrised over (backend x precision mode) (support/backend_modes.hpp).
// Included by implicit_lubrication_conformance_test.cpp (the host backends, label quick) and
// implicit_lubrication_conformance_gpu_test.cpp (the device backends, label gpu).
//   ImplicitLubricationDenseSolve (the modes of implicit_solver_modes): the cluster against a dense solve.
//   ImplicitLubricationResume ({f64, f64} and {ds, f32}): a restored run is bit for bit the run.
//   ImplicitLubricationSolves (the modes of implicit_solver_modes): every solve of a sedimenting
//     aggregate meets the tolerance by its true residual, or the run stops naming it.
//   ImplicitLubricationHeadOn (every kernel of every backend but the CPU that sums in the CPU's
//     order, hi=f64,int=f64): the head-on pair follows the lubrication law and the CPU's gaps
//     within a derived bound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/converged_solves.hpp"
#include "support/implicit_lubrication_checks.hpp"
#include "support/random_cluster.hpp"

class ImplicitLubricationDenseSolve : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class ImplicitLubricationResume : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class ImplicitLubricationSolves : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class ImplicitLubricationHeadOn : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {};

namespace stokesian::test_support::implicit_conformance {

// The modes the resume is checked in: the reference and a mixed one.
inline constexpr precision_mode resume_modes[] = {{precision::f64, precision::f64}, {precision::ds, precision::f32}};

// The mode of scenarios/approaching_pairs_implicit.toml, the one the head-on bound is derived for.
inline constexpr precision_mode head_on_modes[] = {{precision::f64, precision::f64}};

inline const std::filesystem::path head_on_scenario =
    std::filesystem::path(project_source_dir) / "scenarios" / "approaching_pairs_implicit.toml";

// The implicit scheme in an open box, dt = 0.001, one thread, on the parameter's backend and mode.
inline engine_config implicit_on(const backend_mode& p) {
    engine_config c = testing_support::implicit_lubrication_config(p.mode, 0.001, p.backend);
    c.threads = 1;
    return on_backend(c, p);
}

}  // namespace stokesian::test_support::implicit_conformance

TEST_P(ImplicitLubricationDenseSolve, ClusterVelocitiesMatchADenseSolve) {
    // Twelve spheres, six close pairs (s down to 0.004): rho(zeta mu) ~ 50, the explicit scheme
    // multiplies its error by ~50 per step. Three samples; bound: expect_cluster_matches_dense_solve()
    // (support); iterations within CG's.
    using namespace stokesian;
    using namespace stokesian::testing_support;
    const initial_state s = lubricated_cluster();
    const engine_config c = test_support::implicit_conformance::implicit_on(GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    auto e = make_engine(c, s);
    frame f;
    for (int k = 0; k < 3; ++k) {
        e->read_frame(f);
        const double u = working_unit_roundoff(c.precision.hi);
        expect_cluster_matches_dense_solve(f, s.external_forces, c.system, u, "step " + std::to_string(f.step));
        const dense_reference ref = dense_implicit_solution(f.position, s.external_forces, c.system);
        EXPECT_GT(ref.spectral_radius, 10.0);
        EXPECT_LE(f.lubrication.iterations,
                  cg_iteration_bound(ref.spectral_radius, lubrication_tolerance(c.precision)));
        EXPECT_LE(f.lubrication.relative_residual, lubrication_tolerance(c.precision));
        EXPECT_EQ(f.lubrication.lubricated_pairs, 11u);  // 6 close pairs + 5 links between them
        e->advance(5);
    }
}

TEST_P(ImplicitLubricationResume, ResumesBitForBit) {
    // The solver's starting guess is the previous forces, part of engine_state: a restored engine
    // continues bit for bit (also the iteration counts of each solve).
    using namespace stokesian;
    const initial_state s = testing_support::lubricated_cluster();
    const engine_config c = test_support::implicit_conformance::implicit_on(GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    testing_support::expect_restored_run_is_bitwise(c, s, 12, 18);
}

TEST_P(ImplicitLubricationSolves, EverySolveMeetsTheToleranceByItsTrueResidualOrTheRunStops) {
    // 30 spheres, gaps 0.01 ... 0.5 a at t = 0, F = (0, 0, -1) each: sedimenting, the aggregate
    // squeezes pairs together; by steps 300-400 (dt = 0.01) the smallest gap is ~1e-4 a, where the
    // recurrence residual drifts from the true one in float. Every solve of every step meets the
    // tolerance by its true residual -- recomputed in double, independently of the engine's
    // arithmetic (support/converged_solves.hpp) -- or the run stops with lubrication_solver_error
    // naming the true relative residual; the solver (core/lubrication_solver.hpp) is shared by the
    // backends. A solver that stopped on the recurrence residual returned, on the CPU in these 400
    // steps, 10 solves above the tolerance in hi=ds (up to 1.9x) and 52 in hi=f32 (up to 7.5x).
    using namespace stokesian;
    using namespace stokesian::testing_support;
    const initial_state s = random_aggregate(30, 1, 0.01, 0.5, {0.0, 0.0, -1.0});
    engine_config c = implicit_lubrication_config(GetParam().mode, 0.01, GetParam().backend);
    c.threads = 1;
    c = test_support::on_backend(c, GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    const checked_run r = run_checking_every_solve(c, s, 400, c.backend + " " + to_string(c.precision));
    if (c.precision.hi == precision::f64) {
        // Double resolves every solve of this run: no refinement (the f64 iterates are those of the
        // solver without refinement, bit for bit) and no stop.
        EXPECT_EQ(r.refined_solves, 0u);
        EXPECT_EQ(r.stop, "");
    } else {
        // The refinement path itself is exercised: it rescues drifted float solves before the gaps
        // become too small for float to resolve at all.
        EXPECT_GT(r.refined_solves, 0u);
    }
}

TEST_P(ImplicitLubricationHeadOn, GapFollowsTheLawAndAgreesWithTheCpu) {
    // The head-on pair of scenarios/approaching_pairs_implicit.toml follows the lubrication law below
    // s = 1e-4 without overlap (expect_head_on_follows_the_law, support), on the parameter's kernel.
    using namespace stokesian;
    using namespace stokesian::testing_support;
    const scenario s = load_scenario(test_support::implicit_conformance::head_on_scenario, "head_on");
    engine_config c = make_engine_config(s);
    c.threads = 1;
    c = test_support::on_backend(c, GetParam());
    if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) GTEST_SKIP() << why;
    const std::uint64_t steps = s.run.total_steps();
    engine_config cpu = c;
    cpu.backend = "cpu";
    cpu.hi_kernel = "";
    const pair_track on_cpu = track_pair(cpu, s.particles, steps);
    const pair_track t = track_pair(c, s.particles, steps);
    const double u = std::ldexp(1.0, -53);
    expect_head_on_follows_the_law(t, s.system, s.run.dt, lubrication_tolerance(s.run.precision), u);

    // Against the CPU. The two backends run the same iteration in the same order with the same
    // rounding (krylov_arithmetic.hpp; these HI kernels sum in the CPU's order) except for the
    // logarithm in zeta: the backend's and the host's log each err by <= 1 ulp, so a resistance
    // differs by <= 2u relative, and w = m D/(1 + 2 m zeta) by <= 2u (its sensitivity to zeta is
    // 2 m zeta/(1 + 2 m zeta) < 1). Two solves that each stop at a residual rho may differ by
    // (rho_cpu + rho) |w| (support header). Per step the positions take dt w and are rounded: |x| < 2
    // gives ulp 2u, half of it per rounding, two particles, and the rounded results differ by at most
    // the inputs' difference plus both roundings: the gap difference grows by <= 4u + dt |w| (2u +
    // rho_cpu + rho) per step. The closing speed w = -lambda s rises with s, so a gap difference
    // contracts (d dw/ds < 0): no amplification. Bitwise agreement is allowed (and what happens when
    // the logs agree).
    ASSERT_EQ(t.gap.size(), on_cpu.gap.size());
    double bound = 0.0;
    std::size_t different = 0;
    for (std::size_t k = 0; k < on_cpu.gap.size(); ++k) {
        if (k > 0)
            bound += 4 * u + c.dt * std::fabs(on_cpu.speed[k - 1]) *
                                 (2 * u + on_cpu.residual[k - 1] + t.residual[k - 1] + 64 * u);
        ASSERT_NEAR(t.gap[k], on_cpu.gap[k], bound) << "t = " << on_cpu.time[k];
        EXPECT_EQ(t.iterations[k], on_cpu.iterations[k]) << "t = " << on_cpu.time[k];
        if (t.gap[k] != on_cpu.gap[k]) ++different;
    }
    std::printf("[ %s %s ] against the CPU: %zu of %zu gaps differ; final gaps %.17g (%s) %.17g (CPU)\n",
                c.backend.c_str(), c.hi_kernel.c_str(), different, on_cpu.gap.size(), t.gap.back(), c.backend.c_str(),
                on_cpu.gap.back());
}
