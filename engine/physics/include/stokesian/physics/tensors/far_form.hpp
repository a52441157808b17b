#pragma once
// The far form of a pair tensor alone, for the kernels with a warp-uniform far-field path
// (engine/cuda/hi_far_kernels.cuh, issue #13): where every pair a warp evaluates is untied and
// in the tensor's far range, the warp evaluates only this form instead of both forms and a select.
//
// far_form<Tensor>::available is false for a tensor without one (the kernels then always take the
// general path). A far form must give, for a pair in its range, the very bits of the tensor's
// evaluate(): the same expressions in the same order, starting from the r and 1/r that
// distance_and_inverse gives evaluate. tests/physics/far_form_test.cpp checks that on the host (IEEE
// flags, as the exact kernels), and the exact far kernels' GPU tests check it against the CPU.
#include "stokesian/physics/pair_tensor.hpp"
#include "stokesian/physics/tensors/rotne_prager_yamakawa.hpp"

namespace stokesian {

template <class Tensor>
struct far_form {
    static constexpr bool available = false;
};

// Rotne-Prager for r >= 2a: rotne_prager_yamakawa_tensor::evaluate's far branch, written out once
// more (that header is included by every layer; folding evaluate onto this function would rebuild
// all of them, so the equality is tested instead).
template <>
struct far_form<rotne_prager_yamakawa_tensor> {
    static constexpr bool available = true;

    // evaluate's select: the far form applies at distance r (r >= 2a; NaN and r = 0 never do).
    template <class W>
    STOKESIAN_HD_INLINE static bool applies(W r, const mobility_parameters<W>& p) {
        return r >= W(2) * p.radius;
    }

    // Whether applies() certainly holds for the correctly rounded r = sqrt(r2), from r2 alone (before
    // the square root, so that a kernel can decide its path early). The threshold (2a)^2 (1 + 2^-20),
    // rounded twice, still exceeds (2a)^2 by more than 2^-21 relatively (each rounding costs at most
    // 2^-24), so r2 at or above it has sqrt(r2) > 2a, and the rounded root is >= 2a (rounding is
    // monotone; 2a is a float). False in a sliver just above (2a)^2 where applies() may hold: a
    // caller falls back to it there.
    template <class W>
    STOKESIAN_HD_INLINE static bool certainly_applies(W r2, const mobility_parameters<W>& p) {
        const W two_a = W(2) * p.radius;
        return r2 >= two_a * two_a * W(1.0 + 1.0 / 1048576.0);
    }

    // A = 3a/(4r) + a^3/(2r^3), B = (3a/(4r) - 3a^3/(2r^3)) / r^2, from 1/r.
    template <class W>
    STOKESIAN_HD_INLINE static pair_tensor<W> coefficients(W inv_r, const mobility_parameters<W>& p) {
        const W a_over_r = p.radius * inv_r;
        const W far = W(0.75) * a_over_r;                          // 3a/(4r)
        const W near = W(0.5) * (a_over_r * a_over_r * a_over_r);  // a^3/(2r^3)
        return {far + near, (far - W(3) * near) * (inv_r * inv_r)};
    }
};

}  // namespace stokesian
