// Comparison of one observable with its reference value (value_comparison.hpp). Scalars compare
// directly; arrays over windows element by element, reporting the worst element.
#include "stokesian/regression/value_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stokesian::regression {

std::string format_number(double x) {
    if (std::isnan(x)) return "NaN";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", x);
    return buffer;
}

namespace {

// One element: the verdict and how far it is from failing (deviation / allowed deviation).
struct element_outcome {
    bool passed = false;
    double ratio = 0.0;
    std::string reason;
};

double ratio_of(double deviation, double allowed) {
    if (deviation == 0.0) return 0.0;
    return allowed > 0.0 ? deviation / allowed : INFINITY;
}

element_outcome compare_element(double o, double r, double o_ci, double r_ci, const check_rule& rule, double run_end) {
    const bool o_nan = std::isnan(o), r_nan = std::isnan(r);
    element_outcome e;
    if (rule.kind == tolerance_kind::expected_failure_window) {
        // The known failure must happen inside the window; a run that ends before the window
        // closes may end without it.
        const double earliest = rule.window.at(0), latest = rule.window.at(1);
        if (o_nan) {
            e.passed = run_end < latest;
            e.ratio = e.passed ? 0.0 : INFINITY;
            if (!e.passed)
                e.reason = "the known failure (negative control) did not happen: expected between " +
                           format_number(earliest) + " and " + format_number(latest) +
                           "; a change hides a known weakness";
            return e;
        }
        e.passed = o >= earliest && o <= latest;
        const double centre = 0.5 * (earliest + latest), half = 0.5 * (latest - earliest);
        e.ratio = std::fabs(o - centre) / half;
        if (!e.passed)
            e.reason = "at " + format_number(o) + ", outside the window [" + format_number(earliest) + ", " +
                       format_number(latest) + "]";
        return e;
    }
    if (rule.kind == tolerance_kind::not_before) {
        // Either it never happens or not before the threshold, whatever the reference run did.
        e.passed = o_nan || o >= rule.tolerance;
        e.ratio = o_nan ? 0.0 : o > 0.0 ? rule.tolerance / o : INFINITY;
        if (!e.passed) e.reason = "at " + format_number(o) + ", before " + format_number(rule.tolerance);
        return e;
    }
    if (o_nan || r_nan) {
        e.passed = o_nan && r_nan;
        e.ratio = e.passed ? 0.0 : INFINITY;
        if (!e.passed) e.reason = std::string(o_nan ? "observed" : "reference") + " is NaN (none), the other is not";
        return e;
    }
    const double deviation = std::fabs(o - r);
    double allowed = 0.0;
    switch (rule.kind) {
        case tolerance_kind::exact: allowed = 0.0; break;
        case tolerance_kind::absolute: allowed = rule.tolerance; break;
        case tolerance_kind::expected_failure_window:
        case tolerance_kind::not_before: break;  // decided above
        case tolerance_kind::relative: allowed = rule.tolerance * std::fabs(r); break;
        case tolerance_kind::ci_overlap:
            if (std::isnan(o_ci) || std::isnan(r_ci)) {
                e.ratio = INFINITY;
                e.reason = "no 95% confidence interval (fewer than 3 points)";
                return e;
            }
            allowed = o_ci + r_ci + rule.tolerance;
            break;
        case tolerance_kind::band: {
            // A factor band around the reference magnitude; zero stays exactly zero.
            if (r == 0.0 || o == 0.0) {
                e.passed = o == r;
                e.ratio = e.passed ? 0.0 : INFINITY;
                if (!e.passed) e.reason = "one of observed and reference is exactly 0, the other is not";
                return e;
            }
            const double factor = std::max(std::fabs(o) / std::fabs(r), std::fabs(r) / std::fabs(o));
            e.passed = (o > 0.0) == (r > 0.0) && factor <= rule.tolerance;
            e.ratio = factor == 1.0          ? 0.0
                      : rule.tolerance > 1.0 ? std::log(factor) / std::log(rule.tolerance)
                                             : INFINITY;
            if (!e.passed) e.reason = "off by a factor " + format_number(factor);
            return e;
        }
    }
    e.passed = deviation <= allowed;
    e.ratio = ratio_of(deviation, allowed);
    if (!e.passed) e.reason = "off by " + format_number(deviation) + " (allowed " + format_number(allowed) + ")";
    return e;
}

std::string tolerance_text(const check_rule& rule, const observed_value& o, const reference_value& r) {
    switch (rule.kind) {
        case tolerance_kind::exact: return "exact";
        case tolerance_kind::absolute: return "+- " + format_number(rule.tolerance);
        case tolerance_kind::relative: return "+- " + format_number(rule.tolerance) + " rel";
        case tolerance_kind::ci_overlap:
            return "CI overlap +- " + format_number(o.ci95_half_width + r.value.ci95_half_width + rule.tolerance);
        case tolerance_kind::band: return "factor " + format_number(rule.tolerance);
        case tolerance_kind::expected_failure_window:
            return "fails in [" + format_number(rule.window.at(0)) + ", " + format_number(rule.window.at(1)) + "]";
        case tolerance_kind::not_before: return "none or >= " + format_number(rule.tolerance);
    }
    return "?";
}

// How many leading windows both runs can be compared over: all of them (the lengths must then
// agree), or with before_loss those that end at least one window before the earlier loss of
// periodicity, and with until those that end by that time.
std::size_t comparable_windows(const observed_value& o, const reference_value& r, const run_context& context) {
    const double o_loss = context.observed_loss, r_loss = context.reference_loss;
    const std::size_t common = std::min(o.values.size(), r.value.values.size());
    double last_end = INFINITY;
    if (r.rule.before_loss) {
        const double loss = std::fmin(std::isnan(o_loss) ? INFINITY : o_loss, std::isnan(r_loss) ? INFINITY : r_loss);
        last_end = loss - (std::isnan(r.value.window_length) ? 0.0 : r.value.window_length);
    }
    if (!std::isnan(r.rule.until)) last_end = std::fmin(last_end, r.rule.until);
    if (std::isinf(last_end)) return common;
    std::size_t n = 0;
    while (n < common && n < r.value.coordinate.size() && r.value.coordinate[n] <= last_end) ++n;
    return n;
}

}  // namespace

