#include "stokesian/observables/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace stokesian {

double student_t_quantile(double p, double degrees_of_freedom) {
    const boost::math::students_t distribution(degrees_of_freedom);
    return boost::math::quantile(distribution, p);
}

double fisher_f_upper_tail(double f, double d1, double d2) {
    // A statistic that is not a number (sums of squares that overflowed: inf - inf) has no p-value;
    // Boost.Math would throw std::domain_error for it.
    if (std::isnan(f)) return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(f) && f > 0.0) return 0.0;
    const boost::math::fisher_f distribution(d1, d2);
    return boost::math::cdf(boost::math::complement(distribution, f));
}

line_fit fit_line(std::span<const double> x, std::span<const double> y) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    line_fit fit;
    const std::size_t n = std::min(x.size(), y.size());
    fit.points = n;
    if (n < 2) {
        fit.slope = fit.intercept = fit.slope_standard_error = fit.slope_ci95_half_width = nan;
        fit.residual_standard_deviation = nan;
        return fit;
    }
    // Two passes about the means: the periods are ~517 and vary by ~1e-3, so sums of squares of
    // the raw values would cancel away most of the digits that matter.
    double mean_x = 0.0, mean_y = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        mean_x += x[i];
        mean_y += y[i];
    }
    mean_x /= double(n);
    mean_y /= double(n);
    double sxx = 0.0, sxy = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mean_x) * (x[i] - mean_x);
        sxy += (x[i] - mean_x) * (y[i] - mean_y);
    }
    if (!(sxx > 0.0)) {
        fit.slope = fit.intercept = fit.slope_standard_error = fit.slope_ci95_half_width = nan;
        fit.residual_standard_deviation = nan;
        return fit;
    }
    fit.slope = sxy / sxx;
    fit.intercept = mean_y - fit.slope * mean_x;
    if (n < 3) {
        fit.slope_standard_error = fit.slope_ci95_half_width = fit.residual_standard_deviation = nan;
        return fit;
    }
    double residual_squares = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = y[i] - (mean_y + fit.slope * (x[i] - mean_x));
        residual_squares += r * r;
    }
    const double dof = double(n - 2);
    fit.residual_standard_deviation = std::sqrt(residual_squares / dof);
    fit.slope_standard_error = fit.residual_standard_deviation / std::sqrt(sxx);
    fit.slope_ci95_half_width = student_t_quantile(0.975, dof) * fit.slope_standard_error;
    return fit;
}

double sign_runs_z(std::span<const double> residuals) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    double positive = 0.0, negative = 0.0, runs = 0.0;
    int previous = 0;
    for (const double r : residuals) {
        const int sign = r > 0.0 ? 1 : r < 0.0 ? -1 : 0;
        if (sign == 0) continue;
        (sign > 0 ? positive : negative) += 1.0;
        if (sign != previous) runs += 1.0;
        previous = sign;
    }
    const double n = positive + negative;
    if (n < 10.0 || positive == 0.0 || negative == 0.0) return nan;
    const double mean = 2.0 * positive * negative / n + 1.0;
    const double variance = (mean - 1.0) * (mean - 2.0) / (n - 1.0);
    if (!(variance > 0.0)) return nan;
    return (runs - mean) / std::sqrt(variance);
}

double median(std::span<const double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

}  // namespace stokesian
