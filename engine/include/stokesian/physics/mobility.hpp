#pragma once
// Hydrodynamic mobility tensors (paper, Section 2.2), in the form
//     mu_ij . F_j = mu0 [ A(r) F_j + B(r) (r . F_j) r ],   r = r_i - r_j  (minimum image),
// so that one evaluation of the coefficients (A, B) serves both mu_ij and mu_ji = mu_ij^T
// (the tensor is even in r), which the symmetric CPU reference path exploits.
//
// Written once for float and double, used by every backend. No loops, no storage.
#include <cstdint>

#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/math.hpp"

namespace stokesian {

enum class hydrodynamic_tensor : std::uint8_t {
    rotne_prager,  // Eq. (rotneMobility) for r >= 2a, Rotne-Prager-Yamakawa overlap form below
    oseen,         // Eq. (oseenTensor): point-particle limit, O(1/r) only
};

// Stokes self-mobility mu0 = 1 / (6 pi eta a) (paper, after Eq. (rotneMobility)).
inline double stokes_self_mobility(double viscosity, double radius) {
    return 1.0 / (6.0 * 3.14159265358979323846 * viscosity * radius);
}

template <class W>
struct mobility_parameters {
    W radius;         // a
    W self_mobility;  // mu0
    hydrodynamic_tensor tensor;
    W inverse_radius;  // 1/a (the overlap form multiplies by it: no division per pair)
};

template <class W>
STOKESIAN_HD_INLINE mobility_parameters<W> make_mobility_parameters(W radius, W self_mobility,
                                                                    hydrodynamic_tensor tensor) {
    return {radius, self_mobility, tensor, W(1) / radius};
}

// Coefficients of a pair tensor, in units of mu0: mu_ij = mu0 [A I + B r r].
template <class W>
struct pair_tensor {
    W identity;  // A
    W dyadic;    // B (the r r coefficient, i.e. the rhat rhat coefficient divided by r^2)
};

// r and 1/r from r^2. Exact (Fast = false, every backend's default): the correctly rounded square
// root, then the correctly rounded reciprocal, so CPU and GPU agree bit for bit. Fast (the "fast-*"
// CUDA kernels): the hardware reciprocal square root and r = r^2 (1/r), one special-function
// instruction instead of two multi-instruction IEEE sequences, a few ulp less accurate.
template <class W, bool Fast = false>
STOKESIAN_HD_INLINE void distance_and_inverse(W r2, W& r, W& inv_r) {
    if constexpr (Fast) {
        inv_r = math::rsqrt_fast(r2);
        r = r2 * inv_r;
    } else {
        r = math::sqrt(r2);
        inv_r = W(1) / r;
    }
}

// Rotne-Prager, Eq. (rotneMobility), for r >= 2a:
//   T = mu0 [ 3a/(4r) (I + rhat rhat) + a^3/(2 r^3) (I - 3 rhat rhat) ].
// For overlapping spheres, r < 2a, the far form is no longer what surface-averaging the Oseen
// flow over two spheres gives, and Rotne & Prager's positive-definiteness proof no longer applies:
// already for two spheres the transverse eigenvalue of T/mu0, 3a/(4r) + a^3/(2r^3), exceeds the
// self term 1 once r < 1.14a, so the 6x6 mobility has a negative eigenvalue (many-body
// configurations fail earlier; tests/unit/mobility_test.cpp shows it). The Rotne-Prager-Yamakawa
// overlap form (Rotne & Prager 1969; Yamakawa 1970),
//   T = mu0 [ (1 - 9r/(32a)) I + 3r/(32a) rhat rhat ],   r < 2a,
// equals the far form at r = 2a (both give 7/16 I + 3/16 rhat rhat: continuous) and keeps mu
// positive definite for every configuration.
//
// Both forms are evaluated and one is selected (no branch): the O(N^2) kernels then run straight-line
// code that the compiler can interleave across pairs. r = 0 (coincident centres) gives the self
// mobility, the limit of the overlap form.
template <class W, bool Fast = false>
STOKESIAN_HD_INLINE pair_tensor<W> rotne_prager_tensor(W r2, const mobility_parameters<W>& p) {
    W r, inv_r;
    distance_and_inverse<W, Fast>(r2, r, inv_r);
    const W a_over_r = p.radius * inv_r;
    const W far = W(0.75) * a_over_r;                          // 3a/(4r)
    const W near = W(0.5) * (a_over_r * a_over_r * a_over_r);  // a^3/(2r^3)
    const W far_identity = far + near, far_dyadic = (far - W(3) * near) * (inv_r * inv_r);
    const W overlap_identity = W(1) - (W(9) / W(32)) * (r * p.inverse_radius);
    const W overlap_dyadic = r2 == W(0) ? W(0) : (W(3) / W(32)) * (p.inverse_radius * inv_r);
    const bool apart = r >= W(2) * p.radius;
    return {apart ? far_identity : overlap_identity, apart ? far_dyadic : overlap_dyadic};
}

// Oseen, Eq. (oseenTensor): G = 1/(8 pi eta r) (I + rhat rhat) = mu0 3a/(4r) (I + rhat rhat).
// A far-field, point-particle form with no overlap regularisation: the mobility matrix it builds
// is not positive definite for close pairs (r < 1.5a); use it for far-field studies only.
template <class W, bool Fast = false>
STOKESIAN_HD_INLINE pair_tensor<W> oseen_tensor(W r2, const mobility_parameters<W>& p) {
    W r, inv_r;
    distance_and_inverse<W, Fast>(r2, r, inv_r);
    const W far = W(0.75) * (p.radius * inv_r);
    return {far, far * (inv_r * inv_r)};
}

template <class W, bool Fast = false>
STOKESIAN_HD_INLINE pair_tensor<W> pair_mobility_tensor(vec3<W> r, const mobility_parameters<W>& p) {
    const W r2 = dot(r, r);
    return p.tensor == hydrodynamic_tensor::oseen ? oseen_tensor<W, Fast>(r2, p) : rotne_prager_tensor<W, Fast>(r2, p);
}

// A separation split by the periodic tie rule (physics/interactions.hpp, split_ties): u = r with
// the components that lie exactly at +-L/2 zeroed, t = r with the others zeroed.
template <class W>
struct tie_split {
    vec3<W> untied;  // u
    vec3<W> tied;    // t
};

// mu0 [A f + B ((u . f) u + t (.) t (.) f)] ((.) the component-wise product): the velocity of the
// target caused by force f on the source, averaged over the equidistant images of tied components.
template <class W>
STOKESIAN_HD_INLINE vec3<W> apply_pair_tensor(pair_tensor<W> t, const tie_split<W>& r, vec3<W> f, W self_mobility) {
    const W projection = t.dyadic * dot(r.untied, f);
    const vec3<W> tied_part{(r.tied.x * r.tied.x) * f.x, (r.tied.y * r.tied.y) * f.y, (r.tied.z * r.tied.z) * f.z};
    return self_mobility * (t.identity * f + projection * r.untied + t.dyadic * tied_part);
}

// mu0 [A f + B (r . f) r], for a separation without ties.
template <class W>
STOKESIAN_HD_INLINE vec3<W> apply_pair_tensor(pair_tensor<W> t, vec3<W> r, vec3<W> f, W self_mobility) {
    const W projection = t.dyadic * dot(r, f);
    return self_mobility * (t.identity * f + projection * r);
}

// The self term mu_ii . F_i = mu0 F_i.
template <class W>
STOKESIAN_HD_INLINE vec3<W> self_velocity(vec3<W> f, W self_mobility) {
    return self_mobility * f;
}

}  // namespace stokesian
