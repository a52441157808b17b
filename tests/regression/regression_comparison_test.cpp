// The comparison of an observable with its reference (value_comparison.hpp): every tolerance kind
// passes inside and fails outside its tolerance, NaN means "none" and matches only NaN, arrays over
// windows report the worst element and, with before_loss, skip the windows after a loss.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "stokesian/regression/value_comparison.hpp"

using namespace stokesian::regression;

namespace {

constexpr double nan_value = not_a_number;

observed_value scalar(double x, double ci = nan_value) {
    observed_value v;
    v.values = {x};
    v.ci95_half_width = ci;
    return v;
}

reference_value reference(double x, tolerance_kind kind, double tolerance, double ci = nan_value) {
    reference_value r;
    r.value = scalar(x, ci);
    r.rule.kind = kind;
    r.rule.tolerance = tolerance;
    return r;
}

// Windowed values (one per window of 10^4 tau_s, ending at 1e4, 2e4, ...), relative tolerance 1e-4.
reference_value windows(std::vector<double> values) {
    reference_value r;
    r.value.scalar = false;
    for (std::size_t i = 0; i < values.size(); ++i) r.value.coordinate.push_back(1e4 * double(i + 1));
    r.value.values = std::move(values);
    r.value.window_length = 1e4;
    r.rule.kind = tolerance_kind::relative;
    r.rule.tolerance = 1e-4;
    return r;
}

bool passes(double observed, const reference_value& r, double observed_ci = nan_value) {
    return compare_value(scalar(observed, observed_ci), r).passed;
}

}  // namespace

TEST(RegressionComparison, ExactIsBitForBitAndNanMatchesNan) {
    EXPECT_TRUE(passes(0.0, reference(0.0, tolerance_kind::exact, 0)));
    EXPECT_FALSE(passes(1e-300, reference(0.0, tolerance_kind::exact, 0)));
    EXPECT_FALSE(passes(std::nextafter(517.0, 600.0), reference(517.0, tolerance_kind::exact, 0)));
    EXPECT_TRUE(passes(nan_value, reference(nan_value, tolerance_kind::exact, 0)));
    EXPECT_FALSE(passes(276000.0, reference(nan_value, tolerance_kind::exact, 0)));
}

TEST(RegressionComparison, AbsoluteAndRelativeToleranceBoundaries) {
    const reference_value a = reference(10.0, tolerance_kind::absolute, 0.5);
    EXPECT_TRUE(passes(10.5, a));
    EXPECT_TRUE(passes(9.5, a));
    EXPECT_FALSE(passes(10.5000001, a));
    const reference_value r = reference(-200.0, tolerance_kind::relative, 1e-3);
    EXPECT_TRUE(passes(-200.2, r));
    EXPECT_FALSE(passes(-200.3, r));
    EXPECT_FALSE(passes(nan_value, r));
}

TEST(RegressionComparison, ConfidenceIntervalsMustOverlap) {
    const reference_value r = reference(0.4158, tolerance_kind::ci_overlap, 0.0, 0.0044);
    EXPECT_TRUE(passes(0.4144, r, 0.0044));  // the measured ds/f32 realization spread
    EXPECT_TRUE(passes(0.4158 + 0.0087, r, 0.0044));
    EXPECT_FALSE(passes(0.4158 + 0.0090, r, 0.0044));
    EXPECT_FALSE(passes(0.4158, r, nan_value));  // no interval: cannot be compared
}

TEST(RegressionComparison, BandIsAFactorAndZeroStaysZero) {
    const reference_value r = reference(3.5e-6, tolerance_kind::band, 10.0);
    EXPECT_TRUE(passes(3.5e-5, r));
    EXPECT_TRUE(passes(3.5e-7, r));
    EXPECT_FALSE(passes(3.6e-5, r));
    EXPECT_FALSE(passes(0.0, r));
    EXPECT_FALSE(passes(-3.5e-6, r));
    const reference_value zero = reference(0.0, tolerance_kind::band, 10.0);
    EXPECT_TRUE(passes(0.0, zero));
    EXPECT_FALSE(passes(1e-300, zero));
}

TEST(RegressionComparison, ExpectedFailureMustHappenInsideItsWindow) {
    reference_value r = reference(276139.0, tolerance_kind::expected_failure_window, 0.0);
    r.rule.window = {230000.0, 330000.0};
    const run_context full{not_a_number, not_a_number, 517000.0};
    EXPECT_TRUE(compare_value(scalar(290000.0), r, full).passed);
    EXPECT_FALSE(compare_value(scalar(229999.0), r, full).passed);  // falls apart too early
    EXPECT_FALSE(compare_value(scalar(330001.0), r, full).passed);
    const comparison_outcome hidden = compare_value(scalar(nan_value), r, full);
    EXPECT_FALSE(hidden.passed);
    EXPECT_NE(hidden.detail.find("known failure"), std::string::npos) << hidden.detail;
    // A run that ends before the window closes may end before the failure, not fail before the window.
    const run_context shortened{not_a_number, not_a_number, 5170.0};
    EXPECT_TRUE(compare_value(scalar(nan_value), r, shortened).passed);
    EXPECT_FALSE(compare_value(scalar(4000.0), r, shortened).passed);
    const run_context inside{not_a_number, not_a_number, 260000.0};
    EXPECT_TRUE(compare_value(scalar(nan_value), r, inside).passed);
}

