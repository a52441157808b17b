// Polynomial trend of a per-cycle series with a lack-of-fit test (trend_fit.hpp).
#include "stokesian/observables/trend_fit.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "stokesian/observables/statistics.hpp"

namespace stokesian {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Least squares in the powers t^j of t = (x - centre) / scale in [-1, 1], orthogonalised by
// Gram-Schmidt with a second pass (the columns t^0 .. t^5 are far from orthogonal): V = Q R. The
// data are projected on q_0, q_1, ... one after the other, so the residual sum of squares of every
// degree up to the top one comes from one factorisation, computed from the residuals themselves
// (periods ~517 varying by 1e-3: sums of squares of raw values would cancel).
struct power_basis {
    double centre = 0.0, scale = 1.0;
    std::vector<std::vector<double>> r;         // r[k][j], k <= j: upper triangle of R
    std::vector<double> coefficient;            // q_j . (what was left of y after q_0 .. q_{j-1})
    std::vector<double> rss;                    // residual sum of squares after q_0 .. q_j
    std::vector<std::vector<double>> residual;  // the residuals after q_0 .. q_j
    int top() const { return int(coefficient.size()) - 1; }
};

power_basis factorise(std::span<const double> x, std::span<const double> y, int top_degree) {
    power_basis b;
    const std::size_t n = x.size();
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    b.centre = 0.5 * (*lo + *hi);
    b.scale = *hi > *lo ? 0.5 * (*hi - *lo) : 1.0;
    std::vector<std::vector<double>> q;
    std::vector<double> residual(y.begin(), y.end());
    for (int j = 0; j <= top_degree; ++j) {
        std::vector<double> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = std::pow((x[i] - b.centre) / b.scale, j);
        const double original = std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
        std::vector<double> column(j + 1, 0.0);
        for (int pass = 0; pass < 2; ++pass)
            for (int k = 0; k < j; ++k) {
                const double c = std::inner_product(q[k].begin(), q[k].end(), v.begin(), 0.0);
                for (std::size_t i = 0; i < n; ++i) v[i] -= c * q[k][i];
                column[k] += c;
            }
        const double norm = std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
        if (!(norm > 1e-10 * original)) break;  // fewer distinct x than coefficients
        for (double& vi : v) vi /= norm;
        column[j] = norm;
        const double c = std::inner_product(v.begin(), v.end(), residual.begin(), 0.0);
        for (std::size_t i = 0; i < n; ++i) residual[i] -= c * v[i];
        q.push_back(std::move(v));
        b.r.push_back(std::move(column));
        b.coefficient.push_back(c);
        b.rss.push_back(std::inner_product(residual.begin(), residual.end(), residual.begin(), 0.0));
        b.residual.push_back(residual);
    }
    return b;
}

// A linear functional g . beta of the degree-d coefficients (beta solves R beta = coefficient) and
// its standard error s |R^-T g|.
interval_estimate functional(const power_basis& b, int d, const std::vector<double>& g, double s, double dof) {
    std::vector<double> beta(d + 1), h(d + 1);
    for (int j = d; j >= 0; --j) {
        double sum = b.coefficient[j];
        for (int k = j + 1; k <= d; ++k) sum -= b.r[k][j] * beta[k];
        beta[j] = sum / b.r[j][j];
    }
    for (int j = 0; j <= d; ++j) {
        double sum = g[j];
        for (int k = 0; k < j; ++k) sum -= b.r[j][k] * h[k];
        h[j] = sum / b.r[j][j];
    }
    interval_estimate e;
    e.value = 0.0;
    double h2 = 0.0;
    for (int j = 0; j <= d; ++j) {
        e.value += g[j] * beta[j];
        h2 += h[j] * h[j];
    }
    if (dof >= 1.0) {
        e.standard_error = s * std::sqrt(h2);
        e.ci95_half_width = student_t_quantile(0.975, dof) * e.standard_error;
    }
    return e;
}

struct polynomial_choice {
    power_basis basis;
    int degree = -1;
    double lack_of_fit_p = nan, runs_z = nan, runs_p = nan, lag1 = nan;
    bool polynomial_fits = false;  // the lack-of-fit test passed
    trend_validity validity = trend_validity::untested;
    double dof = nan, s = nan;
    double widening = 1.0;  // factor on the standard errors for correlated residuals
};

// The lowest degree >= 2 (1 for 3 points) whose lack of fit against the top degree is not significant.
polynomial_choice choose_polynomial(std::span<const double> x, std::span<const double> y, const trend_options& o) {
    polynomial_choice c;
    const std::size_t n = x.size();
    if (n < 3) return c;
    const int lowest = n >= 4 ? 2 : 1;
    c.basis = factorise(x, y, std::min(o.max_degree + 1, int(n) - 2));
    const int top = c.basis.top();
    if (top < 1) return c;  // all x equal
    c.degree = std::min(lowest, top);
    if (top > c.degree) {
        const double top_dof = double(n) - top - 1, top_rss = c.basis.rss[top];
        for (int d = c.degree; d < top; ++d) {
            const double extra = c.basis.rss[d] - top_rss;
            const double p = top_rss > 0.0 ? fisher_f_upper_tail(std::max(extra, 0.0) / (top - d) / (top_rss / top_dof),
                                                                 top - d, top_dof)
                             : extra > 0.0 ? 0.0
                                           : 1.0;
            c.degree = d;
            c.lack_of_fit_p = p;
            if (p >= o.significance) break;
        }
        c.polynomial_fits = c.lack_of_fit_p >= o.significance;
        c.validity = c.polynomial_fits ? trend_validity::adequate : trend_validity::lack_of_fit;
    }
    c.dof = double(n) - c.degree - 1;
    c.s = std::sqrt(c.basis.rss[c.degree] / c.dof);
    // The intervals assume independent errors: a residual pattern the polynomial cannot absorb
    // (alternating amplitudes, a slowly varying sampling error) shows in the runs of their signs.
    c.runs_z = sign_runs_z(c.basis.residual[c.degree]);
    c.runs_p = std::erfc(std::fabs(c.runs_z) / std::sqrt(2.0));
    if (c.validity != trend_validity::lack_of_fit && c.runs_p < o.significance)
        c.validity = c.runs_z < 0.0 ? trend_validity::correlated_residuals : trend_validity::alternating_residuals;
    const std::vector<double>& r = c.basis.residual[c.degree];
    double lagged = 0.0;
    for (std::size_t i = 0; i + 1 < n; ++i) lagged += r[i] * r[i + 1];
    c.lag1 = c.basis.rss[c.degree] > 0.0 ? lagged / c.basis.rss[c.degree] : 0.0;
    // Positively correlated errors carry less information than as many independent ones: for
    // errors e_k = rho e_(k-1) + noise (AR(1)) the variance of a smooth linear estimate grows by
    // (1 + rho)/(1 - rho) and the effective number of points shrinks by its inverse (for large n).
    // Applied where the runs test found too few runs and rho > 0; independent errors are left
    // alone (their rho-hat scatters around 0 by ~1/sqrt(n)). Alternating errors (rho < 0) need no
    // widening: for smooth estimates they cancel, and the intervals are conservative.
    if (c.validity == trend_validity::correlated_residuals && c.lag1 > 0.0) {
        const double rho = std::min(c.lag1, 0.95);
        c.widening = std::sqrt((1.0 + rho) / (1.0 - rho));
        c.dof = std::max(1.0, std::floor(c.dof * (1.0 - rho) / (1.0 + rho)));
    }
    return c;
}

}  // namespace

