// The CPU backend against closed forms and against itself (threads, loops); each precision mode against
// double precision: StepConformance (tests/backends/step_conformance.hpp), on every backend.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using test_support::random_spheres;

namespace {

engine_config open_box_config(precision_mode mode = reference_precision_mode) {
    engine_config c;
    c.system.box.periodic = false;
    c.precision = mode;
    c.dt = 0.01;
    c.threads = 1;
    return c;
}

initial_state two_spheres(vec3<double> separation) {
    initial_state s;
    s.positions = {{0, 0, 0}, separation};
    s.external_forces = {{0, 0, -1}, {0, 0, -1}};
    return s;
}

frame initial_frame(const engine_config& c, const initial_state& s) {
    auto e = make_engine(c, s);
    frame f;
    e->read_frame(f);
    return f;
}

}  // namespace

TEST(CpuEngine, TwoSphereSedimentationMatchesClosedForm) {
    // Two equal spheres, equal forces F = -z (units mu0 = a = F = 1). Rotne-Prager gives
    //   side by side (r perpendicular to F): v_z = -(1 + 3/(4r) + 1/(2r^3)),
    //   one above the other (r parallel to F): v_z = -(1 + 3/(2r) - 1/r^3).
    for (double r : {2.0, 2.5, 4.0, 10.0}) {
        const frame side = initial_frame(open_box_config(), two_spheres({r, 0, 0}));
        const frame above = initial_frame(open_box_config(), two_spheres({0, 0, r}));
        const double r3 = r * r * r;
        EXPECT_NEAR(side.velocity[0].z, -(1 + 0.75 / r + 0.5 / r3), 4e-16);
        EXPECT_NEAR(side.velocity[1].z, -(1 + 0.75 / r + 0.5 / r3), 4e-16);
        EXPECT_NEAR(above.velocity[0].z, -(1 + 1.5 / r - 1 / r3), 4e-16);
        EXPECT_EQ(side.velocity[0].x, 0.0);
    }
}

TEST(CpuEngine, ResultsDoNotDependOnThreadCount) {
    const initial_state s = random_spheres(300, 20.0, 2.1, 11);
    engine_config c = open_box_config({precision::ds, precision::f32});
    c.system.box = {true, {20, 20, 20}};
    c.system.lubrication.enabled = true;
    frame f1, f2;
    c.threads = 1;
    auto e1 = make_engine(c, s);
    c.threads = 3;
    auto e2 = make_engine(c, s);
    e1->advance(5);
    e2->advance(5);
    e1->read_frame(f1);
    e2->read_frame(f2);
    for (std::size_t i = 0; i < s.size(); ++i) {
        ASSERT_EQ(f1.position[i], f2.position[i]);
        ASSERT_EQ(f1.velocity[i], f2.velocity[i]);
    }
}

TEST(CpuEngine, SymmetricLoopAgreesWithAllPairsToRounding) {
    const initial_state s = random_spheres(200, 18.0, 2.1, 5);
    engine_config c = open_box_config();
    c.system.box = {true, {18, 18, 18}};
    c.hi_kernel = "symmetric";
    const frame sym = initial_frame(c, s);
    c.hi_kernel = "all-pairs";
    const frame all = initial_frame(c, s);
    // Both sum the same N terms of magnitude <= |mu0 F| ~ 1 in double, in different orders; the
    // recursive-summation bound gives |difference| <= 2 (N-1) u_64 sum|terms| <= 2 * 199 * 2^-53 * 2N.
    const double bound = 2 * 199 * std::ldexp(1.0, -53) * 2 * 200;
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_NEAR(sym.velocity[i].x, all.velocity[i].x, bound);
        EXPECT_NEAR(sym.velocity[i].z, all.velocity[i].z, bound);
    }
}
