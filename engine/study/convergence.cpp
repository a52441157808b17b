// Convergence-order fits of the time-step study (study/convergence.hpp).
#include "stokesian/study/convergence.hpp"

#include <algorithm>
#include <cmath>

#include "stokesian/observables/statistics.hpp"

namespace stokesian::study {

line_estimate fit_line_with_errors(std::span<const double> x, std::span<const double> y) {
    line_estimate e;
    const std::size_t n = std::min(x.size(), y.size());
    e.points = n;
    if (n < 2) return e;
    const line_fit f = fit_line(x.first(n), y.first(n));
    e.slope = f.slope;
    e.intercept = f.intercept;
    if (n < 3) return e;
    double mean_x = 0.0;
    for (std::size_t i = 0; i < n; ++i) mean_x += x[i];
    mean_x /= double(n);
    // Var(intercept) = s^2 (1/n + xbar^2 / Sxx), and SE(slope)^2 = s^2 / Sxx.
    const double s2 = f.residual_standard_deviation * f.residual_standard_deviation;
    e.slope_standard_error = f.slope_standard_error;
    e.intercept_standard_error =
        std::sqrt(s2 / double(n) + mean_x * mean_x * f.slope_standard_error * f.slope_standard_error);
    const double t = student_t_quantile(0.975, double(n - 2));
    e.slope_ci95 = t * e.slope_standard_error;
    e.intercept_ci95 = t * e.intercept_standard_error;
    return e;
}

line_estimate paired_difference(std::span<const double> a, std::span<const double> b, std::size_t limit,
                                double index_step) {
    const std::size_t n = std::min({a.size(), b.size(), limit});
    std::vector<double> x(n), d(n);
    for (std::size_t j = 0; j < n; ++j) {
        x[j] = index_step * double(j);
        d[j] = a[j] - b[j];
    }
    return fit_line_with_errors(x, d);
}

namespace {

// Slope of log|D| - log(1 - rho^p) against log dt for a given p.
line_fit corrected_fit(const std::vector<difference_point>& d, double p) {
    std::vector<double> x, y;
    for (const difference_point& q : d) {
        const double rho = q.dt_next / q.dt;
        x.push_back(std::log(q.dt));
        y.push_back(std::log(std::fabs(q.value)) - std::log1p(-std::pow(rho, p)));
    }
    return fit_line(x, y);
}

}  // namespace

order_fit fit_convergence_order(std::span<const difference_point> differences, double resolution_factor) {
    order_fit out;
    out.resolution = 0.0;
    std::vector<difference_point> used;
    for (const difference_point& q : differences) {
        if (!(q.dt > q.dt_next && q.dt_next > 0.0) || !std::isfinite(q.value)) continue;
        const double se = std::isfinite(q.standard_error) ? q.standard_error : 0.0;
        if (q.value == 0.0 || std::fabs(q.value) <= resolution_factor * se) {
            ++out.unresolved;
            out.resolution = std::max(out.resolution, std::max(std::fabs(q.value), resolution_factor * se));
            continue;
        }
        used.push_back(q);
    }
    out.points = used.size();
    if (used.size() < 2) {
        out.note = "fewer than 2 resolved differences";
        return out;
    }
    std::size_t positive = 0;
    for (const difference_point& q : used) positive += q.value > 0.0 ? 1 : 0;
    if (positive != 0 && positive != used.size()) out.note = "differences change sign: not in the asymptotic range";
    // Plain log-log slope first (exact for a geometric sequence of dt), then the correction for
    // unequal ratios, iterated to a fixed point.
    std::vector<double> x, y;
    for (const difference_point& q : used) {
        x.push_back(std::log(q.dt));
        y.push_back(std::log(std::fabs(q.value)));
    }
    double p = fit_line(x, y).slope;
    line_fit f{};
    for (int iteration = 0; iteration < 100; ++iteration) {
        if (!(p > 1e-3)) break;  // 1 - rho^p -> 0: no correction possible (and no convergence)
        f = corrected_fit(used, p);
        const bool converged = std::fabs(f.slope - p) <= 1e-12 * std::max(1.0, std::fabs(p));
        p = f.slope;
        if (converged) break;
    }
    if (!(p > 1e-3)) {
        out.order = p;
        out.note += std::string(out.note.empty() ? "" : "; ") + "no convergence (order <= 0)";
        return out;
    }
    out.order = f.slope;
    out.order_ci95 = used.size() >= 3 ? f.slope_ci95_half_width : nan;
    // Sign of c: that of the differences (Q(dt) - Q(dt_next) = c (dt^p - dt_next^p), dt > dt_next).
    const double sign = 2 * positive >= used.size() ? 1.0 : -1.0;
    out.coefficient = sign * std::exp(f.intercept);
    return out;
}

double extrapolate_to_zero(const order_fit& fit, double dt_min, double value_at_dt_min) {
    if (!std::isfinite(fit.order) || !std::isfinite(fit.coefficient)) return nan;
    return value_at_dt_min - fit.coefficient * std::pow(dt_min, fit.order);
}

}  // namespace stokesian::study
