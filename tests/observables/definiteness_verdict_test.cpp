// Verdicts on positive definiteness at any size (observables/definiteness_verdict.hpp, lanczos.hpp):
// Lanczos on known spectra, the CPU mobility operator against the dense matrix, proofs that must
// and must not be given, and the rounding bounds that decide them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/observables/definiteness_verdict.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/physics/tensor_registry.hpp"

using namespace stokesian;

namespace {

system_parameters open_system(hydrodynamic_tensor tensor = hydrodynamic_tensor::rotne_prager) {
    system_parameters s;
    s.tensor = tensor;
    s.box.periodic = false;
    return s;
}

// The paper's fcc lattice at n = 0.1 a^-3 in its periodic box (nearest image): indefinite for
// cells >= 2 (engine/docs/observables.md: lambda_min = -0.335 mu0 at cells = 3).
struct fcc_case {
    std::vector<vec3<double>> sites;
    system_parameters system;
};
fcc_case periodic_fcc(int cells) {
    const double b = fcc_lattice_constant(0.1);
    fcc_case c{fcc_lattice(cells, b), open_system()};
    c.system.box = {true, {cells * b, cells * b, cells * b}};
    return c;
}

verdict_options with(definiteness_method m) {
    verdict_options o;
    o.method = m;
    o.threads = 2;
    return o;
}

}  // namespace

TEST(Lanczos, FindsTheExtremesOfAKnownDiagonalSpectrumWithinItsBound) {
    // diag(-1, -1 + h, ..., 5): the ends are simple eigenvalues; 150 steps resolve them far below 1e-6.
    const std::size_t n = 400;
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i) d[i] = -1.0 + 6.0 * double(i) / double(n - 1);
    std::shuffle(d.begin(), d.end(), std::mt19937(5));  // no help from the basis order
    const symmetric_map diag = [&](std::span<const double> x, std::span<double> y) {
        for (std::size_t i = 0; i < n; ++i) y[i] = d[i] * x[i];
    };
    const lanczos_result r = lanczos_extremes(n, diag, {150, 1e-10, 1});
    // In exact arithmetic an eigenvalue lies within the residual of each Ritz value; the extremes
    // of a Krylov space approach the spectrum's ends from inside: theta_min >= -1, theta_max <= 5.
    EXPECT_NEAR(r.smallest.value, -1.0, std::max(r.smallest.residual, 1e-12));
    EXPECT_NEAR(r.largest.value, 5.0, std::max(r.largest.residual, 1e-12));
    EXPECT_LT(r.smallest.residual, 1e-6);
    EXPECT_GE(r.smallest.value, -1.0 - 1e-14);
    EXPECT_LE(r.largest.value, 5.0 + 1e-14);
    // The same map, the same Ritz values bit for bit (deterministic start vector).
    const lanczos_result again = lanczos_extremes(n, diag, {150, 1e-10, 1});
    EXPECT_EQ(again.smallest.value, r.smallest.value);
    EXPECT_EQ(again.iterations, r.iterations);
    // A space with two distinct eigenvalues is invariant after two steps.
    const symmetric_map two = [&](std::span<const double> x, std::span<double> y) {
        for (std::size_t i = 0; i < n; ++i) y[i] = (i % 2 ? 3.0 : 1.0) * x[i];
    };
    const lanczos_result small = lanczos_extremes(n, two);
    EXPECT_TRUE(small.converged);
    EXPECT_LE(small.iterations, 3u);
    EXPECT_NEAR(small.smallest.value, 1.0, 1e-13);
    EXPECT_NEAR(small.largest.value, 3.0, 1e-13);
    EXPECT_THROW(lanczos_extremes(0, diag), std::invalid_argument);
    EXPECT_THROW(lanczos_extremes(n, diag, {0, 1e-8, 1}), std::invalid_argument);
}