TEST(RegressionComparison, NotBeforeAcceptsNoneOrLate) {
    const reference_value r = reference(nan_value, tolerance_kind::not_before, 400000.0);
    EXPECT_TRUE(passes(nan_value, r));
    EXPECT_TRUE(passes(469567.0, r));
    EXPECT_FALSE(passes(399999.0, r));
}

TEST(RegressionComparison, ArraysReportTheWorstWindowAndNeedEqualLengths) {
    reference_value r = windows({517.3, 520.0, 530.0});
    observed_value o = r.value;
    EXPECT_TRUE(compare_value(o, r).passed);
    o.values[1] = 520.1;  // 1.9e-4 relative
    const comparison_outcome c = compare_value(o, r);
    EXPECT_FALSE(c.passed);
    EXPECT_NE(c.detail.find("#1"), std::string::npos) << c.detail;
    o = r.value;
    o.values.pop_back();
    EXPECT_FALSE(compare_value(o, r).passed);
}

TEST(RegressionComparison, UntilLimitsTheWindowsCompared) {
    reference_value r = windows({517.3, 520.0, 530.0});
    r.rule.until = 2e4;
    observed_value o = r.value;
    o.values = {517.3, 520.0, 999.0, 1.0};  // another orbit after 2e4, and another count
    EXPECT_TRUE(compare_value(o, r).passed);
    o.values[1] = 521.0;
    EXPECT_FALSE(compare_value(o, r).passed);
}

TEST(RegressionComparison, BeforeLossComparesOnlyWindowsEndingAWindowBeforeTheEarlierLoss) {
    reference_value r = windows({517.3, 520.0, 530.0, 545.0});
    r.rule.before_loss = true;
    observed_value o = r.value;
    o.values = {517.3, 520.0, 600.0};  // falls apart during window 2, one window fewer
    // Losses at 3.5e4 (observed) and 4.2e4 (reference): windows ending by 2.5e4 are compared.
    EXPECT_TRUE(compare_value(o, r, {3.5e4, 4.2e4, 5e4}).passed);
    o.values[1] = 521.0;
    EXPECT_FALSE(compare_value(o, r, {3.5e4, 4.2e4, 5e4}).passed);
}

// A check that compares nothing is skipped, never passed (issue #14): runs shorter than one window
// have no window in either run, and a quantity too short a run cannot compute is NaN in both.
TEST(RegressionComparison, NothingToCompareIsSkippedNeverPassed) {
    reference_value r = windows({});
    observed_value o = r.value;
    const comparison_outcome none = compare_value(o, r);
    EXPECT_TRUE(none.skipped);
    EXPECT_FALSE(none.passed);
    EXPECT_NE(none.detail.find("nothing to compare"), std::string::npos) << none.detail;
    // One run has windows, the other none: that is a difference, not nothing.
    reference_value three = windows({517.3, 520.0, 530.0});
    o.values.clear();
    o.coordinate.clear();
    const comparison_outcome missing = compare_value(o, three);
    EXPECT_FALSE(missing.skipped);
    EXPECT_FALSE(missing.passed);
    // Both lost their periodicity before the first window ended: nothing before the loss to compare.
    three.rule.before_loss = true;
    o = three.value;
    const comparison_outcome lost = compare_value(o, three, {5e3, 8e3, 5e4});
    EXPECT_TRUE(lost.skipped);
    EXPECT_FALSE(lost.passed);

    // NaN in both: nothing to compare where NaN means "could not compute"; an agreement where it
    // means "never happened".
    const reference_value drift = reference(nan_value, tolerance_kind::ci_overlap, 0.0, nan_value);
    const comparison_outcome undefined = compare_value(scalar(nan_value), drift, {}, nan_meaning::undefined);
    EXPECT_TRUE(undefined.skipped);
    EXPECT_FALSE(undefined.passed);
    EXPECT_FALSE(compare_value(scalar(nan_value), drift, {}, nan_meaning::none).skipped);
    const reference_value loss = reference(nan_value, tolerance_kind::exact, 0);
    const comparison_outcome never = compare_value(scalar(nan_value), loss, {}, nan_meaning::none);
    EXPECT_TRUE(never.passed);
    EXPECT_FALSE(never.skipped);
    // Only one of them NaN is a failure, whatever NaN means.
    const reference_value finite = reference(0.41, tolerance_kind::relative, 0.1);
    const comparison_outcome one = compare_value(scalar(nan_value), finite, {}, nan_meaning::undefined);
    EXPECT_FALSE(one.passed);
    EXPECT_FALSE(one.skipped);
}
