#pragma once
// Simulation box: open boundaries, or a periodic box [-L/2, L/2)^3 (edges L_x, L_y, L_z) with the
// minimum-image convention, nearest image only (paper, footnote in Section 3.1).
//
// Tie rule: a separation component of exactly +-L/2 (both images equidistant; fcc lattices in
// periodic boxes have them) is kept as computed, r_j - r_i stays the exact negative of r_i - r_j.
// The correction below uses comparisons and one exact subtraction, so minimum_image(-d) ==
// -minimum_image(d) bitwise and r_ij = -r_ji for every pair, in every precision.
#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

template <class W>
struct box_geometry {
    bool periodic;
    vec3<W> edges;  // L; ignored when open
};

// d must come from two wrapped positions, so |d_k| < L_k and one correction suffices. Written
// without branches (the O(N^2) kernels evaluate it for every pair): the shift is +1, 0 or -1, and
// d - shift L is exact in every case (Sterbenz, or d - 0), so the result equals the comparison form
// bit for bit, also under FMA contraction.
template <class W>
STOKESIAN_HD_INLINE W minimum_image_component(W d, W edge) {
    const W half = W(0.5) * edge;
    const W shift = W(d > half) - W(d < -half);
    return d - shift * edge;
}

template <class W>
STOKESIAN_HD_INLINE vec3<W> minimum_image(vec3<W> d, const box_geometry<W>& box) {
    if (!box.periodic) return d;
    return {minimum_image_component(d.x, box.edges.x), minimum_image_component(d.y, box.edges.y),
            minimum_image_component(d.z, box.edges.z)};
}

// Wraps one coordinate x (float, float_float or double, with the edge in the same type) into
// [-L/2, L/2) and counts the image shift. For x in [L/2, L) the subtraction x - L is exact
// (Sterbenz's lemma), likewise x + L for x in [-L, -L/2): wrapping a float or double never rounds.
// A step never moves a particle by more than L/2, so one shift suffices.
// No branch: in the fused small-system kernels a step is one dependent chain, and three
// data-dependent branches per particle were a quarter of it on an H200 (ncu,
// engine/docs/performance.md, 2026-11-27). One subtraction x - s with s = +-L, selected or not:
// x - (-L) is x + L bitwise (IEEE defines x - y as x + (-y), negation is exact; float_float's
// operator- is x + (-y) too), so the bits are those of the branches, at one addition's cost (a
// float_float addition is ~10 operations).
template <class P>
STOKESIAN_HD_INLINE void wrap_component(P& x, int& image, P edge, P half_edge) {
    const bool above = !(x < half_edge);  // NaN too, as before: it stays NaN
    const bool below = x < -half_edge;
    const P shifted = x - (above ? edge : -edge);
    x = (above || below) ? shifted : x;
    image += above ? 1 : (below ? -1 : 0);
}

}  // namespace stokesian