TEST(Lanczos, OverTheCpuMobilityOperatorMatchesTheDenseSmallestEigenvalue) {
    const fcc_case c = periodic_fcc(3);  // N = 108, n = 324
    const dense_matrix m = mobility_matrix(c.sites, c.system);
    const auto op = backends::backend_registry().find("cpu")->make_mobility(c.system, c.sites, {}, 2);
    // The operator is the dense matrix's product up to the rounding of a row sum: the pair tensor
    // applied to F (engine) vs. entry by entry (matrix): |diff| <= gamma_n |M||F| with n ~ 3N terms
    // of O(1) and a few roundings more per pair term -> 1e-12 is ~30x that.
    std::vector<double> f(m.size), v(m.size);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double& x : f) x = u(rng);
    op->apply(f, v);
    for (std::size_t a = 0; a < m.size; ++a) {
        double y = 0.0;
        for (std::size_t b = 0; b < m.size; ++b) y += m(a, b) * f[b];
        EXPECT_NEAR(v[a], y, 1e-12) << a;
    }
    // A full Krylov space (m = n) gives the dense answer.
    const lanczos_result r = lanczos_extremes(
        m.size, [&](std::span<const double> x, std::span<double> y) { op->apply(x, y); }, {400, 1e-12, 1});
    const double dense = smallest_eigenvalue(m);
    EXPECT_LT(dense, -0.3);
    EXPECT_NEAR(r.smallest.value, dense, std::max(r.smallest.residual, 1e-9));
}

TEST(DefinitenessVerdict, TheMinimumImageLatticeGetsAProofOfIndefinitenessByEveryMethod) {
    const fcc_case c = periodic_fcc(3);
    for (definiteness_method m : {definiteness_method::automatic, definiteness_method::cholesky,
                                  definiteness_method::eigen, definiteness_method::lanczos}) {
        const definiteness_verdict v = decide_positive_definiteness(c.sites, c.system, with(m));
        EXPECT_EQ(v.kind, verdict_kind::proven_indefinite) << to_string(m) << ": " << v.summary();
        EXPECT_FALSE(v.positive_definite);
        EXPECT_LT(v.quadratic_form + v.quadratic_form_bound, 0.0);
        EXPECT_LT(v.quadratic_form_bound, 1e-10);  // gamma_2m |x|^T|M||x| with m = 324: ~1e-13 x O(10)
        if (m == definiteness_method::cholesky || m == definiteness_method::automatic) {
            EXPECT_TRUE(v.cholesky_run);
            EXPECT_GT(v.cholesky_info, 0);
        }
    }
    // The Lanczos vector is as negative as the smallest eigenvalue says.
    const definiteness_verdict l = decide_positive_definiteness(c.sites, c.system, with(definiteness_method::lanczos));
    EXPECT_LT(l.quadratic_form, -0.3);
}

TEST(DefinitenessVerdict, PositiveDefiniteSystemsGetACholeskyProofOrAnEstimateNeverAFalseProof) {
    // Two touching spheres: lambda_min = 3/8 exactly (positive_definiteness_test.cpp).
    const std::vector<vec3<double>> pair{{0, 0, 0}, {2.0, 0, 0}};
    const definiteness_verdict chol =
        decide_positive_definiteness(pair, open_system(), with(definiteness_method::automatic));
    EXPECT_EQ(chol.kind, verdict_kind::proven_positive_definite) << chol.summary();
    EXPECT_GT(chol.cholesky_shift, 0.0);
    EXPECT_LT(chol.cholesky_shift, 1e-13);
    const definiteness_verdict lan =
        decide_positive_definiteness(pair, open_system(), with(definiteness_method::lanczos));
    EXPECT_EQ(lan.kind, verdict_kind::estimate) << lan.summary();
    EXPECT_TRUE(lan.positive_definite);
    EXPECT_NEAR(lan.smallest, 3.0 / 8.0, std::max(lan.smallest_bound, 1e-13));
    // The open fcc cluster is positive definite: Cholesky proves it, eigen and Lanczos only estimate.
    const fcc_case c = periodic_fcc(3);
    const definiteness_verdict open =
        decide_positive_definiteness(c.sites, open_system(), with(definiteness_method::automatic));
    EXPECT_EQ(open.kind, verdict_kind::proven_positive_definite) << open.summary();
    const definiteness_verdict eig =
        decide_positive_definiteness(c.sites, open_system(), with(definiteness_method::eigen));
    EXPECT_EQ(eig.kind, verdict_kind::estimate);
    EXPECT_TRUE(eig.positive_definite);
    EXPECT_GT(eig.smallest, 0.05);
}

