#pragma once
// Hydrodynamic mobility tensors (paper, Section 2.2): a pair tensor's coefficients (A, B) from its
// evaluator (physics/pair_tensor.hpp explains the form, physics/tensors/ holds the evaluators) and
// their application to a force, with the periodic tie rule.
//
// Written once for float and double, used by every backend. No loops, no storage.
#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/pair_tensor.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian {

// The coefficients of the pair tensor for the separation r. Tensor: an evaluator type
// (physics/tensor_registry.hpp); the default, selected_tensor, is the one p.tensor names.
template <class Tensor = selected_tensor, bool Fast = false, class W>
STOKESIAN_HD_INLINE pair_tensor<W> pair_mobility_tensor(vec3<W> r, const mobility_parameters<W>& p) {
    const W r2 = dot(r, r);
    return Tensor::template evaluate<W, Fast>(r2, p);
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

// mu0 M f for a block evaluator's symmetric block M (physics/tensor_registry.hpp).
template <class W>
STOKESIAN_HD_INLINE vec3<W> apply_block(const symmetric_block<W>& m, vec3<W> f, W self_mobility) {
    const vec3<W> mf{m.xx * f.x + m.xy * f.y + m.xz * f.z, m.xy * f.x + m.yy * f.y + m.yz * f.z,
                     m.xz * f.x + m.yz * f.y + m.zz * f.z};
    return self_mobility * mf;
}

// The self term mu_ii . F_i = mu0 F_i.
template <class W>
STOKESIAN_HD_INLINE vec3<W> self_velocity(vec3<W> f, W self_mobility) {
    return self_mobility * f;
}

}  // namespace stokesian
