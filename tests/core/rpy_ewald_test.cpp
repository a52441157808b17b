// The Ewald-summed Rotne-Prager-Yamakawa tensor (tensor "rpy-ewald", physics/tensors/rpy_ewald.hpp,
// engine/docs/ewald.md): its elementary functions, exact evenness, independence from the splitting
// parameter, the finite-size correction of the self mobility and the sedimentation of a simple cubic
// array (Hasimoto 1959), positive definiteness where nearest image fails (fcc, N = 256; N = 864 in
// tests/cli/long_rpy_ewald_test.cpp) and the scenario loader. The engines of every backend:
// tests/backends/rpy_ewald_conformance.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/ewald_setup.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/ewald_matrix.hpp"
#include "support/toml_document.hpp"

using namespace stokesian;

namespace {

constexpr double pi = std::numbers::pi;

system_parameters ewald_system(vec3<double> edges, double tolerance = 1e-6, std::optional<double> xi = {}) {
    system_parameters s;
    s.tensor = hydrodynamic_tensor::rpy_ewald;
    s.box = {true, edges};
    s.ewald.tolerance = tolerance;
    s.ewald.xi = xi;
    return s;
}

std::vector<vec3<double>> random_separations(vec3<double> edges, std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    std::vector<vec3<double>> r;
    while (r.size() < n) {
        const vec3<double> x{u(rng) * edges.x, u(rng) * edges.y, u(rng) * edges.z};
        if (dot(x, x) > 4.0) r.push_back(x);  // apart (overlap: OverlappingImagesTakeTheOverlapForm)
    }
    return r;
}

double largest_difference(const symmetric_block<double>& a, const symmetric_block<double>& b) {
    const double d[6] = {a.xx - b.xx, a.yy - b.yy, a.zz - b.zz, a.xy - b.xy, a.xz - b.xz, a.yz - b.yz};
    double m = 0.0;
    for (const double x : d) m = std::max(m, std::fabs(x));
    return m;
}

bool same_bits(const symmetric_block<double>& a, const symmetric_block<double>& b) {
    return a.xx == b.xx && a.yy == b.yy && a.zz == b.zz && a.xy == b.xy && a.xz == b.xz && a.yz == b.yz;
}

template <class W>
void check_portable_math() {
    const double u = std::numeric_limits<W>::epsilon() / 2;
    // exp: argument reduction (|n| ln2_lo's rounding, < 1u of r), Taylor remainder (< 0.01u), Horner
    // with |r/k| < 0.35 (each step's rounding is damped: < 2u), ldexp exact; std::exp < 1u: 4u.
    double exp_error = 0.0;
    for (double x = -60.0; x <= 0.0; x += 0.0013) {
        const double exact = std::exp(double(W(x)));
        exp_error = std::max(exp_error, std::fabs(double(portable::exp(W(x))) - exact) / exact);
    }
    EXPECT_LE(exp_error, 4 * u);
    // erfc, absolute: the series' largest terms (n ~ x^2) carry <= 3 x^2 roundings each (3 per step),
    // exp(-x^2) 4u, the products 2u: for x <= 6, 3 * 36 + 6 = 114u, bounded by 128u. It is the absolute
    // error that matters: erfc multiplies terms of order mu0 in the real-space sum.
    double erfc_error = 0.0, gaussian_error = 0.0;
    for (double x = 0.0; x <= 6.0; x += 0.0007) {
        const portable::erfc_and_gaussian<W> e = portable::erfc_with_gaussian(W(x));
        const double xw = double(W(x));
        erfc_error = std::max(erfc_error, std::fabs(double(e.erfc) - std::erfc(xw)));
        gaussian_error = std::max(gaussian_error, std::fabs(double(e.gaussian) - std::exp(-xw * xw)));
    }
    EXPECT_LE(erfc_error, 128 * u);
    // exp(-x^2), absolute: x^2 rounded (relative u: x^2 e^-x^2 u <= u/e absolute) and exp's 4u: <= 5u.
    EXPECT_LE(gaussian_error, 8 * u);
    // sin, cos, absolute, |theta| <= 4: the reduction t = theta - q pi/2 (two-part pi/2, q <= 3: <= 2u),
    // the polynomials (< 1.5u); exactly odd and even.
    double trig_error = 0.0;
    for (double t = -4.0; t <= 4.0; t += 0.0009) {
        const W tw = W(t);
        const portable::sin_cos<W> s = portable::sincos(tw), m = portable::sincos(W(-tw));
        trig_error = std::max({trig_error, std::fabs(double(s.sin) - std::sin(double(tw))),
                               std::fabs(double(s.cos) - std::cos(double(tw)))});
        ASSERT_EQ(m.sin, -s.sin) << t;
        ASSERT_EQ(m.cos, s.cos) << t;
    }
    EXPECT_LE(trig_error, 4 * u);
    // log, relative: f = (m - 1)/(m + 1) carries 2u (m - 1 exact), the series 1u more, so ln m errs by
    // <= 4u of |ln m| <= 0.347 (sqrt(1/2) <= m < sqrt(2)); e ln2_hi is exact, e ln2_lo + ln m and the
    // final sum round once each. For e != 0 |ln x| >= 0.347: <= 4u 0.347/0.347 + 2u; for e = 0 the
    // result is ln m itself: 4u; the C library's < 1u: 8u. x from 1e-8 to 10 (the two-body
    // lubrication takes logs of gaps in [1e-9, 3.5]).
    double log_error = 0.0;
    for (double t = -18.5; t <= 2.4; t += 0.00037) {
        const W x = W(std::exp(t));
        const double exact = std::log(double(x));
        if (exact == 0.0) continue;
        log_error = std::max(log_error, std::fabs(double(portable::log(x)) - exact) / std::fabs(exact));
    }
    EXPECT_LE(log_error, 8 * u);
}

}  // namespace

