// The regression-suite observables on short real runs (engine/docs/observables.md): the approaching
// pair against the lubrication law and the explicit scheme's instability, the tetrahedron's period
// drift with its confidence interval and the averaging windows, and the fcc velocity spread.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "stokesian/core/scenario.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/observables/pair_approach.hpp"
#include "stokesian/observables/statistics.hpp"
#include "stokesian/observables/trend_fit.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/study/convergence.hpp"
#include "stokesian/study/study.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

using stokesian::test_support::scenario_folder;

// Runs a scenario without trajectory into a temporary file and opens the result.
class ObservablesRun : public ::testing::Test {
protected:
    void TearDown() override {
        for (const auto& p : written_) fs::remove(p);
    }
    io::h5md_file& run(scenario s, const std::string& tag) {
        s.run.write_trajectory = false;
        run_request req;
        req.scenario_ = s;
        req.output.path =
            fs::temp_directory_path() / ("stokesian_observables_" + std::to_string(::getpid()) + "_" + tag + ".h5");
        req.output.force = true;
        req.threads = 1;
        const run_result r = run_scenario(req);
        EXPECT_FALSE(r.failed) << r.status;
        written_.push_back(req.output.path);
        file_ = std::make_unique<io::h5md_file>(req.output.path);
        return *file_;
    }
    double scalar(const std::string& name) const { return file_->read_doubles("/analysis/" + name).at(0); }
    std::vector<double> series(const std::string& name) const {
        return file_->read_doubles(io::observable_path(name) + "/value");
    }
    std::vector<double> series_time(const std::string& name) const {
        return file_->read_doubles(io::observable_path(name) + "/time");
    }

    std::vector<fs::path> written_;
    std::unique_ptr<io::h5md_file> file_;
};

}  // namespace

TEST_F(ObservablesRun, HeadOnPairFollowsTheImplicitLawThenTheExplicitSchemeOscillatesBelowTheCriticalGap) {
    // Sampled every step, 1.2 tau_s: the gap closes from 0.5 through s_c = 0.282 (t ~ 0.44) to ~0.15.
    for (const double dt : {0.001, 0.002}) {
        SCOPED_TRACE("dt = " + std::to_string(dt));
        scenario s = load_scenario(scenario_folder / "approaching_pairs.toml", "head_on");
        s.run.dt = dt;
        s.run.sample_every = dt;
        s.run.time = 1.2;
        run(s, "head_on");
        const double critical = scalar("pair_gap/critical_gap"),
                     crossing = scalar("pair_gap/critical_gap_crossing_time");
        EXPECT_NEAR(critical, 0.2819764547, 1e-9);
        ASSERT_TRUE(std::isfinite(crossing));

        // The explicit scheme iterates w_n = m (D - 2 zeta w_{n-1}): its error dies as |g|^n with
        // |g| <= 0.61 at s = 0.5, so after 60 steps (0.61^60 ~ 1e-13) it tracks the implicit
        // solution up to its lag behind the drifting fixed point. Over one step the observed rate
        // -ln(s_{n+1}/s_n)/dt differs from the trapezoid of the predicted rates by at most
        // dt (lambda/2 + |d ln w/dt| + |d ln lambda/dt|/2) <= dt (0.8 + 1 + 0.5) for s in
        // [s_c, 0.5] (lambda <= 1.6, |d ln w/dt|, |d ln lambda/dt| <= 0.7; engine/docs/observables.md).
        // A wrong factor in the law (2 for 1, mu0 for mu0 - mu_par) would be off by O(1).
        const std::vector<double> ratio = series("pair_gap/decay_rate_ratio"),
                                  t = series_time("pair_gap/decay_rate_ratio");
        const double tolerance = dt * (0.8 + 1.0 + 0.5);
        std::size_t checked = 0;
        for (std::size_t k = 0; k < ratio.size(); ++k)
            if (t[k] >= 60 * dt && t[k] < crossing) {
                EXPECT_NEAR(ratio[k], 1.0, tolerance) << "t = " << t[k];
                ++checked;
            }
        EXPECT_GT(checked, std::size_t(0.3 / dt));

        // No sign change of the separation speed while s > s_c; the instability (|g| > 1) shows up
        // below it, after the few dozen steps the error needs to grow from ~1e-4 relative to 1.
        const double changes = scalar("pair_gap/sign_changes");
        EXPECT_GE(changes, 1.0);
        EXPECT_GT(scalar("pair_gap/first_sign_change_time"), crossing);
        EXPECT_LT(scalar("pair_gap/gap_at_first_sign_change"), critical);
        const std::vector<double> gap = series("pair_gap/gap"), gap_t = series_time("pair_gap/gap");
        for (std::size_t k = 0; k < gap.size() && gap_t[k] < scalar("pair_gap/first_sign_change_time"); ++k)
            if (k > 0) EXPECT_LT(gap[k], gap[k - 1]) << "the gap closes monotonically until then, t = " << gap_t[k];
        EXPECT_LT(scalar("pair_gap/minimum_gap"), 0.2);

        // Two spheres with the RPY tensor: positive definite for every r; for r >= 2a the smallest
        // eigenvalue 1 - (3/(2r) - 1/r^3) grows with r from 3/8 at contact.
        EXPECT_EQ(scalar("mobility/failures"), 0.0);
        EXPECT_GT(scalar("mobility/checks"), 10.0);
        EXPECT_GE(scalar("mobility/min_smallest_eigenvalue"), 0.375);
        // ... and every check is a proof (the shifted Cholesky completes: definiteness_verdict.hpp).
        EXPECT_EQ(scalar("mobility/proven_positive_definite"), scalar("mobility/checks"));
        EXPECT_EQ(scalar("mobility/proven_not_positive_definite"), 0.0);
        EXPECT_EQ(scalar("mobility/estimates"), 0.0);
        for (double v : series("mobility/verdict")) EXPECT_EQ(v, 1.0);
    }
}

