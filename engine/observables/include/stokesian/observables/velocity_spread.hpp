#pragma once
// The mean particle velocity and how far the particles' velocities spread about it. On a perfect
// periodic lattice every particle has the same exact velocity (translation invariance, kept by the
// exact coordinates and the tie rule: core/lattice.hpp, physics/interactions.hpp), so the spread at
// t = 0 is pure rounding of the HI sums; a perturbed lattice shows how the spread grows.
#include <span>

#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

struct velocity_spread {
    vec3<double> mean{};         // <v> = (1/N) sum_i v_i, compensated (Neumaier) summation
    double max_deviation = 0.0;  // max_i |v_i - <v>|
    double rms_deviation = 0.0;  // sqrt((1/N) sum_i |v_i - <v>|^2)
};

// The mean is summed with Neumaier's compensation, so its own rounding (~ 1 ulp of |<v>|) stays far
// below the spreads it is compared with (~ N ulp in f64, engine/docs/observables.md).
velocity_spread compute_velocity_spread(std::span<const vec3<double>> velocities);

}  // namespace stokesian
