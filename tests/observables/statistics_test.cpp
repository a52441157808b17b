// Least-squares line with the 95% confidence interval of its slope, and the median
// (engine/observables/include/stokesian/observables/statistics.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "stokesian/observables/statistics.hpp"

using namespace stokesian;

TEST(Statistics, StudentQuantileMatchesTables) {
    // Tabulated two-sided 95% values (any statistics table): t_{0.975} for 1, 8 and 1000 degrees of freedom.
    EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706204736, 1e-8);
    EXPECT_NEAR(student_t_quantile(0.975, 8), 2.306004135, 1e-8);
    EXPECT_NEAR(student_t_quantile(0.975, 1000), 1.962339, 1e-6);
}

TEST(Statistics, ExactLineHasZeroErrorAndKnownSlope) {
    // Periods of the tetrahedron: ~517 plus a drift of 0.225 per cycle. Sums about the means keep
    // the slope to a few ulps of the values (|y| ~ 520, u ~ 1.1e-16: ~1e-13 absolute).
    std::vector<double> x, y;
    for (int k = 0; k < 50; ++k) {
        x.push_back(k);
        y.push_back(517.3 + 0.225 * k);
    }
    const line_fit fit = fit_line(x, y);
    EXPECT_EQ(fit.points, 50u);
    EXPECT_NEAR(fit.slope, 0.225, 1e-13);
    EXPECT_NEAR(fit.intercept, 517.3, 1e-11);
    EXPECT_LT(fit.slope_standard_error, 1e-13);
    EXPECT_LT(fit.slope_ci95_half_width, 1e-12);
}

TEST(Statistics, ResidualErrorMatchesHandComputation) {
    // x = 0, 1, 2, 3, y = 0, 1, 1, 3: slope 0.9, intercept -0.1, residuals 0.1, 0.2, -0.7, 0.4,
    // sum r^2 = 0.7, s = sqrt(0.7/2), Sxx = 5, SE = s / sqrt(5), CI = t_{0.975,2} SE (t = 4.302652730).
    const std::vector<double> x{0, 1, 2, 3}, y{0, 1, 1, 3};
    const line_fit fit = fit_line(x, y);
    EXPECT_NEAR(fit.slope, 0.9, 1e-15);
    EXPECT_NEAR(fit.intercept, -0.1, 1e-15);
    const double se = std::sqrt(0.35) / std::sqrt(5.0);
    EXPECT_NEAR(fit.slope_standard_error, se, 1e-15);
    EXPECT_NEAR(fit.slope_ci95_half_width, 4.302652730 * se, 1e-8);
}

TEST(Statistics, ConfidenceIntervalCoversTheTrueSlopeNinetyFivePercentOfTheTime) {
    // 4000 noisy lines (Gaussian noise, 12 points each): the fraction of intervals that contain the
    // true slope is binomial with p = 0.95; its standard deviation sqrt(0.95 x 0.05 / 4000) = 0.0034,
    // so a correct interval lies within 0.95 +- 0.014 (4 sigma) except with probability ~6e-5. An
    // interval from the normal quantile 1.96 instead of t_{0.975,10} = 2.228 would cover ~92.2%.
    std::mt19937_64 rng(2012);
    std::normal_distribution<double> noise(0.0, 0.3);
    const int trials = 4000;
    int covered = 0;
    std::vector<double> x(12), y(12);
    for (int t = 0; t < trials; ++t) {
        for (int k = 0; k < 12; ++k) {
            x[k] = k;
            y[k] = 517.0 + 0.2 * k + noise(rng);
        }
        const line_fit fit = fit_line(x, y);
        if (std::fabs(fit.slope - 0.2) <= fit.slope_ci95_half_width) ++covered;
    }
    EXPECT_NEAR(double(covered) / trials, 0.95, 0.014);
}

TEST(Statistics, TooFewPointsGiveNaN) {
    const std::vector<double> one{1.0}, two_x{0.0, 1.0}, two_y{5.0, 7.0};
    EXPECT_TRUE(std::isnan(fit_line(one, one).slope));
    const line_fit two = fit_line(two_x, two_y);
    EXPECT_DOUBLE_EQ(two.slope, 2.0);
    EXPECT_TRUE(std::isnan(two.slope_ci95_half_width));  // n - 2 = 0 degrees of freedom
    const std::vector<double> same_x{3.0, 3.0, 3.0}, y{1.0, 2.0, 3.0};
    EXPECT_TRUE(std::isnan(fit_line(same_x, y).slope));
}

TEST(Statistics, Median) {
    EXPECT_EQ(median(std::vector<double>{3, 1, 2}), 2.0);
    EXPECT_EQ(median(std::vector<double>{4, 1, 3, 2}), 2.5);
    EXPECT_TRUE(std::isnan(median(std::vector<double>{})));
}
