// Built against an installed engine (find_package(stokesian)): M F of three spheres in an open box
// through the public API (an f64 engine's first velocities, v = mu F), checked against the
// Rotne-Prager tensor written out here, T = mu0 [3a/(4r) (I + rhat rhat) + a^3/(2r^3) (I - 3 rhat rhat)].
// Prints the velocities; exit status 0 when every component agrees to 1e-14 of the largest.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"

int main() {
    using stokesian::vec3;
    const double a = 1.0, mu0 = 1.0;
    const std::vector<vec3<double>> positions{{0.0, 0.0, 0.0}, {3.0, 0.5, -0.25}, {-1.0, 2.5, 1.75}};
    const std::vector<vec3<double>> forces{{0.0, 0.0, -1.0}, {0.5, 0.0, -1.0}, {-0.25, 1.0, 0.0}};

    stokesian::engine_config config;  // rotne-prager, open box, hi=f64,int=f64, the CPU backend
    config.system.radius = a;
    config.system.self_mobility = mu0;
    config.threads = 1;
    const auto engine = stokesian::make_engine(config, stokesian::initial_state{positions, forces});
    stokesian::frame f;
    engine->read_frame(f);

    std::vector<vec3<double>> expected(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        vec3<double> v{mu0 * forces[i].x, mu0 * forces[i].y, mu0 * forces[i].z};
        for (std::size_t j = 0; j < positions.size(); ++j) {
            if (j == i) continue;
            const double d[3] = {positions[j].x - positions[i].x, positions[j].y - positions[i].y,
                                 positions[j].z - positions[i].z};
            const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            const double identity = 0.75 * a / r + 0.5 * a * a * a / (r * r * r);
            const double dyadic = (0.75 * a / r - 1.5 * a * a * a / (r * r * r)) / (r * r);
            const double dot = d[0] * forces[j].x + d[1] * forces[j].y + d[2] * forces[j].z;
            v.x += mu0 * (identity * forces[j].x + dyadic * dot * d[0]);
            v.y += mu0 * (identity * forces[j].y + dyadic * dot * d[1]);
            v.z += mu0 * (identity * forces[j].z + dyadic * dot * d[2]);
        }
        expected[i] = v;
    }
    double largest = 0.0, worst = 0.0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        std::printf("v[%zu] = (%.17g, %.17g, %.17g)\n", i, f.velocity[i].x, f.velocity[i].y, f.velocity[i].z);
        for (const auto& [got, want] :
             {std::pair{f.velocity[i].x, expected[i].x}, std::pair{f.velocity[i].y, expected[i].y},
              std::pair{f.velocity[i].z, expected[i].z}}) {
            largest = std::max(largest, std::abs(want));
            worst = std::max(worst, std::abs(got - want));
        }
    }
    const bool agrees = worst <= 1e-14 * largest;
    std::printf("largest deviation from the Rotne-Prager sum: %.3g (of %.3g): %s\n", worst, largest,
                agrees ? "agrees" : "DISAGREES");
    return agrees ? 0 : 1;
}
