// The two-body lubrication model against exact two-sphere hydrodynamics (engine/docs/lubrication.md,
// "The two-body model"; the oracle: tools/two_sphere_oracle, engine/docs/two-sphere-oracle.md): an
// isolated pair on the CPU moves as the oracle's table says and the paper's model does not; the
// drag factor at contact; the approach law; continuity across the cutoff and the table's joins.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/physics/two_body_lubrication.hpp"
#include "support/two_sphere_table.hpp"

using namespace stokesian;
using namespace stokesian::testing_support;

namespace {

// Signed relative errors v_engine / v_exact - 1 of the four functions and the four modes.
struct function_errors {
    double value[8];
    double largest() const {
        double e = 0.0;
        for (double x : value) e = std::max(e, std::fabs(x));
        return e;
    }
    double largest_mode() const {
        return std::max({std::fabs(value[4]), std::fabs(value[5]), std::fabs(value[6]), std::fabs(value[7])});
    }
};
constexpr const char* function_names[8] = {"x11a",      "x12a",      "y11a",      "y12a",
                                           "x11a+x12a", "x11a-x12a", "y11a+y12a", "y11a-y12a"};

function_errors errors_against(const pair_mobility_modes& m, const two_sphere_row& row) {
    const double x11 = row["x11a"], x12 = row["x12a"], y11 = row["y11a"], y12 = row["y12a"];
    return {{m.x11a() / x11 - 1, m.x12a() / x12 - 1, m.y11a() / y11 - 1, m.y12a() / y12 - 1, m.x_sum / (x11 + x12) - 1,
             m.x_difference / (x11 - x12) - 1, m.y_sum / (y11 + y12) - 1, m.y_difference / (y11 - y12) - 1}};
}

// The table's own relative error of each of the eight quantities (absolute errors added for a mode).
function_errors table_errors(const two_sphere_row& row) {
    auto e = [&](const char* name) { return row[std::string(name) + "_err"]; };
    const double x11 = row["x11a"], x12 = row["x12a"], y11 = row["y11a"], y12 = row["y12a"];
    const double x_err = e("x11a") + e("x12a"), y_err = e("y11a") + e("y12a");
    return {{e("x11a") / x11, e("x12a") / x12, e("y11a") / y11, e("y12a") / y12, x_err / (x11 + x12),
             x_err / (x11 - x12), y_err / (y11 + y12), y_err / (y11 - y12)}};
}

const char* gap_range(double gap) {
    if (gap < 1e-3) return "1e-4 <= s < 1e-3";
    if (gap < 1e-2) return "1e-3 <= s < 1e-2";
    if (gap < 0.1) return "1e-2 <= s < 0.1";
    if (gap < 1.0) return "0.1 <= s < 1";
    if (gap + 2.0 <= two_body_table::taper_start) return "1 <= s <= 3";
    if (gap + 2.0 < two_body_table::taper_end) return "5 < r/a < 5.5 (taper)";
    return "r/a >= 5.5 (far field)";
}

}  // namespace

TEST(TwoBodyLubrication, IsolatedPairMatchesTheExactTwoSphereTable) {
    // Every row of the oracle's table (2.0001 <= r/a <= 20), the four load cases of the pair, CPU,
    // f64. Up to the taper's start r = 5a the model is exact by construction; what remains is the
    // table's interpolation (<= 1.6e-13, tools/two_body_table/generate.py), the conjugate-gradient
    // solve (one mode per load case: one iteration, to rounding) and the rounding of the velocities
    // and of the oracle's 20 digits: the assertion is the issue's 1e-6, widened by the table's own
    // truncation error where that is larger (near contact the Y functions carry up to 6e-5). Beyond
    // r = 5a the correction fades: R_far + w zeta differs from R_exact by (1 - w) zeta <= zeta, and
    // the generator bounds |zeta| / R_far there (largest_far_field_error = 8.4e-3), so each mode's
    // velocity is within that of the exact one; from r = 5.5a on the pair moves as Rotne-Prager says.
    const auto rows = read_two_sphere_table();
    const engine_config c = isolated_pair_config(lubrication_model::two_body);
    std::string last_range;
    double range_worst = 0.0;
    auto report = [&](const std::string& range) {
        if (!last_range.empty() && range != last_range)
            std::printf("[ two-body vs oracle ] %-24s largest relative error %.2e\n", last_range.c_str(), range_worst),
                range_worst = 0.0;
        last_range = range;
    };
    for (const two_sphere_row& row : rows) {
        SCOPED_TRACE("r/a = " + std::to_string(row.distance()));
        const function_errors e = errors_against(measure_pair_modes(c, row.distance()), row);
        const function_errors table = table_errors(row);
        report(gap_range(row.gap()));
        if (row.distance() <= two_body_table::taper_start) {
            for (int k = 0; k < 8; ++k)
                EXPECT_LE(std::fabs(e.value[k]), std::max(1e-6, table.value[k])) << function_names[k];
            range_worst = std::max(range_worst, e.largest());
        } else {
            EXPECT_LE(e.largest_mode(), two_body_table::largest_far_field_error);
            range_worst = std::max(range_worst, e.largest_mode());
        }
        if (row.distance() >= two_body_table::taper_end) {
            const double s = row.distance(), t_x = 1.5 / s - 1.0 / (s * s * s);
            const pair_mobility_modes m = measure_pair_modes(c, s);
            EXPECT_NEAR(m.x_sum, 1.0 + t_x, 4e-16);
            EXPECT_NEAR(m.x_difference, 1.0 - t_x, 4e-16);
        }
    }
    report("");
}

