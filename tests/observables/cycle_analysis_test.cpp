// Cycle statistics of a periodic coordinate (engine/observables/include/stokesian/observables/cycle_analysis.hpp):
// the extremum finder's period on synthetic signals, the drift fit, the averaging windows and the
// loss-of-periodicity detector. The thresholds are derived in engine/docs/observables.md.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "stokesian/observables/cycle_analysis.hpp"

using namespace stokesian;

namespace {

// What the cycle observable does with each sample: the extremum finder (5-point parabolas), every
// completed maximum and every sample time into the monitor.
struct streamed_cycles {
    extremum_finder finder{2};
    periodicity_monitor monitor;
    double first = 0.0, last = 0.0;

    explicit streamed_cycles(periodicity_criteria criteria = {}) : monitor(criteria) {}

    void run(const std::function<double(double)>& x, double t_end, double h) {
        const auto samples = static_cast<long>(std::llround(t_end / h));
        first = 0.0;
        for (long i = 0; i <= samples; ++i) {
            const double t = double(i) * h;
            if (finder.add(t, x(t)) && finder.extrema().back().maximum)
                monitor.add_maximum(finder.extrema().back().time);
            monitor.observe(t);
            last = t;
        }
    }
    cycle_report report(double window = 1e4) const {
        return analyse_cycle_run(finder.extrema(), monitor, first, last, window);
    }
};

// The tetrahedron's x1(t): mean ~6.6a, amplitude ~4.3a, period ~517 tau_s, sampled every tau_s.
constexpr double centre = 6.57, amplitude = 4.27, period = 517.0, h = 1.0;

}  // namespace

TEST(CycleAnalysis, PeriodOfAPureCosineIsExactToTheParabolaBias) {
    // Samples at offsets delta + u h (u = -2..2, |delta| <= h/2) around a maximum of A cos(w t):
    // the least-squares parabola misses the vertex through the quartic term of the cosine,
    // c4/c2 = -w^2/12, by (w^2/12)(6.8 h^2 |delta| + 2 |delta|^3) <= 0.305 w^2 h^3 = 4.5e-5 tau_s
    // for T = 517 (engine/docs/observables.md). A period is a difference of two vertices: <= 9.0e-5.
    streamed_cycles c;
    const double w = 2 * std::numbers::pi / period;
    c.run([&](double t) { return centre + amplitude * std::cos(w * (t - 100.3)); }, 10.2 * period, h);
    const cycle_report r = c.report();
    ASSERT_EQ(r.all.period.size(), 10u);
    const double bias_bound = 2 * 0.305 * w * w * h * h * h;
    for (double p : r.all.period) EXPECT_NEAR(p, period, bias_bound);
    for (double a : r.all.amplitude) EXPECT_NEAR(a, amplitude, 1e-6);
    EXPECT_FALSE(c.monitor.lost());
    // No drift: the slope is zero within its own confidence interval.
    EXPECT_LE(std::fabs(r.period_drift.mean_slope.value), r.period_drift.mean_slope.ci95_half_width + 1e-9);
}

TEST(CycleAnalysis, DriftOfAFewPerMillePerCycleIsMeasuredAndNotALoss) {
    // A period growing by alpha = 3e-3 relative per cycle (above the 4e-4 .. 9e-4 of the real runs):
    // phase 2 pi ln(1 + alpha t/T0) / alpha puts the maxima at t_k = (T0/alpha)(e^(alpha k) - 1).
    const double alpha = 3e-3;
    auto phase = [&](double t) { return 2 * std::numbers::pi * std::log1p(alpha * t / period) / alpha; };
    streamed_cycles c;
    c.run([&](double t) { return centre + amplitude * std::cos(phase(t)); }, 60 * period, h);
    const cycle_report r = c.report();
    EXPECT_FALSE(c.monitor.lost()) << c.monitor.reason() << " at " << c.monitor.lost_time();
    // Maxima at t_k < 60 T0: k <= ln(1 + 60 alpha)/alpha = 55.2; the one at t = 0 is not detected.
    ASSERT_EQ(r.regular_period.size(), 54u);
    // The exact periods t_{k+1} - t_k of the maxima found, fitted the same way.
    std::vector<double> index, exact;
    for (std::size_t k = 0; k < r.regular_period.size(); ++k) {
        const double n = std::round(std::log1p(alpha * r.regular_period_time[k] / period) / alpha);
        index.push_back(double(k));
        exact.push_back((period / alpha) * (std::exp(alpha * n) - std::exp(alpha * (n - 1))));
    }
    const line_fit truth = fit_line(index, exact);
    // Each vertex errs by less than ~5e-5 (pure cosine) plus the asymmetry of a chirped peak
    // (curvatures differing by 2 alpha/T0 across ~2h: ~alpha h^2/T0 ~ 1e-5), so the fitted slope
    // agrees with the exact one to well below 1e-5 per cycle.
    EXPECT_NEAR(r.period_drift.mean_slope.value, truth.slope, 1e-5);
    EXPECT_NEAR(r.period_drift.mean_slope.value / period, alpha, 0.1 * alpha);  // ~alpha T0 per cycle
}