TEST(DefinitenessVerdict, RoundingBoundsDecideWhatIsProven) {
    // Negative by far less than one rounding of the large entry: no proof, whatever the computed sign.
    dense_matrix m(2);
    m(0, 0) = 1.0;
    m(1, 1) = 1.0;
    m(0, 1) = m(1, 0) = 1.0;  // singular PSD: x = (1, -1)/sqrt(2) has x^T M x = 0 exactly
    const double h = 1.0 / std::sqrt(2.0);
    const quadratic_form_value zero = dense_quadratic_form(m, {h, -h});
    EXPECT_FALSE(zero.proves_indefinite()) << zero.value << " +- " << zero.bound;
    EXPECT_GT(zero.bound, 0.0);
    // A tiny negative eigenvalue far from any other entry is resolved exactly: a proof.
    dense_matrix d(2);
    d(0, 0) = 1.0;
    d(1, 1) = -1e-200;
    EXPECT_TRUE(dense_quadratic_form(d, {0.0, 1.0}).proves_indefinite());
    // Cholesky of a matrix positive definite by less than the shift fails: no claim of a proof.
    dense_matrix nearly(2);
    nearly(0, 0) = 1.0;
    nearly(1, 1) = 1e-18;
    const double shift = cholesky_proof_shift(2, 1.0 + 1e-18, 1.0);
    EXPECT_GT(shift, 1e-18);
    EXPECT_FALSE(host_cholesky(nearly, shift).factorised);
    EXPECT_TRUE(host_cholesky(nearly, 0.0).factorised);  // unshifted it completes, proving nothing
    // The failure vector's quadratic form is the failing pivot: Oseen at r = 1.2a (lambda_min = -0.25).
    const std::vector<vec3<double>> close{{0, 0, 0}, {0, 0, 1.2}};
    const system_parameters oseen = open_system(hydrodynamic_tensor::oseen);
    const host_cholesky_result c = host_cholesky(mobility_matrix(close, oseen), 0.0);
    ASSERT_FALSE(c.factorised);
    ASSERT_EQ(c.failure_vector.size(), 6u);
    const quadratic_form_value q = mobility_quadratic_form(close, oseen, c.failure_vector, 1);
    EXPECT_TRUE(q.proves_indefinite()) << q.value;
    EXPECT_EQ(decide_positive_definiteness(close, oseen, with(definiteness_method::cholesky)).kind,
              verdict_kind::proven_indefinite);
}

TEST(DefinitenessVerdict, QuadraticFormsDoNotDependOnTheThreadCountAndBadInputIsRefused) {
    const fcc_case c = periodic_fcc(2);
    std::vector<double> x(3 * c.sites.size());
    std::mt19937_64 rng(9);
    std::normal_distribution<double> g;
    for (double& v : x) v = g(rng);
    const quadratic_form_value one = mobility_quadratic_form(c.sites, c.system, x, 1);
    const quadratic_form_value four = mobility_quadratic_form(c.sites, c.system, x, 4);
    EXPECT_EQ(one.value, four.value);
    EXPECT_EQ(one.bound, four.bound);
    // Against the stored matrix: the same entries, another order of summation, within both bounds.
    const quadratic_form_value dense = dense_quadratic_form(mobility_matrix(c.sites, c.system), x);
    EXPECT_NEAR(one.value, dense.value, one.bound + dense.bound);
    EXPECT_THROW(mobility_quadratic_form(c.sites, c.system, {1.0}), std::invalid_argument);
    EXPECT_THROW(parse_definiteness_method("cholesky-ish"), std::invalid_argument);
    EXPECT_EQ(parse_definiteness_method("lanczos"), definiteness_method::lanczos);
    verdict_options unknown;
    unknown.backend = "no-such-backend";
    EXPECT_THROW(decide_positive_definiteness(c.sites, c.system, unknown), std::invalid_argument);
}
