#pragma once
// Oseen, Eq. (oseenTensor): G = 1/(8 pi eta r) (I + rhat rhat) = mu0 3a/(4r) (I + rhat rhat).
// A far-field, point-particle form with no overlap regularisation: the mobility matrix it builds
// is not positive definite for close pairs (r < 1.5a); use it for far-field studies only.
#include "stokesian/physics/pair_tensor.hpp"

namespace stokesian {

struct oseen_tensor {
    static constexpr const char* name = "oseen";  // the scenario's spelling
    // Port-check's per-term allowance (rotne_prager_yamakawa.hpp counts it): A = 3a/(4r) and
    // B = A/r^2 are the first steps of the Rotne-Prager far form's path, <= 38u (IEEE) and <= 44u
    // (fast kernels) with (r . F) r and the final sums; rounded up as there.
    static constexpr double term_allowance = 64.0;

    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static pair_tensor<W> evaluate(W r2, const mobility_parameters<W>& p) {
        W r, inv_r;
        distance_and_inverse<W, Fast>(r2, r, inv_r);
        const W far = W(0.75) * (p.radius * inv_r);
        return {far, far * (inv_r * inv_r)};
    }
};

}  // namespace stokesian
