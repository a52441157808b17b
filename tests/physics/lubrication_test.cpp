// Jeffrey-Onishi singular lubrication (engine/physics/include/stokesian/physics/lubrication.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "stokesian/physics/lubrication.hpp"

using namespace stokesian;

namespace {
const lubrication_parameters<double> on{true, 1.0, 1.0, 1e-6};
}

TEST(Lubrication, ResistanceAtSampleGaps) {
    // X = 1/(4s) - 9/40 ln s, Y = -1/6 ln s, evaluated independently here.
    for (double s : {1e-4, 1e-2, 0.1, 0.5, 0.9}) {
        const auto c = jeffrey_onishi_resistance(s);
        EXPECT_NEAR(c.squeeze, 0.25 / s - 0.225 * std::log(s), 1e-15 * (0.25 / s));
        EXPECT_NEAR(c.shear, -std::log(s) / 6.0, 1e-15);
    }
    // s = 0.1: X = 2.5 + 0.225 * 2.302585... = 3.01808..., Y = 0.38376...
    const auto c = jeffrey_onishi_resistance(0.1);
    EXPECT_NEAR(c.squeeze, 3.0180816, 1e-7);
    EXPECT_NEAR(c.shear, 0.3837642, 1e-7);
}

TEST(Lubrication, VanishesFromThreeRadiiOn) {
    const vec3<double> v{-1, 0.3, 0.2};
    EXPECT_EQ(lubrication_force(vec3<double>{3.0, 0, 0}, v, on).x, 0.0);
    EXPECT_EQ(lubrication_force(vec3<double>{0, 3.5, 0}, v, on).y, 0.0);
    EXPECT_NE(lubrication_force(vec3<double>{2.99, 0, 0}, v, on).x, 0.0);
    lubrication_parameters<double> off = on;
    off.enabled = false;
    EXPECT_EQ(lubrication_force(vec3<double>{2.5, 0, 0}, v, off).x, 0.0);
}

TEST(Lubrication, OpposesApproachAndShear) {
    // Sphere i at +x moving towards j (v_ij along -x): the force on i points along +x.
    const vec3<double> r_ij{2.2, 0, 0};
    const vec3<double> approach{-1, 0, 0};
    const vec3<double> f = lubrication_force(r_ij, approach, on);
    const double s = 0.2;
    EXPECT_NEAR(f.x, 0.25 / s - 0.225 * std::log(s), 1e-14);
    EXPECT_EQ(f.y, 0.0);
    // Transverse relative motion gets the shear resistance, opposing it.
    const vec3<double> g = lubrication_force(r_ij, vec3<double>{0, 0, 1}, on);
    EXPECT_NEAR(g.z, std::log(s) / 6.0, 1e-15);
    EXPECT_NEAR(g.x, 0.0, 1e-15);
    // Newton's third law: F_ji = -F_ij for r_ji = -r_ij, v_ji = -v_ij.
    const vec3<double> back = lubrication_force(-r_ij, -approach, on);
    EXPECT_EQ(back.x, -f.x);
}

TEST(Lubrication, GapIsClampedAtTheFloor) {
    const lubrication_parameters<double> p{true, 1.0, 1.0, 1e-3};
    const vec3<double> v{-1, 0, 0};
    const vec3<double> overlapping = lubrication_force(vec3<double>{1.9, 0, 0}, v, p);
    const vec3<double> at_floor = lubrication_force(vec3<double>{2.0 + 1e-3, 0, 0}, v, p);
    EXPECT_TRUE(std::isfinite(overlapping.x));
    EXPECT_NEAR(overlapping.x, at_floor.x, 1e-9 * at_floor.x);
}
