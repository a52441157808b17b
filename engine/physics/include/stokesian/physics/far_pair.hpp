#pragma once
// One pair of the far-field HI kernels (engine/cuda/hi_far_kernels.cuh, engine/docs/far-kernels.md),
// host and device: the separation and tie test with the box kind as a template parameter, the
// prelude both paths share (separation, r, 1/r, whether the far form may take the pair) and the far
// term. For a pair whose prelude says far, far_term gives the bits of hydrodynamic_contribution
// (tests/physics/far_form_test.cpp checks it on the host, open and periodic boxes, ties and overlaps).
#include "stokesian/config.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/mobility.hpp"
#include "stokesian/physics/tensors/far_form.hpp"

namespace stokesian {

// r_i - r_j, with minimum_image's expressions in a periodic box (physics/box.hpp), none in an open one.
template <bool Periodic, class W>
STOKESIAN_HD_INLINE vec3<W> box_separation(vec3<W> r_i, vec3<W> r_j, const box_geometry<W>& box) {
    const vec3<W> d = r_i - r_j;
    if constexpr (Periodic)
        return {minimum_image_component(d.x, box.edges.x), minimum_image_component(d.y, box.edges.y),
                minimum_image_component(d.z, box.edges.z)};
    else return d;
}

// split_ties' test (physics/interactions.hpp): a component of the separation exactly at +-L/2.
template <bool Periodic, class W>
STOKESIAN_HD_INLINE bool box_tie(vec3<W> d, const box_geometry<W>& box) {
    if constexpr (Periodic) {
        const vec3<W> half = W(0.5) * box.edges;
        return math::abs(d.x) == half.x || math::abs(d.y) == half.y || math::abs(d.z) == half.z;
    } else {
        return false;
    }
}

// What both paths share: the separation, r and 1/r (pair_mobility_tensor's r^2 and evaluate's r and
// 1/r), and whether the far form may take the pair (in its range, untied).
template <class W>
struct pair_prelude {
    vec3<W> d;
    W r, inv_r;
    bool far;
};

// Whether the far form may take the pair: in its range and untied.
template <class Tensor, bool Periodic, class W>
STOKESIAN_HD_INLINE bool far_form_takes(const pair_prelude<W>& q, const interaction_parameters<W>& p) {
    return far_form<Tensor>::applies(q.r, p.mobility) && !box_tie<Periodic>(q.d, p.box);
}

// Whether the far form certainly takes the pair of separation d and r2 = d . d, before its square
// root: far_form<Tensor>::certainly_applies and untied. Where it says yes, far_form_takes does too.
template <class Tensor, bool Periodic, class W>
STOKESIAN_HD_INLINE bool far_form_certainly_takes(vec3<W> d, W r2, const interaction_parameters<W>& p) {
    return far_form<Tensor>::certainly_applies(r2, p.mobility) && !box_tie<Periodic>(d, p.box);
}

template <class Tensor, bool Fast, bool Periodic, class W>
STOKESIAN_HD_INLINE pair_prelude<W> far_prelude(vec3<W> r_i, vec3<W> r_j, const interaction_parameters<W>& p) {
    pair_prelude<W> q;
    q.d = box_separation<Periodic>(r_i, r_j, p.box);
    distance_and_inverse<W, Fast>(dot(q.d, q.d), q.r, q.inv_r);
    q.far = far_form_takes<Tensor, Periodic>(q, p);
    return q;
}

// The preludes of K pairs (r_i[k], r_j[k]) at once: the exact square roots and reciprocals under
// one range test (math::sqrt_and_reciprocal for K), so that a kernel evaluating K pairs a step
// gives the compiler K independent sequences in one basic block. The same bits as K far_prelude.
template <class Tensor, bool Fast, bool Periodic, unsigned K, class W>
STOKESIAN_HD_INLINE void far_preludes(const vec3<W> (&r_i)[K], const vec3<W> (&r_j)[K],
                                      const interaction_parameters<W>& p, pair_prelude<W> (&q)[K]) {
    if constexpr (Fast) {
        for (unsigned k = 0; k < K; ++k) q[k] = far_prelude<Tensor, true, Periodic>(r_i[k], r_j[k], p);
    } else {
        W r2[K], r[K], inv_r[K];
        for (unsigned k = 0; k < K; ++k) {
            q[k].d = box_separation<Periodic>(r_i[k], r_j[k], p.box);
            r2[k] = dot(q[k].d, q[k].d);
        }
        math::sqrt_and_reciprocal(r2, r, inv_r);
        for (unsigned k = 0; k < K; ++k) {
            q[k].r = r[k];
            q[k].inv_r = inv_r[k];
            q[k].far = far_form_takes<Tensor, Periodic>(q[k], p);
        }
    }
}

// mu_ij F_j by the far form alone (pair_velocity's untied application of its coefficients), for a
// pair whose prelude says far; self_mobility is mu0 (a kernel that stages mu0 F passes 1).
template <class Tensor, class W>
STOKESIAN_HD_INLINE vec3<W> far_term(const pair_prelude<W>& q, vec3<W> f, const mobility_parameters<W>& p,
                                     W self_mobility) {
    return apply_pair_tensor(far_form<Tensor>::coefficients(q.inv_r, p), q.d, f, self_mobility);
}

}  // namespace stokesian
