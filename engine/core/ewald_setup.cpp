#include "stokesian/core/ewald_setup.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stokesian/core/number_text.hpp"
#include "stokesian/core/system.hpp"
#include "stokesian/physics/tensors/rpy_ewald.hpp"

namespace stokesian {

namespace {

constexpr double pi = 3.14159265358979323846;

// The steps of both searches below: 12/xi in steps of 0.005/xi, 24 xi in steps of 0.01 xi.
constexpr int tail_grid_steps = 2400;

// Smallest grid point t of [0, t_max] (step h) with single(t) + the integral of f from t to t_max
// at most `target` (f, single >= 0, falling with t): trapezoids summed from the top. The step count
// bounds the walk even where t - h would round to t (rounding never makes it need more).
template <class F, class G>
double tail_start(F&& f, G&& single, double t_max, double h, double target) {
    double integral = 0.0, t = t_max, f_hi = f(t_max);
    for (int step = 0; t > h && step <= tail_grid_steps; ++step) {
        const double f_lo = f(t - h);
        const double next = integral + 0.5 * h * (f_lo + f_hi);
        if (next + single(t - h) > target) return t;
        integral = next;
        t -= h;
        f_hi = f_lo;
    }
    return t;
}

// |A| + |B|, the largest magnitude of an eigenvalue of the far-form real-space term at distance x,
// in units of mu0 (physics/tensors/rpy_ewald.hpp, M1).
double real_space_magnitude(double radius, double xi, double x) {
    const double alpha = xi * radius, rho = xi * x, beta = radius / x;
    const double alpha3 = alpha * alpha * alpha, rho2 = rho * rho, rho4 = rho2 * rho2, beta2 = beta * beta;
    const double e = std::erfc(rho), g = std::exp(-rho2) / std::sqrt(pi);
    const double identity =
        e * (0.75 * beta + 0.5 * beta2 * beta) +
        g * (4 * alpha3 * rho4 + 3 * alpha * rho2 - 20 * alpha3 * rho2 - 4.5 * alpha + 14 * alpha3 + alpha * beta2);
    const double dyadic =
        e * (0.75 * beta - 1.5 * beta2 * beta) +
        g * (-4 * alpha3 * rho4 - 3 * alpha * rho2 + 16 * alpha3 * rho2 + 1.5 * alpha - 2 * alpha3 - 3 * alpha * beta2);
    return std::fabs(identity) + std::fabs(dyadic);
}

// The integrands of the two tail estimates (below).
double real_tail_density(double radius, double xi, double volume, double x) {
    return x > 0.0 ? 4.0 * pi * x * x * real_space_magnitude(radius, xi, x) / volume : 0.0;
}
double wave_tail_density(double radius, double xi, double k) {
    const double q = k * k / (4.0 * xi * xi);
    return 3.0 * radius / pi * std::fabs(1.0 - radius * radius * k * k / 3.0) * (1.0 + q + 2.0 * q * q) * std::exp(-q);
}

// One wave vector's term (+k and -k together), |coefficient| of (I - khat khat).
double wave_term_magnitude(double radius, double xi, double volume, double k) {
    const double q = k * k / (4.0 * xi * xi);
    return 2.0 * 6.0 * pi * radius / (k * k * volume) * std::fabs(1.0 - radius * radius * k * k / 3.0) *
           (1.0 + q + 2.0 * q * q) * std::exp(-q);
}

template <class F>
double integral_from(F&& f, double from, double top, double h) {
    double integral = 0.0;
    for (double t = from; t < top; t += h) integral += 0.5 * h * (f(t) + f(t + h));
    return integral;
}

std::string text(double x) { return short_number(x); }

}  // namespace

double default_ewald_xi(const system_parameters& s) {
    const double volume = s.box.edges.x * s.box.edges.y * s.box.edges.z;
    return 3.0 / std::cbrt(volume);
}

// sum_{|x_n| > R} m1(|x_n|) ~ (1/V) int_R^inf 4 pi x^2 m1(x) dx: one image per cell volume V.
double ewald_real_space_tail(double radius, double xi, double volume, double real_cutoff) {
    return integral_from([&](double x) { return real_tail_density(radius, xi, volume, x); }, real_cutoff,
                         std::max(real_cutoff, 12.0 / xi), 0.005 / xi);
}

// sum_{|k| > K} |c(k)| ~ (V / (2 pi)^3) int_K^inf 4 pi k^2 |c(k)| dk, one wave vector per reciprocal
// cell (2 pi)^3 / V; with c(k) = (6 pi a / (k^2 V)) |1 - a^2 k^2 / 3| (1 + q + 2 q^2) e^-q, q = k^2/(4 xi^2),
// the volume cancels: (3 a / pi) int_K^inf |1 - a^2 k^2/3| (1 + q + 2q^2) e^-q dk.
double ewald_wave_space_tail(double radius, double xi, double wave_cutoff) {
    return integral_from([&](double k) { return wave_tail_density(radius, xi, k); }, wave_cutoff,
                         std::max(wave_cutoff, 24.0 * xi), 0.01 * xi);
}

ewald_parameters<double> make_ewald_parameters(const system_parameters& s) {
    const std::string tensor = "tensor \"rpy-ewald\"";
    if (!s.box.periodic)
        throw std::invalid_argument(tensor +
                                    " sums over the images of a periodic box: set [box] boundary = "
                                    "\"periodic\" (an open system has the plain \"rotne-prager\")");
    const double edges[3] = {s.box.edges.x, s.box.edges.y, s.box.edges.z};
    for (const double e : edges)
        if (!(e > 0.0) || !std::isfinite(e))
            throw std::invalid_argument(tensor + " needs a periodic box with edges > 0 (got " + text(e) + ")");
    const double tol = s.ewald.tolerance;
    if (!(tol >= ewald_min_tolerance && tol <= ewald_max_tolerance))
        throw std::invalid_argument("physics.ewald.tolerance = " + text(tol) + ": expected " +
                                    text(ewald_min_tolerance) + " <= tolerance <= " + text(ewald_max_tolerance));
    const double xi = s.ewald.xi.value_or(default_ewald_xi(s));
    if (!(xi >= ewald_min_xi && xi <= ewald_max_xi))
        throw std::invalid_argument("physics.ewald.xi = " + text(xi) + ": expected a splitting parameter " +
                                    text(ewald_min_xi) + " <= xi <= " + text(ewald_max_xi));
    const double a = s.radius, volume = edges[0] * edges[1] * edges[2];

    // Truncations: each estimated tail at most tol/2, searched on a fine grid (steps of 0.005/xi,
    // 0.01 xi) from well beyond the Gaussian's reach.
    // Each tail: the continuum estimate plus one term at the cutoff itself (a pair whose image lies
    // just beyond r_c, or the wave vectors at k_c: the continuum misses them when r_c or k_c spans
    // only a few cells).
    const double real_cutoff =
        std::max(tail_start([&](double x) { return real_tail_density(a, xi, volume, x); },
                            [&](double x) { return real_space_magnitude(a, xi, x); }, 12.0 / xi, 0.005 / xi, 0.5 * tol),
                 2.0 * a);  // every overlapping image is visited (its overlap correction)
    const double wave_cutoff =
        tail_start([&](double k) { return wave_tail_density(a, xi, k); },
                   [&](double k) { return wave_term_magnitude(a, xi, volume, k); }, 24.0 * xi, 0.01 * xi, 0.5 * tol);

    ewald_parameters<double> p{};
    p.xi = xi;
    p.real_cutoff2 = real_cutoff * real_cutoff;
    p.wave_cutoff2 = wave_cutoff * wave_cutoff;
    p.wave_scale = 2.0 * 6.0 * pi * a / volume;
    p.inverse_4xi2 = 1.0 / (4.0 * xi * xi);
    p.radius2_over_3 = a * a / 3.0;
    static const char* axis[3] = {"x", "y", "z"};
    for (int d = 0; d < 3; ++d) {
        p.edge[d] = edges[d];
        p.wave_step[d] = 2.0 * pi / edges[d];
        // |r_d| <= L_d/2 (minimum image): images with |n_d| L_d <= r_c + L_d/2 can be within r_c.
        const double images = std::floor(real_cutoff / edges[d] + 0.5);
        const double waves = std::floor(wave_cutoff / p.wave_step[d]);
        if (images > ewald_max_images)
            throw std::invalid_argument(tensor + ": the real-space sum would need " + text(images) + " images along " +
                                        axis[d] + " (at most " + std::to_string(ewald_max_images) +
                                        "); raise physics.ewald.xi (now " + text(xi) + ") or the tolerance");
        if (waves > ewald_max_waves)
            throw std::invalid_argument(tensor + ": the wave sum would need " + text(waves) + " wave vectors along " +
                                        axis[d] + " (at most " + std::to_string(ewald_max_waves) +
                                        "); lower physics.ewald.xi (now " + text(xi) + ") or raise the tolerance");
        p.images[d] = static_cast<int>(images);
        p.waves[d] = static_cast<int>(waves);
        for (int m = 0; m <= ewald_max_waves; ++m) {
            const double k = m * p.wave_step[d];
            p.wave_decay[d][m] = m <= p.waves[d] ? std::exp(-k * k * p.inverse_4xi2) : 0.0;
        }
    }

    // The self block: Beenakker's self term (engine/docs/ewald.md: its equation number is not
    // verified here), the particle's own images and the wave sum at r = 0, evaluated with the
    // tensor's own (double) functions.
    mobility_parameters<double> mp = make_mobility_parameters(a, 1.0, hydrodynamic_tensor::rpy_ewald);
    mp.ewald = p;
    const vec3<double> origin{0.0, 0.0, 0.0};
    symmetric_block<double> self = rpy_ewald_tensor::real_space_sum<double>(origin, mp, true);
    rpy_ewald_tensor::add(self, rpy_ewald_tensor::wave_sum(origin, mp));
    const double alpha = xi * a;
    const double diagonal = 1.0 - 6.0 * alpha / std::sqrt(pi) + 40.0 * alpha * alpha * alpha / (3.0 * std::sqrt(pi));
    self.xx += diagonal;
    self.yy += diagonal;
    self.zz += diagonal;
    p.self = self;
    return p;
}

ewald_counts count_ewald_terms(const ewald_parameters<double>& p) {
    ewald_counts c;
    for (int nx = -p.images[0]; nx <= p.images[0]; ++nx)
        for (int ny = -p.images[1]; ny <= p.images[1]; ++ny)
            for (int nz = -p.images[2]; nz <= p.images[2]; ++nz) {
                const double x = nx * p.edge[0], y = ny * p.edge[1], z = nz * p.edge[2];
                // Images of a separation at the centre of the cell; r moves them by at most half a cell.
                if (x * x + y * y + z * z <= p.real_cutoff2) ++c.images;
            }
    for (int mx = 0; mx <= p.waves[0]; ++mx)
        for (int my = mx == 0 ? 0 : -p.waves[1]; my <= p.waves[1]; ++my)
            for (int mz = mx == 0 && my == 0 ? 1 : -p.waves[2]; mz <= p.waves[2]; ++mz) {
                const double kx = mx * p.wave_step[0], ky = my * p.wave_step[1], kz = mz * p.wave_step[2];
                if (kx * kx + ky * ky + kz * kz <= p.wave_cutoff2) ++c.waves;
            }
    return c;
}

}  // namespace stokesian