TEST(PortableMath, AgreesWithTheCLibraryInDouble) { check_portable_math<double>(); }
TEST(PortableMath, AgreesWithTheCLibraryInFloat) { check_portable_math<float>(); }

TEST(RpyEwald, BlockIsExactlyEvenAndSymmetricInEveryWorkingPrecision) {
    const system_parameters s = ewald_system({9.0, 10.0, 12.0});
    const auto pd = make_interaction_parameters<double>(s);
    const auto pf = make_interaction_parameters<float>(s);
    for (const vec3<double>& r : random_separations(s.box.edges, 50, 1)) {
        EXPECT_TRUE(same_bits(rpy_ewald_tensor::block<double>(r, pd.mobility),
                              rpy_ewald_tensor::block<double>(-r, pd.mobility)));
        const vec3<float> rf = value_cast<float>(r);
        const symmetric_block<float> a = rpy_ewald_tensor::block<float>(rf, pf.mobility),
                                     b = rpy_ewald_tensor::block<float>(-rf, pf.mobility);
        EXPECT_TRUE(a.xx == b.xx && a.yy == b.yy && a.zz == b.zz && a.xy == b.xy && a.xz == b.xz && a.yz == b.yz);
    }
}

// Validation (c): the sum does not depend on xi. Against a reference at tolerance 1e-12, every entry
// of pair and self blocks at tolerance t is within t (the estimate bounds each entry's truncation by
// t/2 + t/2; the double rounding, ~1e-14, is far below), for xi from 0.5 to 2 times the default
// (cubic and rectangular boxes).
TEST(RpyEwald, IndependentOfTheSplittingParameterToTheTolerance) {
    for (const vec3<double> edges : {vec3<double>{10.0, 10.0, 10.0}, vec3<double>{8.0, 11.0, 14.0}})
        for (const double tolerance : {1e-4, 1e-6, 1e-9}) {
            const system_parameters reference_system = ewald_system(edges, 1e-12);
            const auto reference = make_interaction_parameters<double>(reference_system);
            const double xi0 = default_ewald_xi(reference_system);
            const std::vector<vec3<double>> separations = random_separations(edges, 60, 2);
            for (const double factor : {0.5, 0.7, 1.0, 1.4, 2.0}) {
                const auto p = make_interaction_parameters<double>(ewald_system(edges, tolerance, factor * xi0));
                double error = largest_difference(p.mobility.ewald.self, reference.mobility.ewald.self);
                for (const vec3<double>& r : separations)
                    error = std::max(error, largest_difference(rpy_ewald_tensor::block<double>(r, p.mobility),
                                                               rpy_ewald_tensor::block<double>(r, reference.mobility)));
                EXPECT_LE(error, tolerance)
                    << "edges " << edges.x << " " << edges.y << " " << edges.z << ", xi = " << factor << " x default";
            }
        }
}

