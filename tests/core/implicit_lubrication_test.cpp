// The lubrication schemes on the CPU engine (engine/docs/lubrication.md): the explicit scheme's
// amplification factor g = -2 m zeta measured step by step (unstable below s_c = 0.282 whatever
// dt), the explicit scheme's divergence on a cluster the implicit one solves, the exact v = mu F
// without lubricated pairs, the solver's failure. The implicit scheme's dense solve and resume on
// every backend: tests/backends/implicit_lubrication_conformance.hpp.
#include <gtest/gtest.h>

#include <cmath>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/observables/pair_approach.hpp"
#include "support/backend_modes.hpp"
#include "support/implicit_lubrication_checks.hpp"

using namespace stokesian;
using namespace stokesian::testing_support;

namespace {

engine_config lubricated(lubrication_scheme scheme, precision_mode precision = reference_precision_mode) {
    engine_config c;
    c.system.box.periodic = false;
    c.system.lubrication.enabled = true;
    c.system.lubrication.scheme = scheme;
    c.precision = precision;
    c.dt = 0.001;
    c.threads = 1;
    return c;
}

initial_state head_on_pair(double gap) {
    initial_state s;
    s.positions = {{-(1 + gap / 2), 0, 0}, {1 + gap / 2, 0, 0}};
    s.external_forces = {{1, 0, 0}, {-1, 0, 0}};
    return s;
}

// The modes the pair without lubrication runs in: the reference and a mixed one.
const precision_mode unlubricated_pair_modes[] = {precision_mode{precision::f64, precision::f64},
                                                  precision_mode{precision::ds, precision::f32}};

class ImplicitLubricationEachMode : public testing::TestWithParam<precision_mode> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(UnlubricatedPairModes, ImplicitLubricationEachMode, testing::ValuesIn(unlubricated_pair_modes),
                         test_support::precision_mode_name);

TEST(ExplicitLubrication, ErrorIsMultipliedByMinusTwoMZetaEveryStepWhateverTheTimeStep) {
    // The explicit scheme computes w_n = m_n (D - 2 zeta_n w_{n-1}) (forces from the previous
    // velocities). With the implicit solution w*_n = m_n D/(1 + 2 m_n zeta_n) and g_n = -2 m_n zeta_n
    // this is exactly e_n = w_n - w*_n = g_n (e_{n-1} - (w*_n - w*_{n-1})): the error is multiplied by
    // g every step and dt enters only through the drift of w* (engine/docs/lubrication.md). Checked
    // to rounding: w_n carries ~16u |w_n| (mobility difference 9u, zeta 4u, the sum 3u), and so
    // does g_n w_{n-1} relative to its size; 64u of the sum of magnitudes is used.
    const double u = std::ldexp(1.0, -53);
    const double critical = explicit_lubrication_critical_gap(lubricated(lubrication_scheme::explicit_update).system);
    for (const double dt : {1e-8, 1e-6, 1e-3})
        for (const double gap : {0.1, 0.25, critical - 0.005, critical + 0.005, 0.35, 0.5}) {
            SCOPED_TRACE("dt = " + std::to_string(dt) + ", s = " + std::to_string(gap));
            engine_config c = lubricated(lubrication_scheme::explicit_update);
            c.dt = dt;
            const std::uint64_t steps = 40;
            const pair_track t = track_pair(c, head_on_pair(gap), steps);
            double largest_g = 0.0;
            std::size_t last = 0;  // the last step checked
            for (std::size_t n = 1; n < t.gap.size(); ++n) {
                // Once a step moves the spheres by more than 0.01 a the pair leaves the gap under test.
                if (dt * std::fabs(t.speed[n - 1]) > 1e-2) break;
                last = n;
                const double g = predict_pair_approach(t.position0[n], t.position1[n], {1, 0, 0}, {-1, 0, 0}, c.system)
                                     .amplification;
                largest_g = std::max(largest_g, std::fabs(g));
                const double e = t.speed[n] - t.predicted_speed[n],
                             e_before = t.speed[n - 1] - t.predicted_speed[n - 1];
                const double drift = t.predicted_speed[n] - t.predicted_speed[n - 1];
                const double magnitude = std::fabs(t.speed[n]) + std::fabs(g) * std::fabs(t.speed[n - 1]) +
                                         (1 + std::fabs(g)) * std::fabs(t.predicted_speed[n]);
                ASSERT_NEAR(e, g * (e_before - drift), 64 * u * magnitude) << "step " << n;
            }
            // Stable above s_c, unstable below, by the same margin on both sides -- where the pair
            // stays at its gap (dt = 1e-3 moves it by ~0.02 a in 40 steps, across s_c +- 0.005).
            ASSERT_GE(last, 2u);
            if (dt > 1e-5) continue;
            const double initial = std::fabs(t.speed[0] - t.predicted_speed[0]);
            const double final = std::fabs(t.speed[last] - t.predicted_speed[last]);
            if (gap < critical) {
                EXPECT_GT(largest_g, 1.0);
                EXPECT_GT(final, initial) << "the error grows below s_c";
            } else {
                EXPECT_LT(largest_g, 1.0);
                EXPECT_LT(final, initial) << "the error decays above s_c";
            }
        }
}

TEST(ExplicitLubrication, BelowTheCriticalGapTheVelocitiesDivergeEvenWithTinyTimeSteps) {
    // dt = 1e-8: the pair moves by ~1e-6 a in 200 steps, so g is constant; the error grows by
    // |g|^200: (1.105)^200 = 5e8 at s = 0.25 against 0.95^200 = 3.5e-5 at s = 0.3. The initial error
    // (v = mu F without lubrication) is 2 m zeta |w*| ~ |w*|.
    engine_config c = lubricated(lubrication_scheme::explicit_update);
    c.dt = 1e-8;
    const pair_track below = track_pair(c, head_on_pair(0.25), 200), above = track_pair(c, head_on_pair(0.30), 200);
    const auto relative_error = [](const pair_track& t) {
        return std::fabs(t.speed.back() / t.predicted_speed.back() - 1.0);
    };
    EXPECT_GT(relative_error(below), 1e6);
    EXPECT_LT(relative_error(above), 1e-3);
    // The implicit scheme at the same gap and dt is the law from the first evaluation on.
    const pair_track implicit = track_pair(lubricated(lubrication_scheme::implicit_solve), head_on_pair(0.25), 20);
    for (std::size_t n = 0; n < implicit.gap.size(); ++n)
        EXPECT_NEAR(implicit.speed[n] / implicit.predicted_speed[n], 1.0,
                    implicit.residual[n] + 64 * working_unit_roundoff(precision::f64));
}

TEST(ImplicitLubrication, ExplicitSchemeDivergesOnTheSameCluster) {
    // The counterpart: with rho(zeta mu) ~ 50 the explicit scheme's velocities grow ~50-fold per
    // step even at dt = 1e-8 (the spheres barely move), the implicit ones stay at the solution.
    const initial_state s = lubricated_cluster();
    engine_config c = lubricated(lubrication_scheme::explicit_update);
    c.dt = 1e-8;
    auto e = make_engine(c, s);
    e->advance(5);
    frame f;
    e->read_frame(f);
    double largest = 0.0;
    for (const auto& v : f.velocity) largest = std::max(largest, std::sqrt(dot(v, v)));
    c.system.lubrication.scheme = lubrication_scheme::implicit_solve;
    auto implicit = make_engine(c, s);
    implicit->advance(5);
    frame g;
    implicit->read_frame(g);
    double largest_implicit = 0.0;
    for (const auto& v : g.velocity) largest_implicit = std::max(largest_implicit, std::sqrt(dot(v, v)));
    EXPECT_GT(largest, 1e6 * largest_implicit);  // (~50)^5 ~ 3e8 times the initial error
    EXPECT_LT(largest_implicit, 2.0);            // |F_i| <= 1.25, |mu| ~ 1
}

TEST_P(ImplicitLubricationEachMode, WithoutALubricatedPairItIsExactlyMuF) {
    // Gap 1.5 > 1: zeta = 0, nothing is solved, and both schemes give v = mu F bit for bit.
    const precision_mode mode = GetParam();
    const auto a = make_engine(lubricated(lubrication_scheme::explicit_update, mode), head_on_pair(1.5));
    const auto b = make_engine(lubricated(lubrication_scheme::implicit_solve, mode), head_on_pair(1.5));
    a->advance(10);
    b->advance(10);
    frame fa, fb;
    a->read_frame(fa);
    b->read_frame(fb);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(fa.position[i], fb.position[i]);
        EXPECT_EQ(fa.velocity[i], fb.velocity[i]);
    }
    EXPECT_FALSE(fb.lubrication.solved);
    EXPECT_EQ(fb.lubrication.iterations, 0u);
    EXPECT_EQ(b->description().details.at("lubrication_solves"), "0");
}

TEST(ImplicitLubrication, SolverFailureIsReportedNotReturned) {
    // max_iterations = 1 on the cluster (which needs more): the solve throws instead of returning an
    // unconverged answer.
    engine_config c = lubricated(lubrication_scheme::implicit_solve);
    c.system.lubrication.max_iterations = 1;
    EXPECT_THROW(make_engine(c, lubricated_cluster()), lubrication_solver_error);
}
