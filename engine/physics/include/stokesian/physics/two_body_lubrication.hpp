#pragma once
// The two-body lubrication model (scenario key physics.lubrication.model = "two-body";
// engine/docs/lubrication.md, "The two-body model"): for each pair closer than the cutoff,
//     zeta_pair = R_exact - R_far,
// R_exact the exact resistance of two equal torque-free spheres (Jeffrey & Onishi 1984; the spheres
// of this engine carry no torque, so the rotations are eliminated) and R_far the inverse of the pair
// block of the Rotne-Prager mobility, which the mobility already holds. With v = (mu^-1 + sum
// zeta_pair)^-1 F an isolated pair then moves exactly as two real spheres (mu^-1 = R_far for two
// spheres) while the many-body far field stays as it is (Durlofsky, Brady & Bossis 1987).
//
// For equal spheres every 6 x 6 pair matrix splits, with n = (r_i - r_j)/r, into four modes: the sum
// (u_i + u_j) and difference (u_i - u_j) of the velocities, each along n (x) and normal to it (y).
// Rotne-Prager's pair block is mu0 [t_x n n + t_y (I - n n)] with t_x = 3/(2s) - 1/s^3, t_y = 3/(4s) +
// 1/(2s^3) (s = r/a >= 2) and the self blocks mu0 I, so R_far = (1/mu0) / (1 +- t) in the sum and
// difference modes. R_exact in its four modes comes from physics/two_body_resistance_table.hpp
// (generated from the two-sphere oracle by tools/two_body_table/generate.py): Chebyshev series in
// ln xi (xi = s - 2), and below xi = 1e-4 the near-contact forms of Jeffrey & Onishi with Townsend's
// (2018) coefficients joined to the table with value and slope. The force on i of a velocity field u:
//     F_i = -(1/2) sum over the modes of zeta_mode P_mode (u_i +- u_j),
// P_x = n n, P_y = I - n n; symmetric, and positive semi-definite where every zeta_mode >= 0 (checked
// against the oracle on its whole table, tests/physics/two_body_lubrication_test.cpp).
//
// Cutoff: beyond r = taper_start every |R_exact - R_far| / R_far <= 1e-2 (the table's header: the
// error bound an isolated pair has there), and the correction is tapered to zero at taper_end by
// w = 1 - 3x^2 + 2x^3 (continuous, with its slope). The gap is floored at min_gap, as in the paper's
// model. Everything here is + - * / and the portable logarithm, so both backends compute the same bits.
#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/math.hpp"
#include "stokesian/physics/portable_math.hpp"
#include "stokesian/physics/two_body_resistance_table.hpp"