TEST(TwoBodyLubrication, ThePapersModelMissesTheTableByTheIssuesAmounts) {
    // The same measurement with the paper's model (implicit scheme, so that only the model differs)
    // fails the criterion above by orders of magnitude, by the amounts issue #30 lists (signed
    // v / v_exact - 1): the sum modes uncorrected (+4.8 % along the line at s = 1e-3, +2.2 % at r = 3a),
    // the squeeze mode counted twice (-13.6 % at s = 0.1), the shear mode locked (-47.5 % at 1e-3)
    // and a jump at r = 3a.
    const auto rows = read_two_sphere_table();
    const engine_config c = isolated_pair_config(lubrication_model::paper);
    auto at = [&](double distance) {
        for (const two_sphere_row& row : rows)
            if (row.distance() == distance) return errors_against(measure_pair_modes(c, distance), row);
        ADD_FAILURE() << "no row at r/a = " << distance;
        return function_errors{};
    };
    const function_errors near = at(2.001), tenth = at(2.1), three = at(3.0);
    EXPECT_NEAR(near.value[4], 0.048, 0.001);     // x11a + x12a, equal forces along the line
    EXPECT_NEAR(near.value[5], -0.0026, 0.0002);  // x11a - x12a, squeeze
    EXPECT_NEAR(near.value[7], -0.475, 0.002);    // y11a - y12a, shear
    EXPECT_NEAR(tenth.value[5], -0.136, 0.002);
    EXPECT_NEAR(three.value[4], 0.0216, 0.0005);
    // The squeeze mode across r = 3a: 0.4233 just inside (the correction at s -> 1) against 0.5371
    // outside (none), exact 0.4905.
    const double inside = measure_pair_modes(c, 3.0 - 1e-9).x_difference;
    const double outside = measure_pair_modes(c, 3.0).x_difference;
    EXPECT_NEAR(inside, 0.4233, 1e-4);
    EXPECT_NEAR(outside, 0.5371, 1e-4);
    const two_body_modes<double> exact = exact_pair_resistance(1.0);
    EXPECT_NEAR(1.0 / exact.x_difference, 0.4905, 1e-4);
    for (const function_errors* e : {&near, &tenth, &three}) EXPECT_GT(e->largest(), 1e4 * 1e-6);
}

TEST(TwoBodyLubrication, DragFactorOfTwoSpheresFallingAlongTheirLineAtContact) {
    // Stimson & Jeffery at r = 2.001a: lambda = 0.6451995, U = 1.5499081 mu0 F for equal forces F along
    // the line of centres (issue #30; the oracle's bispherical sum: 0.6451995391). The table is exact
    // here to 1e-13, so the engine must give all printed digits.
    const engine_config c = isolated_pair_config(lubrication_model::two_body);
    const pair_mobility_modes m = measure_pair_modes(c, 2.001);
    EXPECT_NEAR(m.x_sum, 1.5499081, 5e-8);
    EXPECT_NEAR(1.0 / m.x_sum, 0.6451995, 5e-8);
    std::printf("[ drag factor ] r = 2.001a: U = %.9f mu0 F, lambda = %.9f\n", m.x_sum, 1.0 / m.x_sum);
    // The paper's model: the sum mode is the bare Rotne-Prager one, 1 + t_x = 1.6245, 4.8 % too fast.
    const pair_mobility_modes paper = measure_pair_modes(isolated_pair_config(lubrication_model::paper), 2.001);
    EXPECT_GT(paper.x_sum, 1.6);
}

