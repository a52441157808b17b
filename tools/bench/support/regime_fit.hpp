#pragma once
// The two scaling regimes of the all-pairs runtime (paper, Fig. 2a): t(N) = a N + b while the
// device is not yet full (each doubling of N doubles the work per thread and the number of threads
// running at once), t(N) = c N^2 once it is.
//
// Fits minimise relative residuals, sum ((model - t) / t)^2, because the times span orders of
// magnitude and each measurement has about the same relative error.
//
// The regime split (documented rule): the measurements, sorted by N, are cut once into a
// small-N part (linear fit) and a large-N part (quadratic fit); every cut that leaves at least
// two points on each side is tried and the one with the smallest total sum of squared relative
// residuals wins (on ties the larger linear part). With fewer than four points there is no split:
// everything is fitted as quadratic. The crossover N is where the two fitted lines meet,
// a N + b = c N^2.
#include <cstddef>
#include <optional>
#include <vector>

namespace stokesian::bench {

struct linear_fit {
    double slope = 0.0;      // a
    double intercept = 0.0;  // b
    double residual = 0.0;   // sum of squared relative residuals
};

struct quadratic_fit {
    double coefficient = 0.0;  // c
    double residual = 0.0;
};

// Weighted least squares of t = a N + b (weights 1/t^2). Needs two distinct N and t > 0.
linear_fit fit_linear(const std::vector<double>& n, const std::vector<double>& t);
// t = c N^2 (weights 1/t^2): c = sum(N^2/t) / sum(N^4/t^2). Needs one point and t > 0.
quadratic_fit fit_quadratic(const std::vector<double>& n, const std::vector<double>& t);

struct regime_split {
    std::optional<linear_fit> linear;  // absent when there are too few points for a split
    quadratic_fit quadratic;
    std::size_t linear_points = 0;      // the first linear_points measurements (sorted by N)
    std::size_t quadratic_points = 0;   // the rest
    double linear_max_n = 0.0;          // largest N of the linear part (0 without one)
    double quadratic_min_n = 0.0;       // smallest N of the quadratic part
    std::optional<double> crossover_n;  // a N + b = c N^2, when the lines meet at N > 0
};

// Sorts by N, ignores points with t <= 0 or non-finite t; throws std::invalid_argument when
// nothing is left or the vectors differ in length.
regime_split split_regimes(std::vector<double> n, std::vector<double> t);

// The positive root of c N^2 - a N - b = 0, if any.
std::optional<double> crossover(const linear_fit& linear, const quadratic_fit& quadratic);

}  // namespace stokesian::bench