TEST_F(ObservablesRun, TetrahedronPeriodDriftsSignificantlyAtTheLargerTimeStep) {
    // Ten cycles at dt = 0.01 (hi=f64,int=f64): x1's period grows by ~0.225 tau_s per cycle (the
    // first-order bias of explicit Euler accumulates, engine/docs/tetrahedron.md). The confidence
    // interval must exclude zero, the motion stays periodic, and windows of 1000 tau_s see the drift.
    scenario s = load_scenario(scenario_folder / "tetrahedron.toml");
    s.observables.cycle->window = 1000.0;
    run(s, "tetrahedron");
    EXPECT_EQ(scalar("cycle/regular_cycles"), 9.0);
    const double drift = scalar("cycle/period_drift_per_cycle"), ci = scalar("cycle/period_drift_ci95_half_width");
    EXPECT_GT(drift, 0.0);
    EXPECT_GT(ci, 0.0);
    EXPECT_LT(ci, 0.05 * drift);  // measured 0.22521 +- 0.00002 (the trend's residuals; the line's gave +- 0.0003)
    EXPECT_GT(drift - ci, 0.1);
    EXPECT_TRUE(std::isnan(scalar("cycle/lost_periodicity_time")));
    EXPECT_EQ(file_->string_attribute("/analysis/cycle/lost_periodicity_time", "status"), "none");
    const std::vector<double> windows = file_->read_doubles("/analysis/cycle/window/period_mean");
    ASSERT_EQ(windows.size(), 5u);  // [0, 1000) ... [4000, 5000); [5000, 5170] is the partial one
    // Maxima at 388, 905, 1423, 1941, 2459, 2977, 3496, 4015, 4534, 5052: periods close at all but
    // the first, one or two per window.
    EXPECT_EQ(file_->read_doubles("/analysis/cycle/window/cycles"), (std::vector<double>{1, 2, 2, 1, 2}));
    for (std::size_t k = 1; k < windows.size(); ++k) EXPECT_GT(windows[k], windows[k - 1]);
    EXPECT_EQ(scalar("cycle/partial_window/end_time"), 5170.0);
}

