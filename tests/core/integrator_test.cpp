// The integrators (core/integrator.hpp): orders of convergence on the tetrahedron and bitwise
// checkpoints of the multistep state.
#include <gtest/gtest.h>

#include <cmath>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/tetrahedron.hpp"

using namespace stokesian;
using test_support::tetrahedron;

namespace {

// Positions after `duration` tau_s with time step dt, double precision.
frame run(integrator_kind kind, double dt, double duration) {
    engine_config c = make_engine_config(tetrahedron());
    c.integrator = kind;
    c.dt = dt;
    return test_support::run_tetrahedron(c, duration);
}

double distance(const frame& a, const frame& b) {
    double d = 0.0;
    for (std::size_t i = 0; i < a.position.size(); ++i) {
        const vec3<double> x = a.position[i] - b.position[i];
        d = std::max({d, std::fabs(x.x), std::fabs(x.y), std::fabs(x.z)});
    }
    return d;
}

}  // namespace

TEST(Integrators, ConvergeAtTheirOrder) {
    // Self-convergence: e(dt) = |r(dt) - r(dt/2)| ~ C dt^p, so log2(e(dt) / e(dt/2)) -> p. The
    // time steps keep the errors far above double rounding (the smallest, RK4's, ~1e-7 a) and in
    // the asymptotic regime (dt << the cycle's time scale T/2pi ~ 80 tau_s). Asserted: the measured
    // order within 0.25 of the method's order (the next term of the error expansion shifts the
    // estimate by O(dt), measured < 0.1 here).
    struct expectation {
        integrator_kind kind;
        double dt;
        double order;
    };
    for (const expectation e : {expectation{integrator_kind::euler, 0.2, 1}, expectation{integrator_kind::heun, 0.4, 2},
                                expectation{integrator_kind::ab2, 0.4, 2}, expectation{integrator_kind::rk4, 2.0, 4}}) {
        const double duration = 40.0;
        const frame coarse = run(e.kind, e.dt, duration), medium = run(e.kind, e.dt / 2, duration),
                    fine = run(e.kind, e.dt / 4, duration);
        const double order = std::log2(distance(coarse, medium) / distance(medium, fine));
        RecordProperty(std::string("order_") + std::string(to_string(e.kind)), std::to_string(order));
        EXPECT_NEAR(order, e.order, 0.25) << to_string(e.kind);
    }
}

TEST(Integrators, AllAgreeOnTheTrajectory) {
    // The four schemes approximate the same flow: after 40 tau_s at dt = 0.01 each agrees with RK4
    // (whose own error is ~1e-14 here) to its leading error term C_p dt^p, with the constants of
    // this flow measured once: Euler C_1 ~ 0.015 a, Heun C_2 ~ 5e-5 a, AB2 C_2 ~ 5e-4 a (errors
    // 1.5e-4, 5.4e-9 and 4.8e-8 a at dt = 0.01).
    // Asserted with a factor 3 above C_p dt^p, and the second-order schemes at least 1000 times
    // closer than Euler.
    const frame reference = run(integrator_kind::rk4, 0.01, 40.0);
    const double euler = distance(run(integrator_kind::euler, 0.01, 40.0), reference);
    const double heun = distance(run(integrator_kind::heun, 0.01, 40.0), reference);
    const double ab2 = distance(run(integrator_kind::ab2, 0.01, 40.0), reference);
    EXPECT_LT(euler, 3 * 0.015 * 0.01);
    EXPECT_LT(heun, 3 * 5e-5 * 1e-4);
    EXPECT_LT(ab2, 3 * 5e-4 * 1e-4);
    EXPECT_LT(1000 * std::max(heun, ab2), euler);
}

TEST(Integrators, MultistepStateSurvivesACheckpoint) {
    for (integrator_kind kind : {integrator_kind::ab2, integrator_kind::heun, integrator_kind::rk4})
        for (precision p : {precision::f32, precision::ds, precision::f64}) {
            engine_config c = make_engine_config(tetrahedron());
            c.integrator = kind;
            c.precision = {p, p};
            c.threads = 1;
            auto straight = make_engine(c, tetrahedron().particles);
            straight->advance(500);
            frame expected;
            straight->read_frame(expected);
            auto first = make_engine(c, tetrahedron().particles);
            first->advance(200);
            engine_state saved;
            first->save_state(saved);
            EXPECT_EQ(saved.history_hi.empty(), kind != integrator_kind::ab2);
            auto second = make_engine(c, tetrahedron().particles);
            second->restore_state(saved);
            second->advance(300);
            frame resumed;
            second->read_frame(resumed);
            for (std::size_t i = 0; i < 4; ++i) {
                ASSERT_EQ(resumed.position[i], expected.position[i])
                    << to_string(kind) << " " << to_string(c.precision);
                ASSERT_EQ(resumed.velocity[i], expected.velocity[i]);
            }
        }
}

TEST(Integrators, NamesRoundTripAndCostsAreStated) {
    for (integrator_kind k :
         {integrator_kind::euler, integrator_kind::heun, integrator_kind::rk4, integrator_kind::ab2})
        EXPECT_EQ(parse_integrator(to_string(k)), k);
    EXPECT_THROW(parse_integrator("rk45"), std::invalid_argument);
    EXPECT_EQ(evaluations_per_step(integrator_kind::rk4), 4);
    EXPECT_EQ(evaluations_per_step(integrator_kind::heun), 2);
}