std::string to_string(trend_validity v) {
    switch (v) {
        case trend_validity::adequate: return "adequate";
        case trend_validity::lack_of_fit: return "lack of fit";
        case trend_validity::correlated_residuals: return "correlated residuals";
        case trend_validity::alternating_residuals: return "alternating residuals";
        case trend_validity::untested: return "untested";
    }
    return "?";
}

trend_fit fit_trend(std::span<const double> x, std::span<const double> y, const trend_options& options) {
    trend_fit f;
    const std::size_t n = std::min(x.size(), y.size());
    x = x.first(n);
    y = y.first(n);
    f.points = n;
    const line_fit line = fit_line(x, y);
    f.line_intercept = line.intercept;
    f.mean_slope.value = line.slope;
    const polynomial_choice all = choose_polynomial(x, y, options);
    if (all.degree < 1) return f;
    // The line's slope w . y, w = (x - mean x) / Sxx, has variance s^2 / Sxx whatever the trend.
    double mean_x = 0.0, sxx = 0.0;
    for (const double xi : x) mean_x += xi;
    mean_x /= double(n);
    for (const double xi : x) sxx += (xi - mean_x) * (xi - mean_x);
    f.mean_slope.standard_error = all.widening * all.s / std::sqrt(sxx);
    f.mean_slope.ci95_half_width = student_t_quantile(0.975, all.dof) * f.mean_slope.standard_error;

    polynomial_choice used = all;
    std::size_t window = n;
    if (all.validity == trend_validity::lack_of_fit)
        for (std::size_t m = n / 2; m >= options.smallest_window; m /= 2) {
            polynomial_choice shorter = choose_polynomial(x.first(m), y.first(m), options);
            if (shorter.polynomial_fits) {
                used = std::move(shorter);
                window = m;
                break;
            }
        }
    f.window = window;
    f.degree = used.degree;
    f.lack_of_fit_p = used.lack_of_fit_p;
    f.residual_runs_p = used.runs_p;
    f.residual_lag1_correlation = used.lag1;
    f.interval_widening = used.widening;
    f.validity = used.validity;
    f.residual_standard_deviation = used.s;
    const power_basis& b = used.basis;
    const double t0 = (0.0 - b.centre) / b.scale;
    std::vector<double> value_at_0(used.degree + 1), slope_at_0(used.degree + 1, 0.0);
    for (int j = 0; j <= used.degree; ++j) {
        value_at_0[j] = std::pow(t0, j);
        if (j > 0) slope_at_0[j] = j * std::pow(t0, j - 1) / b.scale;
    }
    f.first = functional(b, used.degree, value_at_0, used.widening * used.s, used.dof);
    f.initial_slope = functional(b, used.degree, slope_at_0, used.widening * used.s, used.dof);
    return f;
}

}  // namespace stokesian