// Validation (b): one sphere in a periodic cube of edge L, mu(L)/mu0 = 1 - c a/L + (4 pi/3)(a/L)^3 + ...
// with c = 2.837297 (Hasimoto 1959; Duenweg & Kremer; 2.8372974795 to more digits): the residual
// after the first-order term is phi = (4 pi/3)(a/L)^3, the O(phi) term (the RPY tensor has no a^5/r^5
// part, so nothing of order (a/L)^6 from it). Allowed: c's rounding, |2.837297 - 2.8372974795| < 5e-7,
// times a/L, and the tolerance 1e-10 of the sum. Measured: |residual - phi| <= 4.8e-7 a/L (the
// rounding of c itself); with c to 11 digits, below 2e-10 (printed).
TEST(RpyEwald, SelfMobilityHasTheFiniteSizeCorrectionOfHasimoto) {
    for (const double edge : {5.0, 10.0, 20.0, 40.0, 80.0, 160.0}) {
        const auto p = make_interaction_parameters<double>(ewald_system({edge, edge, edge}, 1e-10));
        const symmetric_block<double>& self = p.mobility.ewald.self;
        const double x = 1.0 / edge, phi = 4.0 * pi / 3.0 * x * x * x;
        const double residual = self.xx - (1.0 - 2.837297 * x);
        EXPECT_NEAR(residual, phi, 5e-7 * x + 1e-10) << "L = " << edge;
        std::printf(
            "L = %5.0f a: mu/mu0 = %.10f, (mu/mu0 - 1 + 2.837297 a/L)/phi = %.6f, "
            "mu/mu0 - (1 - 2.8372974795 a/L + phi) = %.2e\n",
            edge, self.xx, residual / phi, self.xx - (1.0 - 2.8372974795 * x + phi));
        EXPECT_NEAR(self.xx, self.yy, 1e-15);  // cubic: isotropic up to the summation order
        EXPECT_NEAR(self.xx, self.zz, 1e-15);
        EXPECT_NEAR(self.xy, 0.0, 1e-15);
    }
}

