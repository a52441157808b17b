#pragma once
// The Ewald-summed Rotne-Prager-Yamakawa mobility of a periodic box (Beenakker 1986, J. Chem.
// Phys. 85, 1581; engine/docs/ewald.md, which also says how the formulas were checked).
// In units of mu0, with xi the splitting parameter:
//   mu_ij = sum_n M1(r + n L) + (1/V) sum_{k != 0} M2(k) cos(k . r),          r = r_i - r_j,
//   mu_ii = (1 - 6 xi a / sqrt(pi) + 40 xi^3 a^3 / (3 sqrt(pi))) I + sum_{n != 0} M1(n L)
//           + (1/V) sum_{k != 0} M2(k),
// the real-space tensor (x = |r|, rhat = r/x)
//   M1(r) = [erfc(xi x) (3a/(4x) + a^3/(2x^3)) + exp(-xi^2 x^2)/sqrt(pi) (4 xi^7 a^3 x^4 + 3 xi^3 a x^2
//           - 20 xi^5 a^3 x^2 - 9/2 xi a + 14 xi^3 a^3 + xi a^3/x^2)] I
//         + [erfc(xi x) (3a/(4x) - 3a^3/(2x^3)) + exp(-xi^2 x^2)/sqrt(pi) (-4 xi^7 a^3 x^4 - 3 xi^3 a x^2
//           + 16 xi^5 a^3 x^2 + 3/2 xi a - 2 xi^3 a^3 - 3 xi a^3/x^2)] rhat rhat,
// and the wave-space tensor
//   M2(k) = (1 - a^2 k^2/3) (1 + k^2/(4 xi^2) + k^4/(8 xi^4)) (6 pi a / k^2) exp(-k^2/(4 xi^2)) (I - khat khat).
// Overlap (x < 2a, an image closer than contact): the open RPY overlap form replaces the far form
// for that image, i.e. M1 gains (1 - 9x/(32a)) I + 3x/(32a) rhat rhat - [far form] (as the open tensor,
// physics/tensors/rotne_prager_yamakawa.hpp), which keeps the matrix positive definite.
//
// Not of the form A I + B r r: a block evaluator. It gives the whole symmetric 3 x 3 block of a
// pair, `block`, and the self block, `self_block` (precomputed on the host by core/ewald_setup.cpp,
// with the truncations it chose from the tolerance). Per pair it visits the real-space images within
// r_c and the wave vectors of a half space within k_c: O(N^2 (n_images + n_waves)) per product.
//
// Exactly even in r: the images n and -n and the wave vectors k and -k enter as pairs, and
// portable::sincos is odd/even exactly, so mu_ij(r) = mu_ji(-r) bit for bit. The elementary
// functions are physics/portable_math.hpp's, so CPU and GPU evaluate the same operations.
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/pair_tensor.hpp"
#include "stokesian/physics/portable_math.hpp"

namespace stokesian {

struct rpy_ewald_tensor {
    static constexpr const char* name = "rpy-ewald";  // the scenario's spelling
    // Port-check's per-term allowance k (port/port_check.hpp), against the absolute evaluation of the
    // sum (the sum of its summands' magnitudes). One real-space summand: erfc from a series of ~40
    // positive terms at the cutoff (each term 3 roundings from the last: <= 120u relative to erf, so
    // <= 120u absolute), exp 4u, the polynomials and tensor 15u; one wave-space summand: sincos 3u, its
    // powers up to m = 15 (4u each: 60u) and the product of three 10u, the coefficient 12u; then
    // the ~100 summands of a block summed in pairs (<= 100u relative to the absolute sum) and the
    // block applied to F (5u): <= 120 + 15 + 100 + 5 = 240u. Rounded up to 256.
    static constexpr double term_allowance = 256.0;

    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static symmetric_block<W> block(vec3<W> r, const mobility_parameters<W>& p) {
        if (r.x == W(0) && r.y == W(0) && r.z == W(0)) return p.ewald.self;  // coincident centres
        symmetric_block<W> m = real_space_sum<W, Fast>(r, p, false);
        add(m, wave_sum(r, p));
        return m;
    }

    template <class W>
    STOKESIAN_HD_INLINE static symmetric_block<W> self_block(const mobility_parameters<W>& p) {
        return p.ewald.self;
    }

    // sum_n M1(r + n L) over the images within r_c (without n = 0 when skip_origin: the self term).
    // Images n and -n are added to each other first, then to the sum. One call site of the term
    // (a loop over the two signs) keeps the unrolled erfc series once in the code.
    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static symmetric_block<W> real_space_sum(vec3<W> r, const mobility_parameters<W>& p,
                                                                 bool skip_origin) {
        const ewald_parameters<W>& e = p.ewald;
        symmetric_block<W> m{};
        for (int nx = 0; nx <= e.images[0]; ++nx)
            for (int ny = nx == 0 ? 0 : -e.images[1]; ny <= e.images[1]; ++ny)
                for (int nz = nx == 0 && ny == 0 ? (skip_origin ? 1 : 0) : -e.images[2]; nz <= e.images[2]; ++nz) {
                    const vec3<W> s{W(nx) * e.edge[0], W(ny) * e.edge[1], W(nz) * e.edge[2]};
                    const int terms = nx == 0 && ny == 0 && nz == 0 ? 1 : 2;
                    symmetric_block<W> pair{};
                    for (int k = 0; k < terms; ++k) add(pair, real_space_term<W, Fast>(k == 0 ? r + s : r - s, p));
                    add(m, pair);
                }
        return m;
    }

