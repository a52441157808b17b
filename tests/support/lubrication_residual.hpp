#pragma once
// The true residual of an implicit lubrication solve, recomputed by the test in double from what
// the engine returned (engine/docs/lubrication.md, section 4). The engine's solution is its force
// array w (frame.force) with the velocities v = mu w it computed from it (frame.velocity); the
// solve is converged when the force balance F = w + zeta v holds to the tolerance:
//     r = F - w - zeta v,   ||r|| <= tolerance ||F||.
// Here zeta is evaluated in double (physics/lubrication.hpp instantiated for double) at the
// engine's working positions and velocities (the frame's values rounded to the working precision W,
// as the engine rounds them before applying zeta), independently of the engine's arithmetic.
#include <algorithm>
#include <cmath>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/physics/interactions.hpp"

namespace stokesian::testing_support {

struct double_residual {
    double relative = 0.0;            // ||F - w - zeta v|| / ||F||, zeta in double
    double rounding_allowance = 0.0;  // bound on |that - the engine's evaluation in W|, relative to ||F||
    double smallest_gap = INFINITY;
};

// x rounded to the working precision of a mode (the engine's value_cast<W>).
inline double to_working(double x, precision hi) {
    return hi == precision::f64 ? x : static_cast<double>(static_cast<float>(x));
}
inline vec3<double> to_working(vec3<double> x, precision hi) {
    return {to_working(x.x, hi), to_working(x.y, hi), to_working(x.z, hi)};
}

// F = the external forces (scenarios without a pair force). Rounding allowance: the engine
// evaluates r_W = fl(fl(F - w) + g_W), g_W = the sum over the neighbours j of the pair terms
// -(zeta_s v_n n + zeta_t v_t) (physics/lubrication.hpp; v_ij = v_i - v_j, v_n = n . v_ij, v_t the
// rest) in W, u its unit roundoff, from the same rounded positions and velocities. Against r in
// double, per particle:
//  - the two vector operations: <= 2u (|F_i| + |w_i| + |g_i|); the sum over k neighbours <= k u
//    sum_j |term_ij|;
//  - per pair: the gap s = r/a - 2 from W coordinates errs by <= 8u (r < 3a: the difference, the
//    squared norm and the root each <= 2u r), so zeta_s = 1/(4s) - 9/40 ln s by <= (8u/s)(1/(4s) +
//    9/40) and zeta_t = -ln(s)/6 by <= (8u/s)/6 (none where both evaluations floor s at min_gap);
//    their own arithmetic (log, division, sum) <= 8u relative; n = r_ij/r errs by <= 4u, moving
//    v_n and v_t by <= 8u |v_ij|; v_i - v_j is rounded once (u |v_ij|); the products and the sum of
//    the two parts <= 4u each.
inline double_residual residual_in_double(const frame& f, const std::vector<vec3<double>>& forces,
                                          const system_parameters& system, precision hi) {
    const double u = hi == precision::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
    const std::size_t n = f.position.size();
    std::vector<vec3<double>> x(n), v(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = to_working(f.position[i], hi), v[i] = to_working(f.velocity[i], hi);
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    double_residual out;
    double residual2 = 0.0, allowance2 = 0.0, force2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        vec3<double> g{0, 0, 0};  // -(zeta v)_i, the lubrication force on i
        double pair_error = 0.0, pair_terms = 0.0;
        std::size_t neighbours = 0;
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const vec3<double> rij = minimum_image(x[i] - x[j], p.box);
            if (!in_lubrication_range(rij, p.lubrication)) continue;
            const double gap = std::sqrt(dot(rij, rij)) / system.radius - 2.0;
            out.smallest_gap = std::min(out.smallest_gap, gap);
            const vec3<double> vij = v[i] - v[j];
            g += lubrication_force(rij, vij, p.lubrication);
            const double floored = system.lubrication.min_gap - 8 * u;
            const double s_used = std::max(gap, system.lubrication.min_gap);
            const double gap_error = gap < floored ? 0.0 : 8 * u / s_used;
            const lubrication_resistance<double> z = jeffrey_onishi_resistance(s_used);
            const double squeeze = z.squeeze / system.self_mobility, shear = z.shear / system.self_mobility;
            const vec3<double> n_hat = (1.0 / std::sqrt(dot(rij, rij))) * rij;
            const double v_n = std::fabs(dot(n_hat, vij));
            const vec3<double> v_t = vij - dot(n_hat, vij) * n_hat;
            const double v_ij = std::sqrt(dot(vij, vij)), v_tangential = std::sqrt(dot(v_t, v_t));
            const double squeeze_error = gap_error * (0.25 / s_used + 0.225) / system.self_mobility + 12 * u * squeeze;
            const double shear_error = gap_error / (6 * system.self_mobility) + 12 * u * shear;
            const double term = squeeze * v_n + shear * v_tangential;
            pair_error += squeeze_error * v_n + shear_error * v_tangential + 9 * u * (squeeze + shear) * v_ij;
            pair_terms += term;
            ++neighbours;
        }
        pair_error += double(neighbours) * u * pair_terms;
        const vec3<double> r = forces[i] - f.force[i] + g;
        residual2 += dot(r, r);
        force2 += dot(forces[i], forces[i]);
        const double local = 2 * u *
                                 (std::sqrt(dot(forces[i], forces[i])) + std::sqrt(dot(f.force[i], f.force[i])) +
                                  2 * std::sqrt(dot(g, g))) +
                             pair_error;
        allowance2 += local * local;
    }
    out.relative = std::sqrt(residual2 / force2);
    out.rounding_allowance = std::sqrt(allowance2 / force2);
    return out;
}

}  // namespace stokesian::testing_support
