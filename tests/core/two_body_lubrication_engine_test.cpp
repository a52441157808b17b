// The two-body lubrication model in the engine (engine/docs/lubrication.md, "The two-body model"):
// its operator is symmetric and positive semi-definite (so the implicit solve's operator stays
// symmetric positive definite) and the settings it cannot run with are refused in one line. Every
// backend in every precision mode, the dense solve, resume: tests/backends/two_body_lubrication_conformance.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/mobility_matrix.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/run/run_size.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/dense_solve.hpp"
#include "support/implicit_lubrication_checks.hpp"
#include "support/two_sphere_table.hpp"

using namespace stokesian;
using namespace stokesian::testing_support;

namespace {

// zeta of the lubricated pairs among `positions` as a dense matrix (F_lub = -zeta u), from the
// engine's pair operator on unit velocities of one sphere at a time.
dense_matrix lubrication_matrix(const std::vector<vec3<double>>& positions, const system_parameters& system) {
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    dense_matrix z;
    z.size = 3 * positions.size();
    z.values.assign(z.size * z.size, 0.0);
    const vec3<double> unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (std::size_t i = 0; i < positions.size(); ++i)
        for (std::size_t j = 0; j < positions.size(); ++j) {
            if (i == j) continue;
            for (int c = 0; c < 3; ++c) {
                const vec3<double> fi = lubrication_pair_force(positions[i], positions[j], unit[c], {}, p);
                const vec3<double> fj = lubrication_pair_force(positions[i], positions[j], {}, unit[c], p);
                const double on_i[3] = {fi.x, fi.y, fi.z}, from_j[3] = {fj.x, fj.y, fj.z};
                for (int row = 0; row < 3; ++row) {
                    z.values[(3 * i + c) * z.size + 3 * i + row] -= on_i[row];
                    z.values[(3 * j + c) * z.size + 3 * i + row] -= from_j[row];
                }
            }
        }
    return z;
}

template <class W>
void expect_modes_non_negative() {
    // zeta = w (R_exact - R_far) in each mode from min_gap = 1e-9 to beyond the cutoff, 2000 gaps per
    // decade of ln s: R_exact > R_far everywhere (the exact pair is stiffer than its far-field
    // approximation in every mode; the oracle's table says so at all its rows), so zeta >= 0 and the
    // corrected pair resistance R_far + zeta = R_exact (up to the taper) is positive definite.
    for (double t = std::log(1e-9); t <= std::log(4.0); t += 1.0 / 2000) {
        const W distance = W(2) + W(std::exp(t));
        const two_body_modes<W> z = two_body_correction(distance, W(1e-9));
        const two_body_modes<W> exact = exact_pair_resistance(W(std::exp(t)));
        for (const W v : {z.x_sum, z.x_difference, z.y_sum, z.y_difference}) ASSERT_GE(v, W(0)) << std::exp(t);
        for (const W v : {exact.x_sum, exact.x_difference, exact.y_sum, exact.y_difference})
            ASSERT_GT(v, W(0)) << std::exp(t);
    }
}

engine_config two_body_config(precision_mode mode = reference_precision_mode) {
    engine_config c = isolated_pair_config(lubrication_model::two_body, mode);
    c.dt = 0.001;
    return c;
}

}  // namespace

TEST(TwoBodyLubricationOperator, ModesAreNonNegativeInDoubleAndFloat) {
    expect_modes_non_negative<double>();
    expect_modes_non_negative<float>();
}

