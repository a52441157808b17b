#pragma once
// Rotne-Prager, Eq. (rotneMobility), for r >= 2a:
//   T = mu0 [ 3a/(4r) (I + rhat rhat) + a^3/(2 r^3) (I - 3 rhat rhat) ].
// For overlapping spheres, r < 2a, the far form is no longer what surface-averaging the Oseen
// flow over two spheres gives, and Rotne & Prager's positive-definiteness proof no longer applies:
// already for two spheres the transverse eigenvalue of T/mu0, 3a/(4r) + a^3/(2r^3), exceeds the
// self term 1 once r < 1.14a, so the 6x6 mobility has a negative eigenvalue (many-body
// configurations fail earlier; tests/physics/mobility_test.cpp shows it). The Rotne-Prager-Yamakawa
// overlap form (Rotne & Prager 1969; Yamakawa 1970),
//   T = mu0 [ (1 - 9r/(32a)) I + 3r/(32a) rhat rhat ],   r < 2a,
// equals the far form at r = 2a (both give 7/16 I + 3/16 rhat rhat: continuous) and keeps mu
// positive definite for every configuration.
#include "stokesian/physics/pair_tensor.hpp"

namespace stokesian {

struct rotne_prager_yamakawa_tensor {
    static constexpr const char* name = "rotne-prager";  // the scenario's spelling
    // Port-check's per-term allowance k (port/port_check.hpp): the relative error, in units of the
    // working precision's unit roundoff, one build may commit in one pair term mu_ij F_j. Counted
    // along the longest path of the far form: separation 2u, r^2 9u, 1/r 6.5u (IEEE) or 8.5u
    // (hardware rsqrt, 2 ulp), a^3/(2r^3) 24.5u / 30.5u, the dyadic coefficient 42u / 51u, (r . F) r
    // 10u more, the final sums and mu0 4u: <= 56u (IEEE), <= 65u (fast kernels, paper-fast flags:
    // approximate division and square root, FMA contraction only removes roundings). Rounded up to
    // 80 for first-order terms neglected in the count.
    static constexpr double term_allowance = 80.0;

    // Both forms are evaluated and one is selected (no branch): the O(N^2) kernels then run
    // straight-line code that the compiler can interleave across pairs. r = 0 (coincident centres)
    // gives the self mobility, the limit of the overlap form.
    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static pair_tensor<W> evaluate(W r2, const mobility_parameters<W>& p) {
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
};

}  // namespace stokesian
