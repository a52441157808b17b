#pragma once
// Small statistics used by the observables: a least-squares straight line with the confidence
// interval of its slope, and the median.
#include <cstddef>
#include <span>

namespace stokesian {

// y = intercept + slope * x fitted by least squares. The slope's standard error comes from the
// residuals, SE = sqrt(sum r^2 / (n - 2)) / sqrt(sum (x - mean x)^2), and the 95% confidence
// interval is slope +- t_{0.975, n-2} SE with Student's t quantile (Boost.Math). With fewer than
// three points, or all x equal, the undefined quantities are NaN.
struct line_fit {
    std::size_t points = 0;
    double slope = 0.0;
    double intercept = 0.0;  // at x = 0
    double slope_standard_error = 0.0;
    double slope_ci95_half_width = 0.0;
    double residual_standard_deviation = 0.0;
};
line_fit fit_line(std::span<const double> x, std::span<const double> y);

// Student's t quantile t_{p, dof} (Boost.Math), e.g. p = 0.975 for a two-sided 95% interval.
double student_t_quantile(double p, double degrees_of_freedom);

// P(F > f) for Fisher's F distribution with (d1, d2) degrees of freedom (Boost.Math): the p-value of
// an F test. f = +inf gives 0; f = NaN gives NaN (no p-value).
double fisher_f_upper_tail(double f, double d1, double d2);

// Wald-Wolfowitz runs test of the signs of residuals (zeros dropped): z = (runs - mean) / sd against
// independent signs, normal approximation (mean 2 n+ n- / n + 1, variance (mean - 1)(mean - 2)/(n - 1));
// the two-sided p-value is erfc(|z| / sqrt 2). z < 0, too few runs: positively correlated errors or a
// slowly varying pattern left; z > 0, too many: the signs alternate. NaN with fewer than 10 nonzero
// residuals or all of one sign.
double sign_runs_z(std::span<const double> residuals);

// Median of the values (the mean of the two middle ones for an even count); NaN when empty.
double median(std::span<const double> values);

}  // namespace stokesian
