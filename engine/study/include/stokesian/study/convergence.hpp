#pragma once
// Order of convergence in dt from runs at several time steps (engine/docs/studies.md).
//
// A quantity Q (the period of the first cycle, the period drift per cycle, ...) computed with an
// integrator of order p behaves as Q(dt) = Q0 + c dt^p + O(dt^(p+1)). Its successive differences
// between neighbouring time steps dt_k > dt_{k+1} (ratio rho_k = dt_{k+1}/dt_k),
//
//     D_k = Q(dt_k) - Q(dt_{k+1}) = c dt_k^p (1 - rho_k^p),
//
// do not contain Q0, so neither the unknown exact value nor anything common to all runs (the
// parabolic fits' sampling error, which depends on the sampled trajectory only smoothly) enters.
// log|D_k| - log(1 - rho_k^p) is a straight line in log dt_k with slope p: fitted by least squares
// with Student-t confidence intervals (statistics.hpp), iterating p in the correction term (for
// a geometric sequence of dt the correction is a constant and drops out of the slope).
//
// Per-cycle values are compared pairwise (cycle j of one run against cycle j of the other) before
// fitting a line against the cycle index: the difference's intercept (first cycle) and slope
// (drift) then carry only what differs between the runs, with standard errors from the residuals
// of the paired differences.
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace stokesian::study {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// y = intercept + slope * x with the standard errors of both (residual standard deviation with
// n - 2 degrees of freedom) and the 95% half-widths (Student t). Fewer than 3 points: SEs NaN.
struct line_estimate {
    std::size_t points = 0;
    double intercept = nan, intercept_standard_error = nan, intercept_ci95 = nan;
    double slope = nan, slope_standard_error = nan, slope_ci95 = nan;
};
line_estimate fit_line_with_errors(std::span<const double> x, std::span<const double> y);

// The difference of two runs' per-cycle series (a[j] - b[j], j < min size, at most `limit`
// cycles) fitted against the cycle index j = 0, 1, ...: intercept = difference of the first
// cycle, slope = difference of the drifts per cycle. `index_step` scales the index (0.5 for
// amplitudes, two per cycle, so the slope is per cycle).
line_estimate paired_difference(std::span<const double> a, std::span<const double> b, std::size_t limit,
                                double index_step = 1.0);

// One successive difference D = Q(dt) - Q(dt_next), dt > dt_next, with its standard error.
struct difference_point {
    double dt = nan, dt_next = nan;
    double value = nan, standard_error = nan;
};

struct order_fit {
    std::size_t points = 0;      // resolved differences used in the fit
    std::size_t unresolved = 0;  // differences within `resolution` standard errors of zero
    double order = nan;          // p
    double order_ci95 = nan;     // 95% half-width (needs >= 3 points; Student t, n - 2 dof)
    double coefficient = nan;    // c, signed: Q(dt) = Q0 + c dt^p
    double resolution = nan;     // largest |D| that counted as unresolved (0 if none)
    std::string note;            // why no order, sign changes, ...
};

// Fits p and c from the successive differences (>= 2 resolved ones needed). A difference is
// resolved when |D| > `resolution_factor` x its standard error.
order_fit fit_convergence_order(std::span<const difference_point> differences, double resolution_factor = 3.0);

// Q0 = Q(dt_min) - c dt_min^p: the value extrapolated to dt -> 0 (Richardson), NaN without a fit.
double extrapolate_to_zero(const order_fit& fit, double dt_min, double value_at_dt_min);

}  // namespace stokesian::study