TEST_F(ObservablesRun, StudyFirstPeriodAndDriftDoNotDependOnTheRunLength) {
    // The study's per-run numbers (study_analysis.cpp, read_run_summary) for the case (#17
    // item 1): the tetrahedron at dt = 0.01, hi=f64,int=f64, over 5170 tau_s (9 regular cycles) and
    // 20 000 tau_s (37). The first period and the drift at cycle 0 are properties of the start of the
    // motion, so the two runs' 95% intervals must overlap; the straight line gave 0.2252 +- 0.0003 and
    // 0.2299 +- 0.0006. And the first period measured must lie within the longer run's interval plus
    // the largest error of one measured period, 9.0e-5 tau_s (the parabolic vertices at 1 tau_s
    // sampling, engine/docs/observables.md); the line gave 517.2802 +- 0.0116 for 517.3155.
    scenario s = load_scenario(scenario_folder / "tetrahedron.toml");
    run(s, "study_short");
    const study::run_summary short_run = study::read_run_summary(written_.back());
    s.run.time = 20000.0;
    s.run.steps.reset();
    run(s, "study_long");
    const study::run_summary long_run = study::read_run_summary(written_.back());
    ASSERT_EQ(short_run.regular_cycles, 9u);
    ASSERT_EQ(long_run.regular_cycles, 37u);
    std::printf(
        "period_first %.6f +- %.2g (9 cycles), %.6f +- %.2g (37), measured %.6f; period_drift %.6f +- %.2g, "
        "%.6f +- %.2g\n",
        short_run.period_first, short_run.period_first_ci95, long_run.period_first, long_run.period_first_ci95,
        long_run.period.front(), short_run.period_drift, short_run.period_drift_ci95, long_run.period_drift,
        long_run.period_drift_ci95);
    EXPECT_LE(std::fabs(short_run.period_first - long_run.period_first),
              short_run.period_first_ci95 + long_run.period_first_ci95);
    EXPECT_LE(std::fabs(short_run.period_drift - long_run.period_drift),
              short_run.period_drift_ci95 + long_run.period_drift_ci95);
    const double vertex_error = 9.0e-5;  // tau_s, one measured period (observables.md)
    EXPECT_LE(std::fabs(long_run.period.front() - long_run.period_first), long_run.period_first_ci95 + vertex_error);

    // The regression observables `reference check` compares by CI overlap (observable_catalogue.cpp):
    // the mean drift is the least-squares line's slope as before, bit for bit, and its interval is
    // the noise's, not the curvature's. Bound: with a trend polynomial that contains the true one,
    // RSS = |(I - H) e|^2 <= |e|^2 <= n e_max^2 (e_max = vertex_error), so s <= e_max sqrt(n / (n - d - 1))
    // and the half-width t_{0.975, n-d-1} s / sqrt(Sxx) is at most that with d = 4, the largest degree
    // (Sxx = n (n^2 - 1) / 12 for k = 0 .. n-1). The straight line's residuals gave 100 x more.
    const io::h5md_file result(written_.back());
    const std::vector<double> period_time = result.read_doubles("/analysis/cycle/period_time");
    const auto bound = [&](std::size_t n) {
        const double dof = double(n) - 5.0, sxx = double(n) * (double(n) * double(n) - 1.0) / 12.0;
        return student_t_quantile(0.975, dof) * vertex_error * std::sqrt(double(n) / dof) / std::sqrt(sxx);
    };
    const regression::observed_run observed = regression::read_observed_run(written_.back());
    const regression::observed_value& mean_drift = observed.observables.at("cycle.period_drift");
    std::vector<double> index;
    for (std::size_t k = 0; k < long_run.period.size(); ++k) index.push_back(double(k));
    EXPECT_EQ(mean_drift.values.at(0), fit_line(index, long_run.period).slope);
    EXPECT_LE(mean_drift.ci95_half_width, bound(long_run.period.size()));
    // The early stretch: the first half of the run, 10 000 tau_s.
    const std::size_t early =
        std::size_t(std::count_if(period_time.begin(), period_time.end(), [](double t) { return t <= 10000.0; }));
    ASSERT_GE(early, 10u);
    EXPECT_LE(observed.observables.at("cycle.period_drift_early").ci95_half_width, bound(early));
}

