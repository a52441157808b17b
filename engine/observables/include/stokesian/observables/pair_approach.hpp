#pragma once
// Two spheres pushed together with lubrication (scenarios/approaching_pairs.toml): what the
// lubrication law predicts for the closing of the gap s = r/a - 2, and where the paper's explicit
// scheme stops being stable. Derivation: engine/docs/observables.md ("Approaching pairs").
//
// Along the line of centres, with e = (r_0 - r_1)/r and w = e . (v_0 - v_1) = dr/dt, the implicit
// solution of v = mu (F_ext + F_int + F_lub) for the pair is
//     w = m D / (1 + 2 m zeta),   m = mu0 - mu_par(r),   D = e . (F_ext,0 - F_ext,1) + 2 e . F_int,0,
// where mu_par is the line-of-centres eigenvalue of the pair tensor and zeta the squeeze resistance
// (1/mu0)(1/(4s) - 9/40 ln s) (zero for s >= 1, s floored at min_gap, as the engine does) of the
// paper's model, or half the two-body model's correction of the difference mode along the line
// (physics/two_body_lubrication.hpp; for an isolated pair w is then the exact two-sphere speed). The
// decay rate of the gap is -d ln s/dt = -w / (a s). The explicit scheme (lubrication from the
// previous step's velocities) iterates w_n = m (D - 2 zeta w_{n-1}): its error is multiplied by the
// amplification factor g = -2 m zeta each step and grows once |g| > 1, independently of dt.
//
// Every tensor and resistance is evaluated by the physics the engines use (pair_velocity,
// lubrication_pair_force, pair_force), never re-derived.
#include "stokesian/core/system.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

struct pair_approach_prediction {
    double gap = 0.0;                  // s = r/a - 2
    double mobility_difference = 0.0;  // m = mu0 - mu_par(r)
    double squeeze_resistance = 0.0;   // zeta(s), as the engine applies it (0 outside the lubrication range)
    double driving_force = 0.0;        // D = e . (F_0 - F_1) of the non-lubrication forces
    double separation_speed = 0.0;     // w = dr/dt of the implicit solution
    double decay_rate = 0.0;           // -d ln s/dt = -w / (a s)
    double amplification = 0.0;        // g = -2 m zeta of the explicit scheme
};

pair_approach_prediction predict_pair_approach(vec3<double> r0, vec3<double> r1, vec3<double> external_force0,
                                               vec3<double> external_force1, const system_parameters& system);

// The gap below which the explicit scheme is unstable, 2 m(s) zeta(s) = 1, found by bisection on
// (min_gap, 1) (2 m zeta decreases with s there; tests/observables/pair_approach_test.cpp checks it on a
// grid). NaN when lubrication is off, the model is not the paper's (the explicit scheme runs the
// paper's model only) or the scheme is stable down to min_gap.
double explicit_lubrication_critical_gap(const system_parameters& system);

}  // namespace stokesian
