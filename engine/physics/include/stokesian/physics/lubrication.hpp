#pragma once
// Singular lubrication resistance of two equal spheres (Jeffrey & Onishi 1984), Eq. (lubrication):
//   mu0 F_i^sing = -[ (1/(4s) - 9/40 ln s) rhat rhat + (-1/6 ln s) (I - rhat rhat) ] . (v_i - v_j),
// with s = r/a - 2 the dimensionless surface gap and rhat = (r_i - r_j)/r. The sign makes the force
// oppose the relative motion (the paper's step 2 subtracts zeta_sing . v_ij). Truncated ad hoc at
// s = 1 (r = 3a), where ln s changes sign (paper, Section 2.3): zero for s >= 1.
//
// The explicit scheme (paper, Section 3.1) evaluates this with the previous step's velocities.
// Overlapping or touching spheres (s <= 0) make the expansion meaningless: the gap is clamped to
// min_gap (scenario key physics.lubrication.min_gap) so the force stays finite; runs report
// overlaps separately.
//
// The other model, "two-body" (physics/two_body_lubrication.hpp), replaces this one where
// lubrication_parameters::model says so; model_lubrication_force below dispatches.
#include <cstdint>

#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/math.hpp"
#include "stokesian/physics/two_body_lubrication.hpp"

namespace stokesian {

// Scenario key physics.lubrication.model (core/system.hpp): "paper" (this file's Eq. (lubrication))
// or "two-body" (physics/two_body_lubrication.hpp).
enum class lubrication_model : std::uint8_t { paper, two_body };

template <class W>
struct lubrication_parameters {
    bool enabled;
    W radius;
    W self_mobility;
    W min_gap;  // floor of s used in the resistance functions
    lubrication_model model;
};

// Resistance functions in units of 1/mu0.
template <class W>
struct lubrication_resistance {
    W squeeze;  // along the line of centres: 1/(4s) - 9/40 ln s
    W shear;    // transverse: -1/6 ln s
};

template <class W>
STOKESIAN_HD_INLINE lubrication_resistance<W> jeffrey_onishi_resistance(W gap) {
    const W log_gap = math::log(gap);
    return {W(1) / (W(4) * gap) - (W(9) / W(40)) * log_gap, -(W(1) / W(6)) * log_gap};
}

// The lubrication range: r < 3a, i.e. s < 1 (the paper's model); r < two_body_lubrication_cutoff a
// (the two-body model).
template <class W>
STOKESIAN_HD_INLINE W lubrication_cutoff(W radius) {
    return W(3) * radius;
}
template <class W>
STOKESIAN_HD_INLINE W lubrication_cutoff(const lubrication_parameters<W>& p) {
    return p.model == lubrication_model::two_body ? static_cast<W>(two_body_lubrication_cutoff) * p.radius
                                                  : lubrication_cutoff(p.radius);
}

// Whether the pair feels lubrication at all: the force below is exactly zero otherwise (the
// implicit scheme skips its solve when no pair does, core/lubrication_solver.hpp).
template <class W>
STOKESIAN_HD_INLINE bool in_lubrication_range(vec3<W> r_ij, const lubrication_parameters<W>& p) {
    const W cutoff = lubrication_cutoff(p);
    return p.enabled && dot(r_ij, r_ij) < cutoff * cutoff;
}

// Force on sphere i from the lubrication film with sphere j. r_ij = r_i - r_j, v_ij = v_i - v_j.
// Linear in v_ij: with any velocity field u in place of v this is the implicit scheme's operator,
// -(zeta u)_i summed over the neighbours j.
template <class W>
STOKESIAN_HD_INLINE vec3<W> lubrication_force(vec3<W> r_ij, vec3<W> v_ij, const lubrication_parameters<W>& p) {
    if (!in_lubrication_range(r_ij, p)) return {W(0), W(0), W(0)};
    const W r2 = dot(r_ij, r_ij);
    const W r = math::sqrt(r2);
    W gap = r / p.radius - W(2);
    if (gap < p.min_gap) gap = p.min_gap;
    const lubrication_resistance<W> c = jeffrey_onishi_resistance(gap);
    const W inv_r = W(1) / r;
    const vec3<W> n = inv_r * r_ij;
    const W normal_speed = dot(n, v_ij);
    const vec3<W> normal = normal_speed * n;
    const vec3<W> tangential = v_ij - normal;
    const W inv_mu0 = W(1) / p.self_mobility;
    return -(inv_mu0 * (c.squeeze * normal + c.shear * tangential));
}

}  // namespace stokesian

namespace stokesian {

// The lubrication force on i from j for the velocity field u, -(zeta_pair u)_i, of the model p names:
// the paper's acts on u_i - u_j alone (lubrication_force), the two-body model's on both.
template <class W>
STOKESIAN_HD_INLINE vec3<W> model_lubrication_force(vec3<W> r_ij, vec3<W> u_i, vec3<W> u_j,
                                                    const lubrication_parameters<W>& p) {
    if (p.model == lubrication_model::two_body) {
        if (!in_lubrication_range(r_ij, p)) return {W(0), W(0), W(0)};
        return two_body_lubrication_force(r_ij, u_i, u_j, p.radius, W(1) / p.self_mobility, p.min_gap);
    }
    return lubrication_force(r_ij, u_i - u_j, p);
}

}  // namespace stokesian