comparison_outcome compare_value(const observed_value& observed, const reference_value& reference,
                                 const run_context& context, nan_meaning nan) {
    comparison_outcome out;
    const check_rule& rule = reference.rule;
    out.tolerance = tolerance_text(rule, observed, reference);
    const bool scalar = reference.value.values.size() == 1 && reference.value.scalar;
    if (scalar) {
        if (observed.values.size() != 1) {
            out.detail = "the result holds " + std::to_string(observed.values.size()) + " values, the reference one";
            out.ratio = INFINITY;
            return out;
        }
        if (nan == nan_meaning::undefined && std::isnan(observed.values[0]) && std::isnan(reference.value.values[0])) {
            out.skipped = true;
            out.ratio = not_a_number;
            out.observed = out.reference = "NaN";
            out.detail = "nothing to compare: neither run could compute it (too short a run)";
            return out;
        }
        const element_outcome e =
            compare_element(observed.values[0], reference.value.values[0], observed.ci95_half_width,
                            reference.value.ci95_half_width, rule, context.observed_end);
        out.passed = e.passed;
        out.ratio = e.ratio;
        out.detail = e.reason;
        out.observed = format_number(observed.values[0]);
        out.reference = format_number(reference.value.values[0]);
        if (rule.kind == tolerance_kind::ci_overlap) {
            out.observed += " +- " + format_number(observed.ci95_half_width);
            out.reference += " +- " + format_number(reference.value.ci95_half_width);
        }
        return out;
    }

    const std::size_t n_obs = observed.values.size(), n_ref = reference.value.values.size();
    const std::size_t n = comparable_windows(observed, reference, context);
    std::string count_problem;
    if (!rule.before_loss && std::isnan(rule.until) && n_obs != n_ref)
        count_problem = std::to_string(n_obs) + " values observed, " + std::to_string(n_ref) + " in the reference";
    out.observed = std::to_string(n_obs) + " values";
    out.reference = std::to_string(n_ref) + " values";
    out.passed = count_problem.empty();
    std::size_t worst = n;
    element_outcome worst_outcome;
    for (std::size_t k = 0; k < n; ++k) {
        const element_outcome e = compare_element(observed.values[k], reference.value.values[k], not_a_number,
                                                  not_a_number, rule, context.observed_end);
        if (worst == n || e.ratio > worst_outcome.ratio || (!e.passed && worst_outcome.passed)) {
            worst = k;
            worst_outcome = e;
        }
    }
    if (worst < n) {
        out.passed = out.passed && worst_outcome.passed;
        out.ratio = worst_outcome.ratio;
        out.observed = format_number(observed.values[worst]);
        out.reference = format_number(reference.value.values[worst]);
        const double end = worst < reference.value.coordinate.size() ? reference.value.coordinate[worst] : not_a_number;
        out.detail = "worst of " + std::to_string(n) + " compared: #" + std::to_string(worst) +
                     (std::isnan(end) ? "" : " (ends at t = " + format_number(end) + ")") +
                     (worst_outcome.reason.empty() ? "" : ": " + worst_outcome.reason);
    } else {
        // Neither run has a window to compare (runs shorter than one window, or both lost their
        // periodicity before the first): skipped, not passed, unless the counts already disagree.
        out.skipped = count_problem.empty();
        out.passed = false;
        out.ratio = not_a_number;
        out.detail = !out.skipped ? "no window to compare"
                     : n_obs == 0 && n_ref == 0
                         ? "nothing to compare: no complete window in either run (runs shorter than one window)"
                         : "nothing to compare: no window before the loss of periodicity or the rule's end";
    }
    if (!count_problem.empty()) {
        out.ratio = INFINITY;
        out.detail = count_problem + "; " + out.detail;
    }
    return out;
}

}  // namespace stokesian::regression