// Validation (a): a simple cubic array of spheres sedimenting under equal forces, 2 x 2 x 2 cells of
// edge l in the periodic box (pair blocks and self blocks, through the scenario loader and the CPU
// engine's loops): every sphere moves at U/U0 = 1 - 1.7601 phi^(1/3) + O(phi) (Hasimoto 1959), phi =
// (4 pi/3)(a/l)^3. The residual U/U0 - (1 - 1.7601 phi^(1/3)) is phi to within the constant's rounding
// (|1.7601 - 1.760119| phi^(1/3) <= 2e-5 phi^(1/3)) and 8 blocks' tolerance (8e-8): its ratio to phi
// falls to 1 as phi falls, the O(phi) scaling.
TEST(RpyEwald, SimpleCubicArraySedimentsAtHasimotosVelocity) {
    for (const double phi : {1e-4, 1e-3, 1e-2, 5e-2}) {
        const double l = std::cbrt(4.0 * pi / (3.0 * phi));
        std::string positions;
        for (int i = 0; i < 8; ++i)
            positions += (i ? ", [" : "[") + std::to_string(l * ((i & 1) - 0.5)) + ", " +
                         std::to_string(l * (((i >> 1) & 1) - 0.5)) + ", " +
                         std::to_string(l * (((i >> 2) & 1) - 0.5)) + "]";
        const std::string text =
            "[scenario]\nname = \"sc\"\n[physics]\ntensor = \"rpy-ewald\"\n"
            "[physics.ewald]\ntolerance = 1e-8\n[box]\nboundary = \"periodic\"\nedges = [" +
            std::to_string(2 * l) + ", " + std::to_string(2 * l) + ", " + std::to_string(2 * l) +
            "]\n[particles]\npositions = [" + positions + "]\nforce = [0, 0, -1]\n[run]\ndt = 0.01\nsteps = 1\n";
        const scenario s = parse_scenario(text, "sc.toml");
        engine_config c = make_engine_config(s);
        c.backend = "cpu";
        const auto e = make_engine(c, s.particles);
        frame f;
        e->read_frame(f);
        // std::to_string rounds l to 6 decimals: the array's phi is that of the rounded cell.
        const double cell = s.system.box.edges.x / 2, phi_cell = 4.0 * pi / (3.0 * cell * cell * cell);
        const double precise = 2.8372974795 * std::cbrt(3.0 / (4.0 * pi));  // 1.7601190...
        std::printf("phi = %.0e: U/U0 = %.10f, (U/U0 - 1 + 1.7601 phi^(1/3))/phi = %.5f, with %.7f: %.7f\n", phi,
                    -f.velocity[0].z, (-f.velocity[0].z - (1.0 - 1.7601 * std::cbrt(phi_cell))) / phi_cell, precise,
                    (-f.velocity[0].z - (1.0 - precise * std::cbrt(phi_cell))) / phi_cell);
        for (const vec3<double>& v : f.velocity) {
            const double residual = -v.z - (1.0 - 1.7601 * std::cbrt(phi_cell));
            EXPECT_NEAR(residual, phi_cell, 2e-5 * std::cbrt(phi_cell) + 8e-8) << "phi = " << phi;
            EXPECT_NEAR(v.x, 0.0, 1e-12);
        }
    }
}

// An image closer than contact takes the open RPY overlap form. Then D(r) = mu_Ewald(r) - mu_open(r)
// (the open tensor with its own overlap form) is the sum over the other images and the waves, the
// far form of the image at r cancelled exactly: smooth in r, even, nearly constant in a large box.
// A quadratic D0 + c r^2 through r = 2.5a and 3.5a predicts it at overlap to its quartic term
// (measured <= 2e-5 for r <= 4a at L = 30a); allowed 1e-4. Without the overlap correction D would
// jump by far - overlap at r < 2a (0.31 mu0 in xx, 0.53 in yy at r = a).
TEST(RpyEwald, OverlappingImagesTakeTheOverlapForm) {
    const auto p = make_interaction_parameters<double>(ewald_system({30.0, 30.0, 30.0}, 1e-10));
    const auto open_parameters = make_mobility_parameters(1.0, 1.0, hydrodynamic_tensor::rotne_prager);
    for (const int component : {0, 1}) {  // along the line (xx) and across it (yy)
        const auto difference = [&](double r) {
            const pair_tensor<double> open = rotne_prager_yamakawa_tensor::evaluate<double>(r * r, open_parameters);
            const symmetric_block<double> b = rpy_ewald_tensor::block<double>({r, 0.0, 0.0}, p.mobility);
            return component == 0 ? b.xx - (open.identity + open.dyadic * r * r) : b.yy - open.identity;
        };
        const double d1 = difference(2.5), d2 = difference(3.5);
        const double c = (d2 - d1) / (3.5 * 3.5 - 2.5 * 2.5), d0 = d1 - c * 2.5 * 2.5;
        EXPECT_NEAR(d0, -2.837297 / 30.0, 1e-3);  // the leading finite-size term
        for (const double r : {0.1, 0.5, 1.0, 1.5, 1.99, 2.01})
            EXPECT_NEAR(difference(r), d0 + c * r * r, 1e-4) << "r = " << r << ", component " << component;
    }
}

