#include "stokesian/observables/pair_approach.hpp"

#include <cmath>
#include <limits>

#include "stokesian/physics/interactions.hpp"

namespace stokesian {

pair_approach_prediction predict_pair_approach(vec3<double> r0, vec3<double> r1, vec3<double> external_force0,
                                               vec3<double> external_force1, const system_parameters& system) {
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    const double a = system.radius, mu0 = system.self_mobility;
    const vec3<double> r01 = minimum_image(r0 - r1, p.box);
    const double r = std::sqrt(dot(r01, r01));
    const vec3<double> e = (1.0 / r) * r01;

    pair_approach_prediction out;
    out.gap = r / a - 2.0;
    // mu_par: velocity of 0 along e caused by a unit force along e on 1.
    const double mu_parallel = dot(e, pair_velocity(r01, e, p));
    out.mobility_difference = mu0 - mu_parallel;
    // zeta: the engine's lubrication force on 0 for a unit separation speed along e (u_0 = e/2,
    // u_1 = -e/2) is -zeta e. The paper's model sees u_0 - u_1 = e exactly (halving and the
    // difference of opposites are exact); the two-body model's sum mode is not excited.
    const vec3<double> half = 0.5 * e;
    out.squeeze_resistance = -dot(e, lubrication_pair_force(r0, r1, half, -half, p));
    // Pair forces are equal and opposite, so they enter the difference twice.
    out.driving_force = dot(e, external_force0 - external_force1) + 2.0 * dot(e, pair_force(r01, p.pair));
    const double m = out.mobility_difference, zeta = out.squeeze_resistance;
    out.separation_speed = m * out.driving_force / (1.0 + 2.0 * m * zeta);
    out.decay_rate = -out.separation_speed / (a * out.gap);
    out.amplification = -2.0 * m * zeta;
    return out;
}

double explicit_lubrication_critical_gap(const system_parameters& system) {
    constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
    if (!system.lubrication.enabled || system.lubrication.model != lubrication_model::paper) return not_a_number;
    system_parameters open = system;
    open.box.periodic = false;  // the pair alone, whatever box the scenario has
    const double a = system.radius;
    auto excess = [&](double s) {  // 2 m zeta - 1 at gap s, along x
        const pair_approach_prediction q =
            predict_pair_approach({0.0, 0.0, 0.0}, {-(2.0 + s) * a, 0.0, 0.0}, {}, {}, open);
        return -q.amplification - 1.0;
    };
    double stable = std::nextafter(1.0, 0.0), unstable = system.lubrication.min_gap;
    if (!(excess(unstable) > 0.0) || excess(stable) > 0.0) return not_a_number;
    for (int k = 0; k < 200 && unstable < stable; ++k) {
        const double middle = 0.5 * (stable + unstable);
        if (middle <= unstable || middle >= stable) break;
        (excess(middle) > 0.0 ? unstable : stable) = middle;
    }
    return 0.5 * (stable + unstable);
}

}  // namespace stokesian