TEST(TwoBodyLubrication, SpheresPushedTogetherCloseAtTheExactRateNearContact) {
    // Opposite forces F along the line: the gap closes at w = -2 F (x11a - x12a) = -2F / lambda_app with
    // Brenner's lambda_app = 1/(2s) + (9/20) ln(1/s) + A + (3/56) s ln(1/s) + O(s), A = X11A - X12A's
    // constant 0.9953608126 + 0.3502193871 (Jeffrey & Onishi 1984; the oracle's digits,
    // engine/docs/two-sphere-oracle.md), so w / s -> -4 mu0 F with the relative correction
    // -2s((9/20) ln(1/s) + A + ...). Below s = 1e-4 the engine uses the near-contact forms joined to
    // the table, so this checks that join against the published expansion: the O(s) terms omitted
    // here are < 0.2 s^2 relative (the generator's c1 = 0.19), the gap's rounding 2u(2 + s)/s, and the
    // solve one iteration to rounding; 2e-9 covers all at s >= 1e-7.
    engine_config c = isolated_pair_config(lubrication_model::two_body);
    c.system.lubrication.min_gap = 1e-9;
    const double a_constant = 0.9953608126 + 0.3502193871;
    for (const double nominal : {1e-6, 3e-6, 1e-5, 3e-5}) {
        SCOPED_TRACE("s = " + std::to_string(nominal));
        const double s = (2.0 + nominal) - 2.0;
        const pair_mobility_modes m = measure_pair_modes(c, 2.0 + nominal);
        const double closing = -2.0 * m.x_difference;  // w for F = 1
        const double log_inverse = std::log(1.0 / s);
        const double law =
            -4.0 * s / (1.0 + 2.0 * s * (0.45 * log_inverse + a_constant + 3.0 / 56.0 * s * log_inverse));
        EXPECT_NEAR(closing / law, 1.0, 2e-9);
        EXPECT_NEAR(closing / s, -4.0, 4.0 * 2.0 * s * (0.45 * log_inverse + a_constant) * 1.01);
    }
    // The paper's model has the same leading term (1/(4s) per sphere) but counts the far field's
    // share twice: its squeeze resistance is 1/(1 - t_x) + 1/(2s) + (9/20) ln(1/s), A = 8/3 instead of
    // 1.3456, off the law by 2 s (8/3 - 1.3456) = 2.6 s relative (the issue's -0.26 % at s = 1e-3):
    // 100 times the tolerance above at every gap checked.
    const engine_config paper = isolated_pair_config(lubrication_model::paper);
    for (const double nominal : {1e-6, 3e-6, 1e-5, 3e-5}) {
        const double s = (2.0 + nominal) - 2.0, log_inverse = std::log(1.0 / s);
        const double closing = -2.0 * measure_pair_modes(paper, 2.0 + nominal).x_difference;
        const double law =
            -4.0 * s / (1.0 + 2.0 * s * (0.45 * log_inverse + a_constant + 3.0 / 56.0 * s * log_inverse));
        EXPECT_GT(std::fabs(closing / law - 1.0), 100 * 2e-9) << "s = " << nominal;
    }
}

TEST(TwoBodyLubrication, CorrectionIsContinuousAcrossTheCutoffAndTheTablesJoins) {
    // The correction w (R_exact - R_far) goes to zero at taper_end with its slope (w = 1 - 3x^2 + 2x^3),
    // and the exact resistance is continuous where its representation changes: at the near-contact
    // join (xi = 1e-4, value and slope matched by the generator) and at every segment boundary of
    // the table (Chebyshev-Lobatto nodes at both ends: the same oracle value on both sides).
    const double end = two_body_table::taper_end, start = two_body_table::taper_start;
    for (const double delta : {1e-3, 1e-6}) {
        const two_body_modes<double> z = two_body_correction(end - delta, 1e-6);
        // |zeta| <= 3 x^2 zeta(start)-ish with x = delta / 0.5 and zeta <= 1e-2 R_far < 0.05.
        for (const double v : {z.x_sum, z.x_difference, z.y_sum, z.y_difference}) {
            EXPECT_GE(v, 0.0);
            EXPECT_LE(v, 0.05 * 3.0 * (delta / (end - start)) * (delta / (end - start)));
        }
    }
    const two_body_modes<double> beyond = two_body_correction(end, 1e-6);
    EXPECT_EQ(beyond.x_sum, 0.0);
    EXPECT_EQ(beyond.x_difference, 0.0);
    EXPECT_EQ(two_body_taper(start), 1.0);
    EXPECT_NEAR(two_body_taper(start + 1e-9), 1.0, 1e-15);
    // Through the engine: just inside the cutoff the pair moves as Rotne-Prager says, to the size of
    // the faded correction (3 (2e-7)^2 of 1e-2: 1e-15) and rounding, as it does outside.
    const engine_config c = isolated_pair_config(lubrication_model::two_body);
    for (const double distance : {end - 1e-7, end}) {
        const pair_mobility_modes m = measure_pair_modes(c, distance);
        const double t_x = 1.5 / distance - 1.0 / (distance * distance * distance);
        const double t_y = 0.75 / distance + 0.5 / (distance * distance * distance);
        EXPECT_NEAR(m.x_difference, 1.0 - t_x, 4e-15);
        EXPECT_NEAR(m.x_sum, 1.0 + t_x, 4e-15);
        EXPECT_NEAR(m.y_difference, 1.0 - t_y, 4e-15);
        EXPECT_NEAR(m.y_sum, 1.0 + t_y, 4e-15);
    }
    // The joins of the exact resistance, relative, between xi (1 -+ 1e-12).
    auto jump = [](double xi) {
        const two_body_modes<double> below = exact_pair_resistance(xi * (1 - 1e-12));
        const two_body_modes<double> above = exact_pair_resistance(xi * (1 + 1e-12));
        return std::max(
            {std::fabs(below.x_sum / above.x_sum - 1), std::fabs(below.x_difference / above.x_difference - 1),
             std::fabs(below.y_sum / above.y_sum - 1), std::fabs(below.y_difference / above.y_difference - 1)});
    };
    EXPECT_LT(jump(two_body_table::contact_gap), 1e-11);
    for (int k = 1; k < two_body_table::segments; ++k)
        EXPECT_LT(jump(std::exp(two_body_table::first_log_gap + k / two_body_table::inverse_segment_width)), 1e-11)
            << k;
    // Failable: without the shift c0 the near-contact x_difference would jump by 2.7e-4 at 1e-4, the
    // y modes by 1e-7; a segment off by one by O(1).
}