TEST_F(ObservablesRun, TetrahedronTrendAgreesBetweenTenCyclesAndAllOfThem) {
    // The case (#17 item 1): 20 000 tau_s at dt = 0.01, hi=f64,int=f64, ~38 cycles. The period
    // grows faster than linearly, so a straight line through the first 10 periods and one through
    // all of them give drifts whose 95% intervals do not overlap (0.2252 +- 0.0003 against 0.2299 +-
    // 0.0006), and the line's first period lies three intervals from the measured one. The trend fit
    // (trend_fit.hpp) estimates the same two numbers, the period and its slope at cycle 0, from
    // either stretch: their intervals must overlap, and the measured first period must lie within
    // the 95% prediction interval of a single period at cycle 0, t sqrt(SE^2 + s^2).
    scenario s = load_scenario(scenario_folder / "tetrahedron.toml");
    s.run.time = 20000.0;
    s.run.steps.reset();
    run(s, "tetrahedron_trend");
    const std::vector<double> periods = file_->read_doubles("/analysis/cycle/period");
    ASSERT_EQ(scalar("cycle/regular_cycles"), double(periods.size()));
    ASSERT_GE(periods.size(), 37u);
    std::vector<double> index;
    for (std::size_t k = 0; k < periods.size(); ++k) index.push_back(double(k));
    const std::span<const double> x(index), y(periods);
    const trend_fit all = fit_trend(x, y), ten = fit_trend(x.first(10), y.first(10));
    // The engine wrote the same fit.
    EXPECT_EQ(scalar("cycle/period_trend/at_first_cycle"), all.first.value);
    EXPECT_EQ(scalar("cycle/period_trend/drift_at_first_cycle"), all.initial_slope.value);
    EXPECT_EQ(scalar("cycle/period_trend/degree"), double(all.degree));
    EXPECT_EQ(scalar("cycle/period_drift_per_cycle"), fit_line(x, y).slope);  // the mean drift, as stored before
    std::printf(
        "first period %.6f +- %.2g (%zu cycles, %s, degree %d), %.6f +- %.2g (10); drift %.6f +- %.2g, "
        "%.6f +- %.2g; measured first period %.6f\n",
        all.first.value, all.first.ci95_half_width, all.window, to_string(all.validity).c_str(), all.degree,
        ten.first.value, ten.first.ci95_half_width, all.initial_slope.value, all.initial_slope.ci95_half_width,
        ten.initial_slope.value, ten.initial_slope.ci95_half_width, periods.front());
    const auto overlap = [](const interval_estimate& a, const interval_estimate& b) {
        return std::fabs(a.value - b.value) <= a.ci95_half_width + b.ci95_half_width;
    };
    EXPECT_TRUE(overlap(all.first, ten.first));
    EXPECT_TRUE(overlap(all.initial_slope, ten.initial_slope));
    const double dof = double(all.window) - all.degree - 1;
    const double prediction =
        student_t_quantile(0.975, dof) * std::hypot(all.first.standard_error, all.residual_standard_deviation);
    EXPECT_LE(std::fabs(periods.front() - all.first.value), prediction);
    // The straight line (the study's fit before) fails both on the same periods.
    const study::line_estimate line_all = study::fit_line_with_errors(x, y),
                               line_ten = study::fit_line_with_errors(x.first(10), y.first(10));
    EXPECT_GT(std::fabs(line_all.slope - line_ten.slope), line_all.slope_ci95 + line_ten.slope_ci95);
    EXPECT_GT(std::fabs(periods.front() - line_all.intercept), 2 * line_all.intercept_ci95);
}

TEST_F(ObservablesRun, FccVelocitySpreadIsRoundingOnThePerfectLattice) {
    // The shipped scenario with cells = 3 (N = 108), 10 steps, every step sampled: at t = 0 the
    // spread is the rounding of the HI sums, below the bound of tests/observables/velocity_spread_test.cpp
    // (1.05e-12 for this lattice in f64); the mean velocity is recorded with it.
    scenario s = load_scenario(scenario_folder / "fcc_sedimentation.toml");
    const std::string text = s.source_text;
    const auto at = text.find("\ncells = 10");  // the key, not the header's mention of it
    ASSERT_NE(at, std::string::npos);
    s = parse_scenario(std::string(text).replace(at, 11, "\ncells = 3"), "fcc_cells_3.toml");
    ASSERT_EQ(s.particles.size(), 108u);
    s.run.steps = 10;
    s.run.sample_every = s.run.dt;
    run(s, "fcc");
    EXPECT_LE(scalar("velocity_spread/initial_max_deviation"), 1.05e-12);
    EXPECT_GT(scalar("velocity_spread/initial_rms_deviation"), 0.0);  // f64 sums in different orders round differently
    EXPECT_EQ(series("velocity_spread/max_deviation").size(), 11u);
    EXPECT_LT(scalar("velocity_spread/initial_mean_velocity_z"), 0.0);
    EXPECT_EQ(series("velocity_spread/max_deviation").front(), scalar("velocity_spread/initial_max_deviation"));
}
