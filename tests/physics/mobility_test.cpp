// Pair mobility tensors (engine/physics/include/stokesian/physics/mobility.hpp).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "stokesian/physics/interactions.hpp"

using namespace stokesian;

namespace {

using mat3 = std::array<std::array<double, 3>, 3>;

// The 3x3 matrix of mu_ij/mu0 from its action on the unit vectors.
mat3 tensor_matrix(vec3<double> r, hydrodynamic_tensor kind, double a = 1.0) {
    const mobility_parameters<double> p = make_mobility_parameters(a, 1.0, kind);
    const pair_tensor<double> t = pair_mobility_tensor(r, p);
    mat3 m{};
    const vec3<double> e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int col = 0; col < 3; ++col) {
        const vec3<double> v = apply_pair_tensor(t, r, e[col], 1.0);
        m[0][col] = v.x;
        m[1][col] = v.y;
        m[2][col] = v.z;
    }
    return m;
}

double frobenius_difference(const mat3& a, const mat3& b) {
    double s = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) s += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j]);
    return std::sqrt(s);
}

double frobenius(const mat3& a) { return frobenius_difference(a, mat3{}); }

// Eigenvalues of the 6x6 two-sphere mobility [[I, T], [T, I]] (units of mu0) are 1 +- lambda(T);
// T = A I + B r r has eigenvalues A + B r^2 (along r) and A (twice, transverse).
double smallest_two_sphere_eigenvalue(double r, hydrodynamic_tensor kind) {
    const mobility_parameters<double> p = make_mobility_parameters(1.0, 1.0, kind);
    const pair_tensor<double> t = pair_mobility_tensor(vec3<double>{r, 0, 0}, p);
    const double along = t.identity + t.dyadic * r * r, across = t.identity;
    return 1.0 - std::max(std::fabs(along), std::fabs(across));
}

}  // namespace

TEST(Mobility, TensorIsSymmetricAndEvenInR) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-10, 10);
    for (int k = 0; k < 1000; ++k) {
        const vec3<double> r{u(rng), u(rng), u(rng)};
        for (auto kind : {hydrodynamic_tensor::rotne_prager, hydrodynamic_tensor::oseen}) {
            const mat3 m = tensor_matrix(r, kind), m_neg = tensor_matrix(-r, kind);
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                    // mu_ij = mu_ij^T and mu_ji = mu_ij: exact up to the rounding of two products
                    // (B r_i r_j vs B r_j r_i are the same products in another order: 1 ulp).
                    EXPECT_NEAR(m[i][j], m[j][i], 4e-16 * frobenius(m));
                    EXPECT_EQ(m[i][j], m_neg[i][j]);  // (-r)(-r) = r r exactly
                }
        }
    }
}

TEST(Mobility, RotnePragerApproachesOseenAtLargeDistance) {
    // T_RP - G = mu0 a^3/(2r^3) (I - 3 rhat rhat): relative difference (a/r)^2 * 2/3 * ||I-3rr||/||I+rr||.
    for (double r : {10.0, 100.0, 1000.0}) {
        const vec3<double> sep{r / std::sqrt(3.0), r / std::sqrt(3.0), r / std::sqrt(3.0)};
        const mat3 rp = tensor_matrix(sep, hydrodynamic_tensor::rotne_prager);
        const mat3 os = tensor_matrix(sep, hydrodynamic_tensor::oseen);
        const double relative = frobenius_difference(rp, os) / frobenius(os);
        // ||I - 3 rr||_F = sqrt(4 + 1 + 1) = sqrt(6), ||I + rr||_F = sqrt(4 + 1 + 1) = sqrt(6):
        // the relative difference is exactly (a^3/(2r^3)) / (3a/(4r)) = (2/3) (a/r)^2.
        // Both matrices carry rounding errors of a few u_64 ||G|| (about four roundings per entry),
        // which the subtraction keeps: the computed ratio is good to ~8 u_64 in absolute terms.
        EXPECT_NEAR(relative, (2.0 / 3.0) / (r * r), 8 * std::ldexp(1.0, -53));
    }
}

