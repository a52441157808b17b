// Positive definiteness of the mobility matrix (engine/observables/include/stokesian/observables/
// positive_definiteness.hpp, LAPACK dpotrf/dsyevr linked statically). Closed-form eigenvalues check
// the LAPACK wrappers; negative controls show that the check can fail.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stokesian/core/lattice.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/physics/interactions.hpp"

using namespace stokesian;

namespace {

system_parameters unbounded_system(hydrodynamic_tensor tensor = hydrodynamic_tensor::rotne_prager) {
    system_parameters s;
    s.tensor = tensor;
    s.box.periodic = false;
    return s;
}

// Random sphere centres in a cube of edge L, at least `min_distance` apart.
std::vector<vec3<double>> random_centres(std::size_t n, double edge, double min_distance, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2);
    std::vector<vec3<double>> r;
    while (r.size() < n) {
        const vec3<double> p{u(rng), u(rng), u(rng)};
        bool ok = true;
        for (const auto& q : r) ok = ok && dot(p - q, p - q) >= min_distance * min_distance;
        if (ok) r.push_back(p);
    }
    return r;
}

// For two spheres the 6x6 mobility [[mu0 I, T], [T, mu0 I]] has eigenvalues mu0 +- (eigenvalues of
// T), T = mu0 [A I + B r r]: A + B r^2 along the line of centres, A twice across. LAPACK must find
// the smallest, mu0 - max(|A + B r^2|, |A|), to a few ulps of the matrix norm (~2 mu0).
constexpr double lapack_tolerance = 64 * 2.2e-16;

}  // namespace

