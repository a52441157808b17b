#pragma once
// The trend of a per-cycle series (a period or an amplitude against the cycle index) and what it
// says at the first cycle, with intervals that hold when the series bends (engine/docs/studies.md,
// "Fitting the trend").
//
// Euler's drift makes the period grow faster than linearly, so a straight line through the periods
// misplaces the first period and the drift at cycle 0 by more than its own interval (the line's
// residuals then are curvature, not noise). Instead a polynomial y = sum_j b_j x^j of the lowest
// degree d >= 2 the residuals support is fitted by least squares: the smallest d whose residual sum
// of squares is not significantly larger than that of degree D = min(max_degree + 1, n - 2)
// (lack-of-fit F test, F = ((RSS_d - RSS_D)/(D - d)) / (RSS_D/(n - D - 1)), p >= significance).
// Where even degree max_degree shows lack of fit over the whole series, the same choice is made on
// the leading half, quarter, ... (at least `smallest_window` points): the first cycle is what is
// wanted, and a low-degree polynomial describes a shorter stretch. Its value and slope at x = 0 get
// Student-t intervals with window - d - 1 degrees of freedom. Those intervals assume independent
// errors: a runs test of the residual signs checks it (positively correlated residuals widen the
// intervals), and the verdict (trend_validity) says whether the intervals can be trusted.
//
// The least-squares line's slope over all points (the mean drift over the series, the number the
// engine and the regression references have always stored) is kept; its standard error is
// s / sqrt(Sxx) with s from the chosen polynomial's residuals over all points, so lack of fit no
// longer counts as noise (where no degree fits all points, what is left of it still does:
// conservative).
#include <cstddef>
#include <limits>
#include <span>
#include <string>

namespace stokesian {

struct interval_estimate {
    double value = std::numeric_limits<double>::quiet_NaN();
    double standard_error = std::numeric_limits<double>::quiet_NaN();
    double ci95_half_width = std::numeric_limits<double>::quiet_NaN();
};

// adequate: the lack-of-fit test passed and the signs of the residuals show no pattern (runs test,
// statistics.hpp); lack_of_fit: the F test failed at every window (intervals not to be trusted);
// correlated_residuals: the polynomial fits but the residual signs change too seldom (positively
// correlated errors: the intervals are widened for the lag-1 correlation, an approximation);
// alternating_residuals: they change too often (a period is the difference of two neighbouring
// maxima, so independent vertex errors give periods correlated by -1/2; the amplitudes of the two
// half cycles alternate): smooth estimates average this out, the intervals are conservative;
// untested: too few points to test (n < 5), the polynomial is assumed.
enum class trend_validity { adequate, lack_of_fit, correlated_residuals, alternating_residuals, untested };
std::string to_string(
    trend_validity v);  // "adequate", "lack of fit", "correlated residuals", "alternating residuals", "untested"

// significance: a test speaks against the model below this p-value. 0.001, not 0.05: the quadratic
// is what Euler's drift predicts, and a higher degree or a shorter window chosen on weak evidence
// conditions the intervals on a pattern of the noise (at 0.05, 5% of pure quadratics were moved to
// degree 3 or 4, and those draws' drift intervals covered ~35% of the time: 93% overall; at 0.001
// the synthetic coverage is 95%, tests/observables/trend_fit_test.cpp).
struct trend_options {
    int max_degree = 4;
    double significance = 1e-3;
    std::size_t smallest_window = 8;
};

struct trend_fit {
    std::size_t points = 0;  // points of the series
    std::size_t window = 0;  // leading points the polynomial for first/initial_slope was fitted to
    int degree = -1;         // its degree (1 with 3 points, else >= 2); -1: no fit (< 3 points)
    double lack_of_fit_p = std::numeric_limits<double>::quiet_NaN();    // of that choice; NaN: untested
    double residual_runs_p = std::numeric_limits<double>::quiet_NaN();  // runs test of its residuals; NaN: < 10
    double residual_lag1_correlation = std::numeric_limits<double>::quiet_NaN();  // rho-hat of its residuals
    double interval_widening = 1.0;  // sqrt((1 + rho)/(1 - rho)) on the SEs where correlated (rho > 0), else 1
    trend_validity validity = trend_validity::untested;
    double residual_standard_deviation = std::numeric_limits<double>::quiet_NaN();  // over the window
    interval_estimate first;          // the polynomial at x = 0 (the first cycle)
    interval_estimate initial_slope;  // its derivative at x = 0: the drift per unit x at the first cycle
    interval_estimate mean_slope;     // least-squares line slope over all points (SE: see above)
    double line_intercept = std::numeric_limits<double>::quiet_NaN();  // that line at x = 0
};

// x: the cycle index (or half of it for amplitudes), y: the series. Fewer than 3 points: intervals
// NaN (the line's slope from 2 points is still given, as fit_line does).
trend_fit fit_trend(std::span<const double> x, std::span<const double> y, const trend_options& options = {});

}  // namespace stokesian