// STOKESIAN_UPDATE_DOCS=1 rewrites the committed file instead of failing.
TEST(TwoBodyLubrication, ComparisonDataIsTheEnginesOwn) {
    // reference_data/two_sphere/engine_isolated_pair.csv holds the engine's isolated-pair mobility
    // modes with both models at every row of the oracle's table; tools/two_body_table/comparison.py
    // makes engine/docs/lubrication.md's comparison tables from it and the oracle's table (CTest
    // TwoBodyComparison.LubricationDocTablesAreGenerated). Here the engine recomputes every value:
    // the file must be what the engine gives, to 1e-12 relative (a change of either model moves
    // the values by far more; an ulp of the C library's log in the paper's model by far less).
    const std::string path = test_support::checkout_file("reference_data/two_sphere/engine_isolated_pair.csv");
    std::ostringstream text;
    text << "# The engine's velocities of an isolated pair at the rows of exact_two_sphere.csv (CPU, hi=f64,int=f64, "
            "implicit scheme): the torque-free mobility modes x11a +- x12a, y11a +- y12a in units mu0, with the "
            "paper's and the two-body lubrication model.\n"
            "# Written by TwoBodyLubrication.ComparisonDataIsTheEnginesOwn "
            "(tests/physics/two_body_lubrication_test.cpp) "
            "with STOKESIAN_UPDATE_DOCS=1; read by tools/two_body_table/comparison.py.\n"
            "r_over_a,paper_x_sum,paper_x_difference,paper_y_sum,paper_y_difference,"
            "two_body_x_sum,two_body_x_difference,two_body_y_sum,two_body_y_difference\n";
    std::vector<std::vector<double>> computed;
    for (const two_sphere_row& row : read_two_sphere_table()) {
        std::vector<double> values{row.distance()};
        for (const lubrication_model model : {lubrication_model::paper, lubrication_model::two_body}) {
            const pair_mobility_modes m = measure_pair_modes(isolated_pair_config(model), row.distance());
            values.insert(values.end(), {m.x_sum, m.x_difference, m.y_sum, m.y_difference});
        }
        char line[512];
        int used = 0;
        for (std::size_t k = 0; k < values.size(); ++k)
            used += std::snprintf(line + used, sizeof line - std::size_t(used), "%s%.17g", k ? "," : "", values[k]);
        text << line << "\n";
        computed.push_back(values);
    }
    if (std::getenv("STOKESIAN_UPDATE_DOCS") != nullptr) std::ofstream(path) << text.str();
    std::ifstream in(path);
    ASSERT_TRUE(in.good()) << path << ": run with STOKESIAN_UPDATE_DOCS=1 to write it";
    std::vector<std::vector<double>> committed;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line[0] == 'r') continue;
        std::vector<double> values;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) values.push_back(std::stod(cell));
        committed.push_back(values);
    }
    ASSERT_EQ(committed.size(), computed.size()) << path << ": run with STOKESIAN_UPDATE_DOCS=1 to rewrite it";
    for (std::size_t r = 0; r < computed.size(); ++r) {
        ASSERT_EQ(committed[r].size(), computed[r].size()) << "row " << r;
        EXPECT_EQ(committed[r][0], computed[r][0]) << "row " << r;
        for (std::size_t k = 1; k < computed[r].size(); ++k)
            EXPECT_NEAR(committed[r][k] / computed[r][k], 1.0, 1e-12)
                << path << " row " << r << " column " << k << ": run with STOKESIAN_UPDATE_DOCS=1 to rewrite it";
    }
}