TEST(TwoBodyLubricationOperator, IsSymmetricPositiveSemiDefiniteAndExactOnAPair) {
    // A pair along a generic direction: the 6 x 6 operator is symmetric and its eigenvalues are the
    // four mode corrections (y twice) and nothing else; R_far + zeta in each mode is the exact
    // resistance. Failable: a sign slip in the pair block makes it indefinite or asymmetric.
    system_parameters system;
    system.lubrication.enabled = true;
    system.lubrication.model = lubrication_model::two_body;
    const vec3<double> n{2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0};
    for (const double gap : {1e-5, 1e-3, 0.1, 1.0, 2.9}) {
        SCOPED_TRACE("s = " + std::to_string(gap));
        const double r = 2.0 + gap;
        const dense_matrix z = lubrication_matrix({{0, 0, 0}, r * n}, system);
        double largest = 0.0;
        for (double v : z.values) largest = std::max(largest, std::fabs(v));
        EXPECT_LE(relative_asymmetry(z), 1e-14);
        EXPECT_GE(smallest_eigenvalue(z), -1e-14 * largest);
        // The modes: (u_0, u_1) = (e, -e) along n gives F_0 = -zeta_x_difference / 2 ... per sphere.
        const two_body_modes<double> exact = exact_pair_resistance(r - 2.0);
        const two_body_modes<double> far = far_field_pair_resistance(r);
        const two_body_modes<double> correction = two_body_correction(r, 1e-6);
        const interaction_parameters<double> p = make_interaction_parameters<double>(system);
        const vec3<double> f = lubrication_pair_force({0, 0, 0}, r * n, n, -1.0 * n, p);
        EXPECT_NEAR(-dot(f, n), correction.x_difference, 1e-13 * exact.x_difference);
        EXPECT_NEAR(far.x_difference + correction.x_difference, exact.x_difference, 1e-13 * exact.x_difference);
        EXPECT_NEAR(far.y_sum + correction.y_sum, exact.y_sum, 1e-13 * exact.y_sum);
    }
}

// The largest |entry| of R M - I (6 x 6), and R's relative asymmetry and smallest eigenvalue: R the
// corrected pair resistance M_RP^-1 + zeta of `model` (M_RP the engine's Rotne-Prager mobility of
// the pair, inverted densely), M the exact torque-free mobility of the oracle's row.
struct corrected_pair_resistance {
    double inverse_error, asymmetry, smallest_eigenvalue;
};

corrected_pair_resistance corrected_against_oracle(const two_sphere_row& row, lubrication_model model) {
    system_parameters system;
    system.lubrication.enabled = true;
    system.lubrication.model = model;
    const vec3<double> n{2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0};
    const std::vector<vec3<double>> positions{{0, 0, 0}, row.distance() * n};
    const dense_matrix far = mobility_matrix(positions, system);
    dense_matrix r = lubrication_matrix(positions, system);
    for (std::size_t column = 0; column < 6; ++column) {
        std::vector<double> unit(6, 0.0);
        unit[column] = 1.0;
        const std::vector<double> x = test_support::dense_solve(far.values, unit, 6);
        for (std::size_t k = 0; k < 6; ++k) r(k, column) += x[k];
    }
    // M_exact: blocks x nn + y (I - nn) with x11a, y11a on the diagonal blocks, x12a, y12a off it
    // (d = r_1 - r_0 along n: the pair functions are even in n).
    dense_matrix exact(6);
    const double e[3] = {n.x, n.y, n.z};
    for (int bi = 0; bi < 2; ++bi)
        for (int bj = 0; bj < 2; ++bj)
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) {
                    const double x = bi == bj ? row["x11a"] : row["x12a"], y = bi == bj ? row["y11a"] : row["y12a"];
                    exact(3 * bi + a, 3 * bj + b) = x * e[a] * e[b] + y * ((a == b ? 1.0 : 0.0) - e[a] * e[b]);
                }
    double largest = 0.0;
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 6; ++j) {
            double product = i == j ? -1.0 : 0.0;
            for (std::size_t k = 0; k < 6; ++k) product += r(i, k) * exact(k, j);
            largest = std::max(largest, std::fabs(product));
        }
    return {largest, relative_asymmetry(r), smallest_eigenvalue(r)};
}