// The dense matrix the tests build block by block is the observables' mobility_matrix (which asks
// hydrodynamic_contribution for every column), bit for bit.
TEST(RpyEwald, BlockMatrixIsTheObservablesMobilityMatrix) {
    const system_parameters s = ewald_system({7.0, 7.0, 7.0});
    std::vector<vec3<double>> positions = random_separations(s.box.edges, 6, 3);
    const dense_matrix a = test_support::ewald_mobility_matrix(positions, s), b = mobility_matrix(positions, s);
    ASSERT_EQ(a.size, b.size);
    for (std::size_t k = 0; k < a.values.size(); ++k) ASSERT_EQ(a.values[k], b.values[k]) << k;
}

// Validation (d): the fcc lattice at n = 0.1 a^-3, N = 256, whose nearest-image Rotne-Prager mobility
// is indefinite (lambda_min = -0.84 mu0, engine/docs/observables.md), is positive definite with the
// Ewald sum: Cholesky succeeds and lambda_min > 0 (N = 864: tests/cli/long_rpy_ewald_test.cpp).
TEST(RpyEwald, FccLatticeIsPositiveDefiniteWhereNearestImageIsNot) {
    const int cells = 4;
    const double b = fcc_lattice_constant(0.1), edge = cells * b;
    const std::vector<vec3<double>> positions = fcc_lattice(cells, b);
    system_parameters nearest;
    nearest.box = {true, {edge, edge, edge}};
    const definiteness_report rp = check_mobility_positive_definiteness(positions, nearest);
    EXPECT_FALSE(rp.positive_definite());
    EXPECT_LT(rp.smallest_eigenvalue, -0.5);
    const system_parameters ewald = ewald_system({edge, edge, edge});
    const definiteness_report e =
        check_positive_definiteness(test_support::ewald_mobility_matrix(positions, ewald), positions.size());
    EXPECT_TRUE(e.cholesky_attempted && e.cholesky_succeeded);
    EXPECT_GT(e.smallest_eigenvalue, 0.0);
    EXPECT_LE(e.asymmetry, 0.0);  // built symmetric
    std::printf("fcc N = %zu: nearest image lambda_min = %.4f mu0, Ewald lambda_min = %.6f mu0\n", positions.size(),
                rp.smallest_eigenvalue, e.smallest_eigenvalue);
}

