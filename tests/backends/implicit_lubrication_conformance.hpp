#pragma once
// The implicit lubrication scheme (engine/docs/lubrication.md) on every registered backend, one
// body per behaviour, parametrised over (backend x precision mode) (support/backend_modes.hpp).
// Included by implicit_lubrication_conformance_test.cpp (the host backends, label quick) and
// implicit_lubrication_conformance_gpu_test.cpp (the device backends, label gpu).
//   ImplicitLubricationDenseSolve (the modes of implicit_solver_modes): the cluster against a dense solve.
//   ImplicitLubricationResume ({f64, f64} and {ds, f32}): a restored run is bit for bit the run.
#include <gtest/gtest.h>

#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "support/backend_modes.hpp"
#include "support/converged_solves.hpp"
#include "support/implicit_lubrication_checks.hpp"

class ImplicitLubricationDenseSolve : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class ImplicitLubricationResume : public testing::TestWithParam<stokesian::test_support::backend_mode> {};

// For the instantiations (implicit_lubrication_conformance_test.cpp, ..._gpu_test.cpp).
using stokesian::test_support::backend_mode_name;
using stokesian::test_support::backend_place;
using stokesian::test_support::in_modes;
using stokesian::test_support::registered_backend_modes;

namespace stokesian::test_support::implicit_conformance {

// The modes the resume is checked in: the reference and a mixed one.
inline constexpr precision_mode resume_modes[] = {{precision::f64, precision::f64}, {precision::ds, precision::f32}};

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