TEST(TwoBodyLubricationOperator, CorrectedPairResistanceIsSymmetricPositiveDefiniteAndTheExactInverse) {
    // Every row of the oracle's table (2.0001 <= r/a <= 20), a pair along a generic direction. The
    // corrected resistance R = M_RP^-1 + zeta is symmetric (zeta is, exactly; the dense inverse to
    // rounding) and positive definite: its smallest eigenvalue is the smallest exact mode resistance
    // 1/max(x11a +- x12a, y11a +- y12a). Up to the taper's start (r = 5a) R M_exact = I: in the mode
    // basis R M_exact - I is diagonal with entries R_k m_k - 1, the table's interpolation (<= 1.6e-13)
    // plus the table's own relative error of m_k, and an entry in the Cartesian basis is a combination
    // of them with weights of size <= 1: bound the sum of the four modes' table errors + 1e-12 (the
    // dense inverse's rounding, kappa(M_RP) <= 5, 1e-15). Beyond 5a R differs from the exact inverse by
    // the faded correction, <= largest_far_field_error of each mode resistance. With the paper's model
    // R misses M_exact^-1 by > 1e-2 at every row closer than r = 3a (the amounts).
    for (const two_sphere_row& row : read_two_sphere_table()) {
        SCOPED_TRACE("r/a = " + std::to_string(row.distance()));
        const corrected_pair_resistance c = corrected_against_oracle(row, lubrication_model::two_body);
        const double x11 = row["x11a"], x12 = row["x12a"], y11 = row["y11a"], y12 = row["y12a"];
        const double x_err = row["x11a_err"] + row["x12a_err"], y_err = row["y11a_err"] + row["y12a_err"];
        const double table_error =
            x_err / (x11 + x12) + x_err / (x11 - x12) + y_err / (y11 + y12) + y_err / (y11 - y12);
        const double smallest_mode = 1.0 / std::max({x11 + x12, x11 - x12, y11 + y12, y11 - y12});
        EXPECT_LE(c.asymmetry, 1e-14);
        EXPECT_GT(c.smallest_eigenvalue, 0.0);
        if (row.distance() <= two_body_table::taper_start) {
            EXPECT_LE(c.inverse_error, table_error + 1e-12);
            EXPECT_NEAR(c.smallest_eigenvalue / smallest_mode, 1.0, table_error + 1e-12);
        } else {
            EXPECT_LE(c.inverse_error, 4 * two_body_table::largest_far_field_error);
            EXPECT_NEAR(c.smallest_eigenvalue / smallest_mode, 1.0, two_body_table::largest_far_field_error);
        }
        if (row.distance() < 3.0)
            EXPECT_GT(corrected_against_oracle(row, lubrication_model::paper).inverse_error, 1e-2);
    }
}

TEST(TwoBodyLubricationOperator, ClusterOperatorIsSymmetricPositiveSemiDefinite) {
    // Twelve spheres with many pairs within the cutoff 5.5a: zeta, a sum of pair terms each >= 0, is >= 0,
    // so mu^-1 + zeta is positive definite wherever mu is (the solver's requirement).
    system_parameters system;
    system.lubrication.enabled = true;
    system.lubrication.model = lubrication_model::two_body;
    const initial_state s = lubricated_cluster();
    const dense_matrix z = lubrication_matrix(s.positions, system);
    double largest = 0.0;
    for (double v : z.values) largest = std::max(largest, std::fabs(v));
    EXPECT_LE(relative_asymmetry(z), 1e-14);
    EXPECT_GE(smallest_eigenvalue(z), -1e-13 * largest);
    EXPECT_GT(largest, 10.0);  // s = 0.004: 1/(2s) ~ 125
}

