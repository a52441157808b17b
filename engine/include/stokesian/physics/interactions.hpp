#pragma once
// The per-particle building blocks every backend loops over: the contribution of source j to
// the hydrodynamic velocity of target i (self term at j == i, paper Algorithm 1), and the
// short-range force on i from a neighbour j (pair repulsion + lubrication, paper step 2).
#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/physics/lubrication.hpp"
#include "stokesian/physics/mobility.hpp"
#include "stokesian/physics/pair_force.hpp"

namespace stokesian {

// Everything the kernels need, converted to the working precision W.
template <class W>
struct interaction_parameters {
    mobility_parameters<W> mobility;
    lubrication_parameters<W> lubrication;
    pair_force_parameters<W> pair;
    box_geometry<W> box;
    W short_range_cutoff;  // max of the lubrication and pair-force ranges (0: none)
};

// mu_ij . F_j, for i == j the Stokes self term.
template <class W>
STOKESIAN_HD_INLINE vec3<W> hydrodynamic_contribution(bool self, vec3<W> r_i, vec3<W> r_j, vec3<W> f_j,
                                                     const interaction_parameters<W>& p) {
    if (self) return self_velocity(f_j, p.mobility.self_mobility);
    const vec3<W> r_ij = minimum_image(r_i - r_j, p.box);
    return apply_pair_tensor(pair_mobility_tensor(r_ij, p.mobility), r_ij, f_j, p.mobility.self_mobility);
}

// Short-range force on i from j != i: F_int(r_ij) - zeta_sing(r_ij) . (v_i - v_j).
template <class W>
STOKESIAN_HD_INLINE vec3<W> short_range_force(vec3<W> r_i, vec3<W> r_j, vec3<W> v_i, vec3<W> v_j,
                                              const interaction_parameters<W>& p) {
    const vec3<W> r_ij = minimum_image(r_i - r_j, p.box);
    return pair_force(r_ij, p.pair) + lubrication_force(r_ij, v_i - v_j, p.lubrication);
}

}  // namespace stokesian