TEST(PositiveDefiniteness, TouchingSpheresHaveTheClosedFormEigenvalue) {
    // r = 2a exactly: 7/16 I + 3/16 rhat rhat, so A + B r^2 = 5/8 and lambda_min = 1 - 5/8 = 3/8.
    const std::vector<vec3<double>> r{{0, 0, 0}, {2.0, 0, 0}};
    const definiteness_report rep = check_mobility_positive_definiteness(r, unbounded_system());
    EXPECT_TRUE(rep.cholesky_succeeded);
    ASSERT_TRUE(rep.eigenvalue_computed);
    EXPECT_NEAR(rep.smallest_eigenvalue, 3.0 / 8.0, lapack_tolerance);
    EXPECT_LE(rep.gershgorin_lower_bound, rep.smallest_eigenvalue + lapack_tolerance);
    // A touching chain of 6 spheres and a touching tetrahedron stay positive definite.
    std::vector<vec3<double>> chain, tetrahedron{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    for (int i = 0; i < 6; ++i) chain.push_back({2.0 * i, 0, 0});
    for (auto& p : tetrahedron) p = (1.0 / std::sqrt(2.0)) * p;  // edges 2 sqrt(2) / sqrt(2) = 2a
    EXPECT_TRUE(check_mobility_positive_definiteness(chain, unbounded_system()).positive_definite());
    const definiteness_report t = check_mobility_positive_definiteness(tetrahedron, unbounded_system());
    EXPECT_TRUE(t.positive_definite());
    EXPECT_GT(t.smallest_eigenvalue, 0.0);
}

TEST(PositiveDefiniteness, OverlappingSpheresStayPositiveDefiniteWithTheOverlapForm) {
    // RPY overlap form: A = 1 - 9r/32, A + B r^2 = 1 - 3r/16, so lambda_min = 1 - (1 - 3r/16) = 3r/16.
    for (double r : {0.25, 1.0, 1.5, 1.99}) {
        const definiteness_report rep =
            check_mobility_positive_definiteness({{0, 0, 0}, {0, r, 0}}, unbounded_system());
        EXPECT_TRUE(rep.cholesky_succeeded) << r;
        EXPECT_NEAR(rep.smallest_eigenvalue, 3.0 * r / 16.0, lapack_tolerance) << r;
    }
    // A random cloud of strongly overlapping spheres (centres only 0.5a apart).
    const definiteness_report cloud =
        check_mobility_positive_definiteness(random_centres(40, 4.0, 0.5, 11), unbounded_system());
    EXPECT_TRUE(cloud.cholesky_succeeded);
    EXPECT_GT(cloud.smallest_eigenvalue, 0.0);
}

TEST(PositiveDefiniteness, RandomNonOverlappingConfigurationsArePositiveDefinite) {
    for (unsigned seed : {1u, 2u, 3u}) {
        const auto r = random_centres(60, 14.0, 2.0, seed);
        const definiteness_report rep = check_mobility_positive_definiteness(r, unbounded_system());
        EXPECT_TRUE(rep.cholesky_succeeded) << seed;
        EXPECT_GT(rep.smallest_eigenvalue, 0.0) << seed;
        // Gershgorin is a lower bound. mu_ij = mu_ji^T up to rounding: element (c, d) of mu_ij is
        // (B r_d) r_c, its transposed partner (B r_c) r_d: two roundings each, so they differ by at
        // most ~4 u |B r_c r_d| <= 4 u max|mu| (u = 2^-53).
        EXPECT_LE(rep.gershgorin_lower_bound, rep.smallest_eigenvalue);
        EXPECT_LE(rep.asymmetry, 4 * 0x1p-53) << seed;
    }
}

TEST(PositiveDefiniteness, FccLatticeAtTenthDensityOpenVersusMinimumImage) {
    // The fcc lattice of the paper's benchmark (n = 0.1 a^-3), cells = 3 (N = 108). As an open cluster
    // its mobility is positive definite (Rotne & Prager). With the periodic box and the nearest image
    // only (paper, footnote in Sec. 3.1) it is not: cutting the 1/r tensor off at the faces of the
    // cube destroys the positivity of its Fourier transform, and the smallest eigenvalue is
    // -0.335 mu0 (cells = 2: -0.064, 4: -0.84, 5: -1.48; engine/docs/observables.md). The check must see
    // both, which also makes it the negative control on a realistic system.
    const double b = fcc_lattice_constant(0.1);
    const auto sites = fcc_lattice(3, b);
    const definiteness_report open = check_mobility_positive_definiteness(sites, unbounded_system());
    EXPECT_TRUE(open.cholesky_succeeded);
    EXPECT_GT(open.smallest_eigenvalue, 0.05);
    system_parameters periodic = unbounded_system();
    periodic.box = {true, {3 * b, 3 * b, 3 * b}};
    const definiteness_report boxed = check_mobility_positive_definiteness(sites, periodic);
    EXPECT_FALSE(boxed.cholesky_succeeded);
    EXPECT_GT(boxed.cholesky_info, 0);
    EXPECT_LT(boxed.smallest_eigenvalue, -0.3);
    EXPECT_LE(boxed.asymmetry, 4 * 0x1p-53);  // the tie rule keeps mu_ij = mu_ji^T (to rounding)
}

TEST(PositiveDefiniteness, FarFormAtOverlapAndOseenAtCloseRangeAreNotPositiveDefinite) {
    // The Rotne-Prager far form used at r = a (no overlap regularisation), built by a test-only
    // contribution: transverse coefficient 3/(4x) + 1/(2x^3) = 1.25 at x = 1, lambda_min = -0.25.
    const std::vector<vec3<double>> r{{0, 0, 0}, {1.0, 0, 0}};
    const dense_matrix far_form = build_mobility_matrix(2, [&](std::size_t i, std::size_t j, vec3<double> f) {
        if (i == j) return f;
        const vec3<double> d = r[i] - r[j];
        const double x = std::sqrt(dot(d, d)), far = 0.75 / x, near = 0.5 / (x * x * x);
        return (far + near) * f + ((far - 3 * near) / (x * x) * dot(d, f)) * d;
    });
    const definiteness_report rp = check_positive_definiteness(far_form, 2);
    EXPECT_FALSE(rp.cholesky_succeeded);
    EXPECT_NEAR(rp.smallest_eigenvalue, -0.25, lapack_tolerance);
    // The library's Oseen tensor at r = 1.2a: along the line 3/(2 x) = 1.25, lambda_min = -0.25.
    const definiteness_report oseen =
        check_mobility_positive_definiteness({{0, 0, 0}, {0, 0, 1.2}}, unbounded_system(hydrodynamic_tensor::oseen));
    EXPECT_FALSE(oseen.positive_definite());
    EXPECT_NEAR(oseen.smallest_eigenvalue, -0.25, lapack_tolerance);
}

TEST(PositiveDefiniteness, LimitsSkipTheExpensiveStepsAndStreamTheGershgorinBound) {
    const auto r = random_centres(30, 12.0, 2.0, 4);
    const definiteness_report full = check_mobility_positive_definiteness(r, unbounded_system());
    const definiteness_report cheap = check_mobility_positive_definiteness(r, unbounded_system(), {0, 0});
    EXPECT_FALSE(cheap.cholesky_attempted);
    EXPECT_FALSE(cheap.eigenvalue_computed);
    EXPECT_TRUE(std::isnan(cheap.smallest_eigenvalue));
    // The same row sums, accumulated in the same order: identical.
    EXPECT_EQ(cheap.gershgorin_lower_bound, full.gershgorin_lower_bound);
    EXPECT_EQ(cheap.decided(), cheap.gershgorin_lower_bound > 0.0);
    // Eigenvalue without Cholesky decides by its sign.
    const definiteness_report eigen_only = check_mobility_positive_definiteness(r, unbounded_system(), {1000, 0});
    EXPECT_TRUE(eigen_only.decided());
    EXPECT_TRUE(eigen_only.positive_definite());
}