TEST(TwoBodyLubricationSettings, TheExplicitSchemeAndOtherTensorsAreRefusedInOneLine) {
    const std::string head =
        "[scenario]\nname = \"t\"\n[box]\nboundary = \"open\"\n[particles]\npositions = [[0, 0, 0], [2.5, 0, 0]]\n"
        "force = [0, 0, -1]\n[run]\ndt = 0.01\ntime = 0.1\n";
    auto error = [&](const std::string& physics) {
        try {
            parse_scenario(head + physics, "t.toml", "");
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string explicit_error =
        error("[physics.lubrication]\nenabled = true\nmodel = \"two-body\"\n");  // scheme defaults to explicit
    EXPECT_NE(explicit_error.find("physics.lubrication.model"), std::string::npos) << explicit_error;
    EXPECT_NE(explicit_error.find("scheme = \"implicit\""), std::string::npos) << explicit_error;
    EXPECT_EQ(explicit_error.find('\n'), std::string::npos) << explicit_error;
    const std::string tensor_error = error(
        "[physics]\ntensor = \"oseen\"\n[physics.lubrication]\nenabled = true\nmodel = \"two-body\"\n"
        "scheme = \"implicit\"\n");
    EXPECT_NE(tensor_error.find("oseen"), std::string::npos) << tensor_error;
    const std::string unknown = error("[physics.lubrication]\nenabled = true\nmodel = \"exact\"\n");
    EXPECT_NE(unknown.find("two-body"), std::string::npos) << unknown;
    EXPECT_EQ(error("[physics.lubrication]\nenabled = true\nmodel = \"two-body\"\nscheme = \"implicit\"\n"), "");
    // The resolved configuration names the model that ran, the default (the paper's) too.
    const scenario paper = parse_scenario(head + "[physics.lubrication]\nenabled = true\n", "t.toml", "");
    EXPECT_EQ(paper.system.lubrication.model, lubrication_model::paper);
    EXPECT_NE(resolved_configuration(paper).find("model = \"paper\""), std::string::npos);
    const scenario two_body = parse_scenario(
        head + "[physics.lubrication]\nenabled = true\nmodel = \"two-body\"\nscheme = \"implicit\"\n", "t.toml", "");
    EXPECT_NE(resolved_configuration(two_body).find("model = \"two-body\""), std::string::npos);
    // An engine built without the reader refuses too.
    engine_config c = two_body_config();
    c.system.lubrication.scheme = lubrication_scheme::explicit_update;
    initial_state pair;
    pair.positions = {{0, 0, 0}, {2.5, 0, 0}};
    pair.external_forces = {{0, 0, -1}, {0, 0, -1}};
    EXPECT_THROW(make_engine(c, pair), std::invalid_argument);
}

TEST(TwoBodyLubricationEngine, SizeGuardCountsTheNeighboursWithinTheModelsRange) {
    // The memory estimate (run/run_size.cpp) assumes a number of neighbour-list entries per particle;
    // the two-body model lists every pair within 5.5a, not 3a. A close-packed (fcc) suspension has K(r)
    // neighbours within r (counted here on the lattice, nearest distance 2a): the two-body estimate
    // must hold at least K(5.5a) - K(3a) entries more than the paper's, which stays as it was (the
    // same as without lubrication). Fails if the estimate ignores the model (no difference).
    auto close_packed_neighbours = [](double range) {
        int count = 0;
        const double d = std::sqrt(2.0);  // fcc: points (i, j, k) sqrt(2) a with i + j + k even
        for (int i = -5; i <= 5; ++i)
            for (int j = -5; j <= 5; ++j)
                for (int k = -5; k <= 5; ++k) {
                    const double r2 = d * d * double(i * i + j * j + k * k);
                    if ((i + j + k) % 2 == 0 && r2 > 0.0 && r2 < range * range) ++count;
                }
        return count;
    };
    ASSERT_EQ(close_packed_neighbours(2.01), 12);  // the lattice is the close packing
    initial_state state;
    for (int k = 0; k < 1000; ++k) state.positions.push_back({3.0 * k, 0, 0}), state.external_forces.push_back({});
    engine_config c = two_body_config();
    const double two_body = estimate_run_size(c, state).bytes;
    c.system.lubrication.model = lubrication_model::paper;
    const double paper = estimate_run_size(c, state).bytes;
    c.system.lubrication.enabled = false;
    EXPECT_EQ(paper, estimate_run_size(c, state).bytes);
    const double more_entries = (two_body - paper) / 1000.0 / 4.0;  // 4 bytes an entry
    EXPECT_GE(more_entries, double(close_packed_neighbours(5.5) - close_packed_neighbours(3.0)))
        << close_packed_neighbours(5.5) << " within 5.5a, " << close_packed_neighbours(3.0) << " within 3a";
}
