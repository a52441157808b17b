#pragma once
// The per-particle building blocks every backend loops over: the contribution of source j to
// the hydrodynamic velocity of target i (self term at j == i, paper Algorithm 1), and the
// short-range force on i from a neighbour j (pair repulsion + lubrication, paper step 2).
#include <type_traits>

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
// images, and the pair's mobility is the average over them (weight 1/2 per tied component). The
// average is even in each tied component, so mu_ij = mu_ji^T still holds and a perfect periodic
// lattice stays translation invariant: every particle sees the same neighbourhood (fcc boxes have
// such ties). Short-range forces never meet ties: the loader requires L > 2 x their cutoff.
//
// All images have the same |r|, hence the same A and B in mu0 [A I + B r r]; averaging r r over
// the sign flips of the tied components removes its cross terms with them:
//   (r r)_avg f = (u . f) u + t (.) t (.) f,
// u = r with the tied components zeroed, t = r with the untied ones zeroed, (.) the component-wise
// product. Without ties t = 0 and this is (r . f) r (physics/mobility.hpp: tie_split,
// apply_pair_tensor). pair_velocity branches on "any tie": ties are rare (none for generic positions,
// a few per cent of the pairs in a large fcc box), and the untied form saves the 15 operations of
// the tied part, which IEEE arithmetic cannot drop by itself (0 * f and x + 0 are not no-ops).
template <class W>
STOKESIAN_HD_INLINE tie_split<W> split_ties(vec3<W> r, const box_geometry<W>& box) {
    const vec3<W> half = W(0.5) * box.edges;
    const bool x = box.periodic && math::abs(r.x) == half.x;
    const bool y = box.periodic && math::abs(r.y) == half.y;
    const bool z = box.periodic && math::abs(r.z) == half.z;
    return {{x ? W(0) : r.x, y ? W(0) : r.y, z ? W(0) : r.z}, {x ? r.x : W(0), y ? r.y : W(0), z ? r.z : W(0)}};
}

// pair_velocity (below) in its two parts, so that a kernel can evaluate the expensive part -- the
// coefficients (A, B), with the square root and the division -- once per unordered pair {i, j} and
// apply it to both rows i and j. That is bitwise what pair_velocity computes for each row alone:
// r_ji = minimum_image(r_j - r_i) is r_ij with every component negated exactly (IEEE subtraction
// and minimum_image are odd, physics/box.hpp; only the sign of a zero may differ), so r_ji . r_ji ==
// r_ij . r_ij bitwise, hence the same coefficients, and a component lies at +-L/2 in r_ji exactly when
// it does in r_ij, hence the same tie flag. Each row still applies them to its own separation.
template <class W>
struct pair_mobility {
    pair_tensor<W> t;
    bool tied;  // a component of the separation lies exactly at +-L/2 (split_ties)
};

template <class Tensor = selected_tensor, bool Fast = false, class W>
STOKESIAN_HD_INLINE pair_mobility<W> evaluate_pair_mobility(vec3<W> r_ij, const interaction_parameters<W>& p) {
    const pair_tensor<W> t = pair_mobility_tensor<Tensor, Fast>(r_ij, p.mobility);
    const tie_split<W> split = split_ties(r_ij, p.box);
    return {t, split.tied.x != W(0) || split.tied.y != W(0) || split.tied.z != W(0)};
}

// mu_ij . f, with m = evaluate_pair_mobility(r_ij) or that of r_ji (the same, see above).
template <class W>
STOKESIAN_HD_INLINE vec3<W> apply_pair_mobility(const pair_mobility<W>& m, vec3<W> r_ij, vec3<W> f,
                                                const interaction_parameters<W>& p) {
    if (m.tied) return apply_pair_tensor(m.t, split_ties(r_ij, p.box), f, p.mobility.self_mobility);
    return apply_pair_tensor(m.t, r_ij, f, p.mobility.self_mobility);
}

// mu_ij . f for a minimum-image separation r_ij, with the tie rule above. Tensor: an evaluator
// (physics/tensor_registry.hpp; by default the one p names). Fast: see distance_and_inverse
// (physics/pair_tensor.hpp).
template <class Tensor = selected_tensor, bool Fast = false, class W>
STOKESIAN_HD_INLINE vec3<W> pair_velocity(vec3<W> r_ij, vec3<W> f, const interaction_parameters<W>& p) {
    return apply_pair_mobility(evaluate_pair_mobility<Tensor, Fast>(r_ij, p), r_ij, f, p);
}

