#pragma once
// Optional short-range repulsion between spheres: an exponential (screened) repulsion
//   F_i = F0 exp(-(r - 2a)/lambda) rhat_ij   for r < r_c, zero beyond,
// a common choice in Stokesian dynamics to keep spheres apart (e.g. Bossis & Brady). F0 is in
// units of the external force scale F, lambda and r_c in units of a.
#include <cstdint>

#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/math.hpp"

namespace stokesian {

enum class pair_force_kind : std::uint8_t { none, exponential };

template <class W>
struct pair_force_parameters {
    pair_force_kind kind;
    W strength;  // F0
    W range;     // lambda
    W cutoff;    // r_c
    W radius;    // a
};

template <class W>
STOKESIAN_HD_INLINE vec3<W> pair_force(vec3<W> r_ij, const pair_force_parameters<W>& p) {
    const W r2 = dot(r_ij, r_ij);
    if (p.kind == pair_force_kind::none || r2 >= p.cutoff * p.cutoff || r2 == W(0)) return {W(0), W(0), W(0)};
    const W r = math::sqrt(r2);
    const W magnitude = p.strength * math::exp(-(r - W(2) * p.radius) / p.range);
    return (magnitude / r) * r_ij;
}

}  // namespace stokesian