// Bad input: one line each, through the loader's input_error (exit code 2 in the CLI).
TEST(RpyEwald, LoaderRefusesBadEwaldSettings) {
    const auto error = [](const std::string& physics, const std::string& box) {
        const std::string text =
            "[scenario]\nname = \"e\"\n[physics]\n" + physics + "\n[box]\n" + box +
            "\n[particles]\npositions = [[0, 0, 0], [3, 0, 0]]\nforce = [0, 0, -1]\n[run]\ndt = 0.01\nsteps = 1\n";
        try {
            parse_scenario(text, "e.toml");
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string periodic = "boundary = \"periodic\"\nedges = [10, 10, 10]";
    EXPECT_EQ(error("tensor = \"rpy-ewald\"", periodic), "");
    const std::vector<std::pair<std::string, std::string>> bad = {
        {error("tensor = \"rpy-ewald\"", "boundary = \"open\""), "periodic box"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\ntolerance = 0.5", periodic), "tolerance <= 0.01"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\ntolerance = 1e-15", periodic), "1e-12 <= tolerance"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\ntolerance = -1", periodic), "> 0"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\nxi = 0", periodic), "> 0"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\nxi = -0.3", periodic), "> 0"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\nxi = 0.001", periodic), "images"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\nxi = 50", periodic), "wave vectors"},
        {error("tensor = \"rpy-ewald\"\n[physics.ewald]\nsplitting = 1", periodic), "splitting"},
        {error("tensor = \"rotne-prager\"\n[physics.ewald]\ntolerance = 1e-6", periodic), "only allowed"},
    };
    for (const auto& [message, part] : bad) {
        EXPECT_NE(message.find(part), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

// Splitting parameters at either end of the double range once made the cutoff searches walk for ever
// (12/xi or 24 xi overflowed; a subnormal xi's step rounded to 0). Refused with the range, by the
// loader and by the setup itself; at the range's own ends the setup ends, refusing by its tables.
TEST(RpyEwald, SplittingParametersOutsideTheSearchableRangeAreRefusedWithTheRange) {
    const std::string range = short_number(ewald_min_xi) + " <= xi <= " + short_number(ewald_max_xi);
    EXPECT_EQ(range, "1e-307 <= xi <= 1e+306");
    for (const char* xi : {"5e-324", "1e-322", "1e-310", "1e-308", "1e307", "1.7e308"}) {
        const std::string text =
            "[scenario]\nname = \"e\"\n[physics]\ntensor = \"rpy-ewald\"\n[physics.ewald]\nxi = " + std::string(xi) +
            "\n[box]\nboundary = \"periodic\"\nedges = [10, 10, 10]\n[particles]\npositions = [[0, 0, 0], [3, 0, "
            "0]]\nforce = [0, 0, -1]\n[run]\ndt = 0.01\nsteps = 1\n";
        try {
            parse_scenario(text, "e.toml");
            ADD_FAILURE() << "xi = " << xi << " was accepted";
        } catch (const input_error& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.rfind("e.toml: key 'physics.ewald.xi' = ", 0), 0u) << message;
            EXPECT_NE(message.find("expected " + range), std::string::npos) << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        }
        try {
            make_ewald_parameters(ewald_system({10, 10, 10}, 1e-6, std::strtod(xi, nullptr)));
            ADD_FAILURE() << "xi = " << xi << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(range), std::string::npos) << e.what();
        }
    }
    for (const double xi : {1e-305, ewald_min_xi, ewald_max_xi}) {
        try {
            make_ewald_parameters(ewald_system({10, 10, 10}, 1e-6, xi));
            ADD_FAILURE() << "xi = " << xi << " was accepted";
        } catch (const std::invalid_argument& e) {
            const std::string message = e.what();
            EXPECT_NE(message.find(xi < 1.0 ? "images along x" : "wave vectors along x"), std::string::npos) << message;
        }
    }
}

// The resolved configuration names the Ewald settings, and only for this tensor.
TEST(RpyEwald, ResolvedConfigurationKeepsTheEwaldSettings) {
    const std::string text =
        "[scenario]\nname = \"e\"\n[physics]\ntensor = \"rpy-ewald\"\n[physics.ewald]\n"
        "tolerance = 1e-8\nxi = 0.4\n[box]\nboundary = \"periodic\"\nedges = [10, 10, 10]\n"
        "[particles]\npositions = [[0, 0, 0]]\nforce = [0, 0, -1]\n[run]\ndt = 0.01\nsteps = 1\n";
    const scenario s = parse_scenario(text, "e.toml");
    const std::string resolved = resolved_configuration(s);
    toml::table doc;
    ASSERT_NO_THROW(doc = toml::parse(resolved)) << resolved;
    EXPECT_EQ(doc["physics"]["tensor"].value<std::string>(), "rpy-ewald");
    EXPECT_EQ(doc["physics"]["ewald"]["tolerance"].value<double>(), 1e-8);
    EXPECT_EQ(doc["physics"]["ewald"]["xi"].value<double>(), 0.4);
    scenario open = s;
    open.system.tensor = hydrodynamic_tensor::rotne_prager;
    // The Ewald settings belong to that tensor alone (the reader refuses [physics.ewald] with another).
    EXPECT_EQ(resolved_configuration(open).find("ewald"), std::string::npos);
}