namespace stokesian {

// The lubrication cutoff of the two-body model, in units of a.
inline constexpr double two_body_lubrication_cutoff = two_body_table::taper_end;

// Rounding allowance k of this evaluator (port-check, engine/docs/porting.md): a build's
// two_body_correction(s) lies within k u_w A(s) of the real-arithmetic value of the same formula,
// u_w the working type's unit roundoff and A(s) its absolute evaluation per mode (port/port_evaluators.cpp):
// w(s) [sum_k (k+1)^2 |c_k| of the mode's segment (near contact: the absolute values of the near-contact
// terms) + |singular part| + |R_far|]. Counted on the longest path, in u_w against A:
//   ln xi: the portable log, <= 4u relative, |ln xi| <= 9.22 on the table; the segment coordinate
//     u = ln xi - first_log_gap (+ one rounding of magnitude <= 18.5) and x = 2 (u - segment) - 1 (+1):
//     |dx| <= 2 (4 * 9.22 + 18.5) u + u = 112u; the series moves by |S'(x)| |dx| <= sum k^2 |c_k| |dx|:
//     the evaluator's conditioning, <= 112u A;
//   Clenshaw's recurrence: 12 steps of 3 roundings, each carried on with a growth <= k + 1 for
//     |x| <= 1: <= 39u A;
//   the singular part 1/(2 xi) + 0.45 ln(1/xi) and its sum with the series: <= 8u A (xi = s - 2 is
//     exact for 2 <= s <= 4, Sterbenz);
//   R_far = 1/(1 +- t): 1/s, 1/s^3, t, 1 +- t, the division, amplified by (1 + |t|)/|1 - |t|| <= 4.3
//     (s >= 2): <= 35u A;
//   near contact (xi < 1e-4) instead of the series: the near-contact forms and the torque elimination
//     b^2/(3c), <= 45u A;
//   R_exact - R_far and the taper w (1 - 3x^2 + 2x^3): <= 8u A.
// In all <= 202u; k = 256, rounded up for the second-order terms. Two builds thus differ by at most
// 2 k u_w A per mode.
inline constexpr double two_body_term_allowance = 256.0;

// Resistances (units 1/mu0 = 6 pi mu a) of the four modes of an equal pair: per unit of
// (u_i + u_j)/2 (sum) or (u_i - u_j)/2 (difference) along n (x) and normal to it (y).
template <class W>
struct two_body_modes {
    W x_sum, x_difference, y_sum, y_difference;
};

namespace two_body_detail {

// Coefficient `index` of the table ([mode][segment][term]). A function-local static: one copy for
// the host, and on the device an implicit __device__ array (CUDA C++ Programming Guide, "Static
// Variables within Function").
STOKESIAN_HD_INLINE double chebyshev_coefficient(int index) {
    static constexpr double coefficients[] = {STOKESIAN_TWO_BODY_CHEBYSHEV_COEFFICIENTS};
    return coefficients[index];
}

// sum_k c_k T_k(x) of mode `mode` on `segment` (Clenshaw's recurrence).
template <class W>
STOKESIAN_HD_INLINE W chebyshev_series(int mode, int segment, W x) {
    const int base = (mode * two_body_table::segments + segment) * two_body_table::terms;
    const W two_x = x + x;
    W b1 = W(0), b2 = W(0);
    for (int k = two_body_table::terms - 1; k >= 1; --k) {
        const W b = static_cast<W>(chebyshev_coefficient(base + k)) + two_x * b1 - b2;
        b2 = b1;
        b1 = b;
    }
    return static_cast<W>(chebyshev_coefficient(base)) + x * b1 - b2;
}

// h2 ln(1/xi) + A + h3 xi ln(1/xi).
template <class W>
STOKESIAN_HD_INLINE W near_contact(double h2, double a, double h3, W gap, W log_inverse) {
    return static_cast<W>(h2) * log_inverse + static_cast<W>(a) + static_cast<W>(h3) * (gap * log_inverse);
}

}  // namespace two_body_detail

// The exact torque-free mode resistances at the gap xi = r/a - 2 > 0.
template <class W>
STOKESIAN_HD_INLINE two_body_modes<W> exact_pair_resistance(W gap) {
    namespace t = two_body_table;
    using two_body_detail::near_contact;
    const W log_gap = portable::log(gap);
    const W log_inverse = -log_gap;
    // The squeeze mode's singular part, added in both ranges: 1/(2 xi) + (9/20) ln(1/xi).
    const W singular = W(1) / (W(2) * gap) + W(0.45) * log_inverse;
    if (gap < static_cast<W>(t::contact_gap)) {
        const W y11a = near_contact(t::Y11A_log, t::Y11A_constant, t::Y11A_xi_log, gap, log_inverse);
        const W y12a = near_contact(t::Y12A_log, t::Y12A_constant, t::Y12A_xi_log, gap, log_inverse);
        const W y11b = near_contact(t::Y11B_log, t::Y11B_constant, t::Y11B_xi_log, gap, log_inverse);
        const W y12b = near_contact(t::Y12B_log, t::Y12B_constant, t::Y12B_xi_log, gap, log_inverse);
        const W y11c = near_contact(t::Y11C_log, t::Y11C_constant, t::Y11C_xi_log, gap, log_inverse);
        const W y12c = near_contact(t::Y12C_log, t::Y12C_constant, t::Y12C_xi_log, gap, log_inverse);
        // Torques eliminated: R = (Y11A +- Y12A) - (Y11B +- Y12B)^2 / (3 (Y11C -+ Y12C)).
        const W b_sum = y11b + y12b, b_difference = y11b - y12b;
        const W y_sum = (y11a + y12a) - (b_sum * b_sum) / (W(3) * (y11c - y12c));
        const W y_difference = (y11a - y12a) - (b_difference * b_difference) / (W(3) * (y11c + y12c));
        return {
            static_cast<W>(t::x_sum_shift) + static_cast<W>(t::x_sum_shift_slope) * gap,
            singular + W(3.0 / 56.0) * (gap * log_inverse) + static_cast<W>(t::x_difference_shift) +
                static_cast<W>(t::x_difference_shift_slope) * gap,
            y_sum + static_cast<W>(t::y_sum_shift) + static_cast<W>(t::y_sum_shift_slope) * gap,
            y_difference + static_cast<W>(t::y_difference_shift) + static_cast<W>(t::y_difference_shift_slope) * gap};
    }
    // Segment and local coordinate x in [-1, 1]; the last segment takes anything beyond its end.
    const W u = (log_gap - static_cast<W>(t::first_log_gap)) * static_cast<W>(t::inverse_segment_width);
    int segment = static_cast<int>(u);
    if (segment > t::segments - 1) segment = t::segments - 1;
    const W x = W(2) * (u - static_cast<W>(segment)) - W(1);
    return {two_body_detail::chebyshev_series(0, segment, x),
            singular + two_body_detail::chebyshev_series(1, segment, x),
            two_body_detail::chebyshev_series(2, segment, x), two_body_detail::chebyshev_series(3, segment, x)};
}

// The mode resistances of the Rotne-Prager two-body mobility at s = r/a >= 2: 1/(1 +- t).
template <class W>
STOKESIAN_HD_INLINE two_body_modes<W> far_field_pair_resistance(W distance) {
    const W inverse = W(1) / distance;
    const W inverse3 = inverse * inverse * inverse;
    const W t_x = W(1.5) * inverse - inverse3;
    const W t_y = W(0.75) * inverse + W(0.5) * inverse3;
    return {W(1) / (W(1) + t_x), W(1) / (W(1) - t_x), W(1) / (W(1) + t_y), W(1) / (W(1) - t_y)};
}

// The taper w(s): 1 up to taper_start, 0 from taper_end on, 1 - 3x^2 + 2x^3 between.
template <class W>
STOKESIAN_HD_INLINE W two_body_taper(W distance) {
    const W start = static_cast<W>(two_body_table::taper_start);
    if (distance <= start) return W(1);
    const W x = (distance - start) * static_cast<W>(1.0 / (two_body_table::taper_end - two_body_table::taper_start));
    if (x >= W(1)) return W(0);
    return W(1) - x * x * (W(3) - W(2) * x);
}

// zeta_pair in its four modes (units 1/mu0) at the centre distance s = r/a, the gap floored at
// min_gap (units a): w(s) (R_exact - R_far).
template <class W>
STOKESIAN_HD_INLINE two_body_modes<W> two_body_correction(W distance, W min_gap) {
    W gap = distance - W(2);
    if (gap < min_gap) gap = min_gap;
    const W s = W(2) + gap;
    const two_body_modes<W> exact = exact_pair_resistance(gap);
    const two_body_modes<W> far = far_field_pair_resistance(s);
    const W w = two_body_taper(s);
    return {w * (exact.x_sum - far.x_sum), w * (exact.x_difference - far.x_difference), w * (exact.y_sum - far.y_sum),
            w * (exact.y_difference - far.y_difference)};
}

// The force on sphere i from the pair (i, j) for the velocity field u: -(zeta_pair u)_i, with
// r_ij = r_i - r_j inside the cutoff, radius a and 1/mu0.
template <class W>
STOKESIAN_HD_INLINE vec3<W> two_body_lubrication_force(vec3<W> r_ij, vec3<W> u_i, vec3<W> u_j, W radius,
                                                       W inverse_self_mobility, W min_gap) {
    const W r = math::sqrt(dot(r_ij, r_ij));
    const two_body_modes<W> z = two_body_correction(r / radius, min_gap);
    const vec3<W> n = (W(1) / r) * r_ij;
    const vec3<W> sum = u_i + u_j, difference = u_i - u_j;
    const W sum_normal = dot(n, sum), difference_normal = dot(n, difference);
    const vec3<W> along = (z.x_sum * sum_normal + z.x_difference * difference_normal) * n;
    const vec3<W> across = z.y_sum * (sum - sum_normal * n) + z.y_difference * (difference - difference_normal * n);
    return -((W(0.5) * inverse_self_mobility) * (along + across));
}

}  // namespace stokesian