TEST(CycleAnalysis, SinglePrecisionNoiseIsNotALoss) {
    // Positions stored in float near 10a carry errors up to ulp(10)/2 ~ 5e-7 a; 1e-6 a of uniform noise
    // moves a vertex by at most 0.3 x 1e-6 / (c2 h) with c2 = A w^2 / 2 = 3.2e-4: ~1e-3 tau_s,
    // a period by ~2e-3 = 4e-6 relative, four orders below the 5% jump tolerance.
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> noise(-1e-6, 1e-6);
    const double w = 2 * std::numbers::pi / period;
    streamed_cycles c;
    c.run([&](double t) { return centre + amplitude * std::cos(w * t) + noise(rng); }, 40 * period, h);
    const cycle_report r = c.report();
    EXPECT_FALSE(c.monitor.lost());
    ASSERT_EQ(r.all.period.size(), 38u);  // maxima at T .. 39T (t = 0 and t = 40T lack neighbours)
    const double noise_bound = 2 * 0.3 * 1e-6 / (0.5 * amplitude * w * w * h) + 2 * 0.305 * w * w;
    for (double p : r.all.period) EXPECT_NEAR(p, period, noise_bound);
}

TEST(CycleAnalysis, AJumpOfThePeriodIsALossAtTheLastRegularMaximum) {
    // 20 cycles of T, then T' = 1.1 T: the first long period closes at t_20 + 1.1 T.
    const double w = 2 * std::numbers::pi / period, t_switch = 20 * period;
    auto x = [&](double t) {
        return centre +
               amplitude * (t < t_switch ? std::cos(w * t) : std::cos(w * t_switch + w / 1.1 * (t - t_switch)));
    };
    streamed_cycles c;
    c.run(x, 30 * period, h);
    ASSERT_TRUE(c.monitor.lost());
    EXPECT_EQ(c.monitor.reason(), "jump");
    // The maximum at t_switch joins two curvatures (w^2 left, w^2/1.21 right): its parabola is
    // biased, but stays within the half sample spacing around the discrete maximum.
    EXPECT_NEAR(c.monitor.lost_time(), t_switch, 0.5 * h);
    EXPECT_NEAR(c.monitor.detected_time(), t_switch + 1.1 * period, 0.5 * h);
    const cycle_report r = c.report();
    // Maxima at T, 2T, ..., 20T (the one at t = 0 has no samples before it): 19 regular periods.
    EXPECT_EQ(r.regular_period.size(), 19u);
    EXPECT_GT(r.all.period.size(), r.regular_period.size());
}

TEST(CycleAnalysis, MotionThatStopsIsALossByTheGap) {
    // The oscillation freezes at its minimum after 12.5 periods: no maximum follows the one at 12 T.
    const double w = 2 * std::numbers::pi / period, t_stop = 12.5 * period;
    streamed_cycles c;
    c.run([&](double t) { return centre + amplitude * std::cos(w * std::min(t, t_stop)); }, 20 * period, h);
    ASSERT_TRUE(c.monitor.lost());
    EXPECT_EQ(c.monitor.reason(), "gap");
    EXPECT_NEAR(c.monitor.lost_time(), 12 * period, 0.01);
    // Fires at the first sample more than 2 reference periods after the last maximum.
    EXPECT_GT(c.monitor.detected_time(), 14 * period - 0.01);
    EXPECT_LE(c.monitor.detected_time(), 14 * period + h + 0.01);
}

TEST(CycleAnalysis, AmplitudeDriftPerCycle) {
    // x = c + (A + beta t/T) cos(w t): the amplitude (x_max - x_min)/2 of neighbouring extrema grows by
    // beta per cycle; each half-cycle value is the mean over its two extrema, exact up to the
    // parabola bias (<1e-6 here).
    const double beta = 1e-3, w = 2 * std::numbers::pi / period;
    streamed_cycles c;
    c.run([&](double t) { return centre + (amplitude + beta * t / period) * std::cos(w * t); }, 20 * period, h);
    const cycle_report r = c.report();
    EXPECT_NEAR(r.amplitude_drift.mean_slope.value, beta, 1e-6);
    EXPECT_LT(r.amplitude_drift.mean_slope.ci95_half_width, 1e-6);
}

TEST(CycleAnalysis, WindowsAreCompleteOrReportedAsPartial) {
    // Periods closing at 517 k: windows of 2000 tau_s from t0 = 0 over a run to 5170 hold the
    // maxima at 517, 1034, 1551 | 2068, 2585, 3102, 3619 | 4136, 4653, 5170 (the last partial).
    std::vector<double> time, value;
    for (int k = 1; k <= 10; ++k) {
        time.push_back(517.0 * k);
        value.push_back(k);
    }
    const auto w = average_over_windows(time, value, 0.0, 5170.0, 2000.0);
    ASSERT_EQ(w.size(), 3u);
    EXPECT_TRUE(w[0].complete);
    EXPECT_TRUE(w[1].complete);
    EXPECT_FALSE(w[2].complete);
    EXPECT_EQ(w[0].count, 3u);
    EXPECT_EQ(w[1].count, 4u);
    EXPECT_EQ(w[2].count, 3u);
    EXPECT_DOUBLE_EQ(w[0].mean, 2.0);
    EXPECT_DOUBLE_EQ(w[1].mean, 5.5);
    EXPECT_DOUBLE_EQ(w[2].mean, 9.0);
    // A horizon exactly at a window's end leaves no partial window.
    EXPECT_EQ(average_over_windows(time, value, 0.0, 4000.0, 2000.0).size(), 2u);
}