// The tensor p names, dispatched once per contribution over every registered tensor, pair-form and
// block evaluators alike: hydrodynamic_contribution's default (host callers with a run-time key).
struct any_tensor {};

// mu_ii . F_i: the Stokes self term mu0 F_i, or a block evaluator's self block (the Ewald sum's
// self term includes the particle's own images).
template <class Tensor, class W>
STOKESIAN_HD_INLINE vec3<W> self_contribution(vec3<W> f, const mobility_parameters<W>& p) {
    if constexpr (block_tensor_evaluator<Tensor>) return apply_block(Tensor::self_block(p), f, p.self_mobility);
    else return self_velocity(f, p.self_mobility);
}

// mu_ij . F_j, for i == j the self term. A pair-form tensor (A I + B r r) takes the minimum image and
// the tie rule above; a block evaluator (the Ewald sum, periodic by construction: no tie rule) the
// minimum image and its block.
template <class Tensor = any_tensor, bool Fast = false, class W>
STOKESIAN_HD_INLINE vec3<W> hydrodynamic_contribution(bool self, vec3<W> r_i, vec3<W> r_j, vec3<W> f_j,
                                                      const interaction_parameters<W>& p) {
    if constexpr (std::is_same_v<Tensor, any_tensor>) {
        return dispatch_tensor(p.mobility.tensor, [&](auto t) {
            return hydrodynamic_contribution<decltype(t), Fast>(self, r_i, r_j, f_j, p);
        });
    } else {
        if (self) return self_contribution<Tensor>(f_j, p.mobility);
        if constexpr (block_tensor_evaluator<Tensor>)
            return apply_block(Tensor::template block<W, Fast>(minimum_image(r_i - r_j, p.box), p.mobility), f_j,
                               p.mobility.self_mobility);
        else return pair_velocity<Tensor, Fast>(minimum_image(r_i - r_j, p.box), f_j, p);
    }
}

// Short-range force on i from j != i: F_int(r_ij) - zeta_sing(r_ij) . (v_i - v_j) (the explicit
// scheme, the paper's model only: core/system.hpp, lubrication_model_refusal).
template <class W>
STOKESIAN_HD_INLINE vec3<W> short_range_force(vec3<W> r_i, vec3<W> r_j, vec3<W> v_i, vec3<W> v_j,
                                              const interaction_parameters<W>& p) {
    const vec3<W> r_ij = minimum_image(r_i - r_j, p.box);
    return pair_force(r_ij, p.pair) + lubrication_force(r_ij, v_i - v_j, p.lubrication);
}

// The two parts of short_range_force separately, for the implicit lubrication scheme
// (core/lubrication_solver.hpp): the pair repulsion F_int(r_ij) (part of the right-hand side F) ...
template <class W>
STOKESIAN_HD_INLINE vec3<W> pair_interaction_force(vec3<W> r_i, vec3<W> r_j, const interaction_parameters<W>& p) {
    return pair_force(minimum_image(r_i - r_j, p.box), p.pair);
}

// ... and the lubrication force -(zeta_pair u)_i for a velocity field u (the operator the solver
// applies to its search directions): -zeta_sing(r_ij) . (u_i - u_j) for the paper's model, the
// two-body model's self and pair blocks on u_i and u_j (physics/two_body_lubrication.hpp).
template <class W>
STOKESIAN_HD_INLINE vec3<W> lubrication_pair_force(vec3<W> r_i, vec3<W> r_j, vec3<W> u_i, vec3<W> u_j,
                                                   const interaction_parameters<W>& p) {
    return model_lubrication_force(minimum_image(r_i - r_j, p.box), u_i, u_j, p.lubrication);
}

// Whether i and j are within the lubrication range (s < 1 for the paper's model).
template <class W>
STOKESIAN_HD_INLINE bool lubricated_pair(vec3<W> r_i, vec3<W> r_j, const interaction_parameters<W>& p) {
    return in_lubrication_range(minimum_image(r_i - r_j, p.box), p.lubrication);
}

}  // namespace stokesian