    // M1(x) for one image x != 0 (zero beyond r_c).
    template <class W, bool Fast = false>
    STOKESIAN_HD static inline symmetric_block<W> real_space_term(vec3<W> x, const mobility_parameters<W>& p) {
        const W x2 = dot(x, x);
        if (!(x2 <= p.ewald.real_cutoff2)) return {};
        W d, inv_d;
        distance_and_inverse<W, Fast>(x2, d, inv_d);
        // Dimensionless: alpha = xi a, rho = xi x, beta = a / x.
        const W alpha = p.ewald.xi * p.radius, rho = p.ewald.xi * d, beta = p.radius * inv_d;
        const portable::erfc_and_gaussian<W> eg = portable::erfc_with_gaussian(rho);
        const W g = eg.gaussian * W(0.56418958354775628);  // exp(-rho^2) / sqrt(pi)
        const W alpha3 = alpha * alpha * alpha, rho2 = rho * rho, rho4 = rho2 * rho2, beta2 = beta * beta;
        const W beta3 = beta2 * beta;
        const W far_identity = W(0.75) * beta + W(0.5) * beta3, far_dyadic = W(0.75) * beta - W(1.5) * beta3;
        const W poly_identity = W(4) * alpha3 * rho4 + W(3) * alpha * rho2 - W(20) * alpha3 * rho2 - W(4.5) * alpha +
                                W(14) * alpha3 + alpha * beta2;
        const W poly_dyadic = -W(4) * alpha3 * rho4 - W(3) * alpha * rho2 + W(16) * alpha3 * rho2 + W(1.5) * alpha -
                              W(2) * alpha3 - W(3) * alpha * beta2;
        W identity = eg.erfc * far_identity + g * poly_identity;
        W dyadic = eg.erfc * far_dyadic + g * poly_dyadic;  // coefficient of rhat rhat
        if (d < W(2) * p.radius) {
            // Overlapping image: the open RPY overlap form instead of the far form.
            const W s = d * p.inverse_radius;
            identity = identity + ((W(1) - (W(9) / W(32)) * s) - far_identity);
            dyadic = dyadic + ((W(3) / W(32)) * s - far_dyadic);
        }
        const W b = dyadic * (inv_d * inv_d);
        return {identity + b * (x.x * x.x),
                identity + b * (x.y * x.y),
                identity + b * (x.z * x.z),
                b * (x.x * x.y),
                b * (x.x * x.z),
                b * (x.y * x.z)};
    }

    // (1/V) sum_{k != 0, |k| <= k_c} M2(k) cos(k . r), over a half space of k with +-k together.
    // cos(k . r) is the real part of prod_d exp(i m_d theta_d), theta_d = 2 pi r_d / L_d, from the
    // powers of exp(i theta_d) (one sincos per axis and pair).
    template <class W>
    STOKESIAN_HD_INLINE static symmetric_block<W> wave_sum(vec3<W> r, const mobility_parameters<W>& p) {
        const ewald_parameters<W>& e = p.ewald;
        struct complex {
            W re, im;
        };
        complex power[3][ewald_max_waves + 1];
        const W theta[3] = {e.wave_step[0] * r.x, e.wave_step[1] * r.y, e.wave_step[2] * r.z};
        for (int d = 0; d < 3; ++d) {
            const portable::sin_cos<W> z = portable::sincos(theta[d]);
            power[d][0] = {W(1), W(0)};
            for (int m = 1; m <= e.waves[d]; ++m) {
                const complex q = power[d][m - 1];
                power[d][m] = {q.re * z.cos - q.im * z.sin, q.re * z.sin + q.im * z.cos};
            }
        }
        symmetric_block<W> sum{};
        for (int mx = 0; mx <= e.waves[0]; ++mx)
            for (int my = mx == 0 ? 0 : -e.waves[1]; my <= e.waves[1]; ++my)
                for (int mz = mx == 0 && my == 0 ? 1 : -e.waves[2]; mz <= e.waves[2]; ++mz) {
                    const W kx = W(mx) * e.wave_step[0], ky = W(my) * e.wave_step[1], kz = W(mz) * e.wave_step[2];
                    const W k2 = kx * kx + ky * ky + kz * kz;
                    if (!(k2 <= e.wave_cutoff2)) continue;
                    const int ay = my < 0 ? -my : my, az = mz < 0 ? -mz : mz;
                    const complex zx = power[0][mx];
                    const complex zy = {power[1][ay].re, my < 0 ? -power[1][ay].im : power[1][ay].im};
                    const complex zz = {power[2][az].re, mz < 0 ? -power[2][az].im : power[2][az].im};
                    const complex xy = {zx.re * zy.re - zx.im * zy.im, zx.re * zy.im + zx.im * zy.re};
                    const W cosine = xy.re * zz.re - xy.im * zz.im;
                    const W q = k2 * e.inverse_4xi2;
                    const W decay = (e.wave_decay[0][mx] * e.wave_decay[1][ay]) * e.wave_decay[2][az];
                    const W coefficient =
                        e.wave_scale * (((W(1) - e.radius2_over_3 * k2) * (W(1) + q + W(2) * (q * q))) / k2) * decay;
                    const W w = coefficient * cosine, u = w / k2;
                    add(sum, {w - u * (kx * kx), w - u * (ky * ky), w - u * (kz * kz), -(u * (kx * ky)),
                              -(u * (kx * kz)), -(u * (ky * kz))});
                }
        return sum;
    }

    template <class W>
    STOKESIAN_HD_INLINE static void add(symmetric_block<W>& m, const symmetric_block<W>& t) {
        m.xx = m.xx + t.xx;
        m.yy = m.yy + t.yy;
        m.zz = m.zz + t.zz;
        m.xy = m.xy + t.xy;
        m.xz = m.xz + t.xz;
        m.yz = m.yz + t.yz;
    }
};

}  // namespace stokesian