TEST(Mobility, RotnePragerIsContinuousAtContact) {
    // Both forms give 7/16 I + 3/16 rhat rhat at r = 2a.
    const double a = 1.3;
    const vec3<double> at{2 * a, 0, 0};
    const mat3 m = tensor_matrix(at, hydrodynamic_tensor::rotne_prager, a);
    EXPECT_NEAR(m[0][0], 7.0 / 16 + 3.0 / 16, 1e-15);
    EXPECT_NEAR(m[1][1], 7.0 / 16, 1e-15);
    const double below = std::nextafter(2 * a, 0.0);
    const mat3 inside = tensor_matrix({below, 0, 0}, hydrodynamic_tensor::rotne_prager, a);
    EXPECT_NEAR(frobenius_difference(m, inside), 0.0, 1e-14);
    // The overlap form at r -> 0 tends to the self mobility.
    const mat3 zero = tensor_matrix({0, 0, 0}, hydrodynamic_tensor::rotne_prager, a);
    EXPECT_EQ(zero[0][0], 1.0);
    EXPECT_EQ(zero[0][1], 0.0);
}

TEST(Mobility, OverlapFormKeepsTwoSphereMobilityPositiveDefinite) {
    // The plain far form loses positive definiteness for r < 1.14a (transverse eigenvalue
    // 3/(4x) + 1/(2x^3) > 1); the RPY overlap form never does.
    auto plain_far_form = [](double x) { return 1.0 - (0.75 / x + 0.5 / (x * x * x)); };
    EXPECT_LT(plain_far_form(1.0), 0.0);
    EXPECT_GT(plain_far_form(1.2), 0.0);
    for (double r = 0.01; r < 4.0; r += 0.01)
        EXPECT_GT(smallest_two_sphere_eigenvalue(r, hydrodynamic_tensor::rotne_prager), 0.0) << r;
}

TEST(Mobility, SelfTermIsStokesMobility) {
    const double eta = 0.37, a = 1.9;
    const double mu0 = stokes_self_mobility(eta, a);
    EXPECT_NEAR(mu0, 1.0 / (6 * M_PI * eta * a), 1e-17);
    const vec3<double> v = self_velocity(vec3<double>{1, -2, 3}, mu0);
    EXPECT_EQ(v.y, -2 * mu0);
    interaction_parameters<double> p{};
    p.mobility = make_mobility_parameters(a, mu0, hydrodynamic_tensor::rotne_prager);
    const vec3<double> c =
        hydrodynamic_contribution(true, vec3<double>{1, 2, 3}, vec3<double>{1, 2, 3}, vec3<double>{0, 0, -1}, p);
    EXPECT_EQ(c.z, -mu0);
}

TEST(Mobility, ContributionIsTranslationInvariant) {
    interaction_parameters<double> p{};
    p.mobility = make_mobility_parameters(1.0, 1.0, hydrodynamic_tensor::rotne_prager);
    p.box = {false, {0, 0, 0}};
    const vec3<double> ri{0.5, -1.25, 3.0}, rj{4.0, 2.0, -1.5}, f{0.25, -0.5, -1.0};
    const vec3<double> shift{64.0, -128.0, 32.0};  // powers of two: the shifted differences are exact
    EXPECT_EQ(hydrodynamic_contribution(false, ri, rj, f, p),
              hydrodynamic_contribution(false, ri + shift, rj + shift, f, p));
}

TEST(Mobility, OseenIsTheFarFieldOfRotnePragerInSingleAndDouble) {
    // The float and double instantiations are the same formula: their results agree to float rounding.
    const vec3<double> r{3.0, -4.0, 12.0};  // |r| = 13
    const mobility_parameters<double> pd = make_mobility_parameters(1.0, 1.0, hydrodynamic_tensor::rotne_prager);
    const mobility_parameters<float> pf = make_mobility_parameters(1.0f, 1.0f, hydrodynamic_tensor::rotne_prager);
    const vec3<double> f{0, 0, -1};
    const vec3<double> vd = apply_pair_tensor(pair_mobility_tensor(r, pd), r, f, 1.0);
    const vec3<float> rf{3.0f, -4.0f, 12.0f}, ff{0, 0, -1};
    const vec3<float> vf = apply_pair_tensor(pair_mobility_tensor(rf, pf), rf, ff, 1.0f);
    // A handful of float operations, each with relative error <= 2^-24: 16 u is generous for the
    // ~8 roundings on the longest path.
    const double tol = 16 * std::ldexp(1.0, -24) * std::fabs(vd.z);
    EXPECT_NEAR(vf.z, vd.z, tol);
    EXPECT_NEAR(vf.x, vd.x, tol);
}
