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

// Tie rule for the long-ranged HI: a separation component of exactly +-L/2 has two equidistant
// images, and the pair's mobility is the average over them (weight 1/2 per tied component; the
// weights 1/2, 1/4, 1/8 are exact). The average is even in each tied component, so
// mu_ij = mu_ji^T still holds and a perfect periodic lattice stays translation invariant: every
// particle sees the same neighbourhood (fcc boxes have such ties). Short-range forces never meet
// ties: the loader requires L > 2 x their cutoff.
//
// Calls visit(r) for r_ij, or for each equidistant image of a tied r_ij; returns how many images
// were visited (1, 2, 4 or 8), by which the caller divides its sum.
template <class W, class Visit>
STOKESIAN_HD_INLINE W for_each_image(vec3<W> r_ij, const box_geometry<W>& box, Visit&& visit) {
    const vec3<W> half = W(0.5) * box.edges;
    const bool tie_x = box.periodic && (r_ij.x == half.x || r_ij.x == -half.x);
    const bool tie_y = box.periodic && (r_ij.y == half.y || r_ij.y == -half.y);
    const bool tie_z = box.periodic && (r_ij.z == half.z || r_ij.z == -half.z);
    if (!(tie_x || tie_y || tie_z)) {
        visit(r_ij);
        return W(1);
    }
    W images = W(0);
    for (int sx = 0; sx < (tie_x ? 2 : 1); ++sx)
        for (int sy = 0; sy < (tie_y ? 2 : 1); ++sy)
            for (int sz = 0; sz < (tie_z ? 2 : 1); ++sz) {
                visit(vec3<W>{sx ? -r_ij.x : r_ij.x, sy ? -r_ij.y : r_ij.y, sz ? -r_ij.z : r_ij.z});
                images += W(1);
            }
    return images;
}

// mu_ij . f for a minimum-image separation r_ij, with the tie rule above. Fast: see
// distance_and_inverse (mobility.hpp).
template <class W, bool Fast = false>
STOKESIAN_HD_INLINE vec3<W> pair_velocity(vec3<W> r_ij, vec3<W> f, const interaction_parameters<W>& p) {
    const W mu0 = p.mobility.self_mobility;
    vec3<W> v{W(0), W(0), W(0)};
    bool first = true;
    const W images = for_each_image(r_ij, p.box, [&](vec3<W> r) {
        const vec3<W> c = apply_pair_tensor(pair_mobility_tensor<W, Fast>(r, p.mobility), r, f, mu0);
        v = first ? c : v + c;  // no "0 + c": keeps the untied path a single evaluation, bit for bit
        first = false;
    });
    return images == W(1) ? v : (W(1) / images) * v;
}

// mu_ij . F_j, for i == j the Stokes self term.
template <class W, bool Fast = false>
STOKESIAN_HD_INLINE vec3<W> hydrodynamic_contribution(bool self, vec3<W> r_i, vec3<W> r_j, vec3<W> f_j,
                                                     const interaction_parameters<W>& p) {
    if (self) return self_velocity(f_j, p.mobility.self_mobility);
    return pair_velocity<W, Fast>(minimum_image(r_i - r_j, p.box), f_j, p);
}

// Short-range force on i from j != i: F_int(r_ij) - zeta_sing(r_ij) . (v_i - v_j).
template <class W>
STOKESIAN_HD_INLINE vec3<W> short_range_force(vec3<W> r_i, vec3<W> r_j, vec3<W> v_i, vec3<W> v_j,
                                              const interaction_parameters<W>& p) {
    const vec3<W> r_ij = minimum_image(r_i - r_j, p.box);
    return pair_force(r_ij, p.pair) + lubrication_force(r_ij, v_i - v_j, p.lubrication);
}

}  // namespace stokesian
