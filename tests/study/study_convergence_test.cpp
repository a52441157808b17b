// The convergence-order fit of the time-step study (engine/study/include/stokesian/study/convergence.hpp)
// on synthetic data with known order, next-order terms and noise.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "stokesian/study/convergence.hpp"

namespace {

using namespace stokesian::study;

std::vector<difference_point> differences_of(const std::vector<double>& dts, double (*q)(double, double, double),
                                             double p, double c2_over_c) {
    std::vector<difference_point> out;
    for (std::size_t k = 0; k + 1 < dts.size(); ++k)
        out.push_back({dts[k], dts[k + 1], q(dts[k], p, c2_over_c) - q(dts[k + 1], p, c2_over_c), 0.0});
    return out;
}

// Q(dt) = Q0 + c dt^p (1 + r dt), Q0 = 517.036, c = 27.93 (the tetrahedron's Euler period, docs/tetrahedron.md).
double quantity(double dt, double p, double r) { return 517.036 + 27.93 * std::pow(dt, p) * (1.0 + r * dt); }

TEST(StudyConvergence, RecoversAPurePowerExactlyForGeometricAndUnevenTimeSteps) {
    for (const std::vector<double>& dts :
         {std::vector<double>{0.04, 0.02, 0.01, 0.005}, std::vector<double>{0.05, 0.03, 0.01, 0.004, 0.001}}) {
        for (const double p : {1.0, 2.0, 4.0}) {
            const auto d = differences_of(dts, quantity, p, 0.0);
            const order_fit f = fit_convergence_order(d);
            // Exact data: the iteration's fixed point is p to rounding (log of differences of
            // nearly equal numbers: |D| >= 27.93 * 0.001^4 * 0.6 ~ 2e-11 against Q ~ 517, i.e.
            // relative rounding 517 * 2^-53 / 2e-11 ~ 3e-3 for p = 4 at the smallest dt of the
            // uneven sequence; ~1e-10 elsewhere).
            const double tolerance = p == 4.0 && dts.back() == 0.001 ? 1e-2 : 1e-6;
            EXPECT_NEAR(f.order, p, tolerance) << "dt from " << dts.front() << ", p = " << p;
            EXPECT_EQ(f.points, dts.size() - 1);
            EXPECT_NEAR(f.coefficient, 27.93, 27.93 * 100 * tolerance);
            EXPECT_NEAR(extrapolate_to_zero(f, dts.back(), quantity(dts.back(), p, 0.0)), 517.036, 1e-8);
        }
    }
}

TEST(StudyConvergence, NextOrderTermShiftsTheOrderWithinItsDerivedBound) {
    // D_k = c dt^p (1 - rho^p) [1 + r dt g], g = (1 - rho^(p+1)) / (1 - rho^p) <= (p+1)/p: the
    // bracket adds ln(1 + r dt g) to ln D_k, whose least-squares slope against ln dt is at most its
    // largest derivative, r dt_max (p+1)/p. Asserted with a factor 2 for the rest of the series.
    const std::vector<double> dts{0.04, 0.02, 0.01, 0.005};
    const double r = 0.1;  // the tetrahedron's Euler period: c2/c = 2.68/27.93 = 0.096
    for (const double p : {1.0, 2.0, 4.0}) {
        const order_fit f = fit_convergence_order(differences_of(dts, quantity, p, r));
        const double bound = 2.0 * r * dts.front() * (p + 1.0) / p;
        EXPECT_NEAR(f.order, p, bound) << "p = " << p;
        EXPECT_GT(std::fabs(f.order - p), 0.0);  // the term is seen
        ASSERT_TRUE(std::isfinite(f.order_ci95));
    }
}

TEST(StudyConvergence, DifferencesWithinThreeStandardErrorsAreUnresolved) {
    std::vector<difference_point> d{{0.04, 0.02, 1e-3, 1e-6}, {0.02, 0.01, 2.5e-4, 1e-6}, {0.01, 0.005, 2e-6, 1e-6}};
    order_fit f = fit_convergence_order(d);
    EXPECT_EQ(f.points, 2u);
    EXPECT_EQ(f.unresolved, 1u);
    EXPECT_NEAR(f.order, 2.0, 1e-12);
    EXPECT_TRUE(std::isnan(f.order_ci95));  // two points: no interval
    EXPECT_DOUBLE_EQ(f.resolution, 3e-6);
    d[1].standard_error = 1e-3;
    f = fit_convergence_order(d);
    EXPECT_TRUE(std::isnan(f.order));
    EXPECT_FALSE(f.note.empty());
}

TEST(StudyConvergence, SignChangesAreReported) {
    const std::vector<difference_point> d{
        {0.04, 0.02, 1e-3, 0.0}, {0.02, 0.01, -2.5e-4, 0.0}, {0.01, 0.005, 6e-5, 0.0}};
    const order_fit f = fit_convergence_order(d);
    EXPECT_NE(f.note.find("sign"), std::string::npos);
}

TEST(StudyConvergence, PairedDifferenceCancelsWhatBothRunsShare) {
    // Two runs with the same cycle-to-cycle noise (the sampling error of the parabolic fits
    // depends smoothly on the trajectory) and different straight trends: the paired difference
    // recovers the difference of the trends exactly.
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 1e-4);
    std::vector<double> a, b;
    for (int j = 0; j < 12; ++j) {
        const double shared = noise(rng);
        a.push_back(518.0 + 0.9 * j + shared);
        b.push_back(517.5 + 0.45 * j + shared);
    }
    const line_estimate d = paired_difference(a, b, 100);
    EXPECT_NEAR(d.intercept, 0.5, 1e-10);
    EXPECT_NEAR(d.slope, 0.45, 1e-11);
    EXPECT_LT(d.slope_standard_error, 1e-11);
    const line_estimate own = fit_line_with_errors(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, a);
    EXPECT_GT(own.slope_standard_error, 1e-6);  // each run alone sees the noise
    EXPECT_EQ(paired_difference(a, b, 5).points, 5u);
}

TEST(StudyConvergence, InterceptIntervalCoversAtTheNominalRate) {
    // 95% intervals of the intercept on Gaussian data: coverage 0.95 +- 3 sigma of a binomial
    // proportion over 4000 trials (sigma = sqrt(0.95 * 0.05 / 4000) = 0.0034).
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0.0, 0.3);
    const std::vector<double> x{0, 1, 2, 3, 4, 5, 6};
    int covered = 0;
    const int trials = 4000;
    for (int t = 0; t < trials; ++t) {
        std::vector<double> y;
        for (const double xi : x) y.push_back(2.0 - 0.5 * xi + noise(rng));
        const line_estimate e = fit_line_with_errors(x, y);
        covered += std::fabs(e.intercept - 2.0) <= e.intercept_ci95 ? 1 : 0;
    }
    EXPECT_NEAR(double(covered) / trials, 0.95, 3 * 0.0034);
}

}  // namespace
