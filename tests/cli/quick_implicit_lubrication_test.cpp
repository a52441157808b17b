// The implicit lubrication scheme end to end (engine/docs/lubrication.md): in
// scenarios/approaching_pairs_implicit.toml the gap of the head-on pair follows the lubrication
// law from s = 0.5 to below 1e-4 without overlap, while the paper's explicit scheme at the same dt
// (case `explicit`) bounces above the critical gap; the two-body model's cases follow the exact
// two-sphere law; `stokesian run` records the solver's iterations and `stokesian analyze` shows them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "stokesian/core/scenario.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/observables/pair_approach.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/implicit_lubrication_checks.hpp"

using namespace stokesian;
using namespace stokesian::testing_support;
namespace fs = std::filesystem;

namespace {

const fs::path scenario_file =
    fs::path(::stokesian::test_support::project_source_dir) / "scenarios" / "approaching_pairs_implicit.toml";

pair_track track(const std::string& case_name, std::uint64_t* steps_out = nullptr) {
    const scenario s = load_scenario(scenario_file, case_name);
    engine_config c = make_engine_config(s);
    c.threads = 1;
    if (steps_out) *steps_out = s.run.total_steps();
    return track_pair(c, s.particles, s.run.total_steps());
}

// The oblique pair of case `case_name` (either model): the checks below hold for both, since both
// models' pair resistance, like T, is alpha I + beta ee on the velocity difference. With the
// two-body model (`rolls_past`) the pair does not keep closing: the relative rotation the paper's
// model all but locks near contact (its shear resistance diverges) is finite for real spheres, the
// line of centres turns past the normal of the force difference and the spheres separate again.
// w = m D/(1 + 2 m zeta) has the sign of D = e . (F_0 - F_1) (m > 0, zeta >= 0): the gap closes while
// D < 0 and opens after, one sign change.
void expect_oblique_pair_closes(const std::string& case_name, bool rolls_past = false) {
    // Forces (1, 0, 0.5) and -(1, 0, 0.5): squeeze and shear. The line of centres turns towards the
    // force difference while the gap closes; the solve excites the squeeze and one shear mode, so at
    // most 3 distinct eigenvalues (<= 3 iterations, support header). No overlap, monotone approach.
    const scenario s = load_scenario(scenario_file, case_name);
    const pair_track t = track(case_name);
    std::size_t sign_changes = 0;
    for (std::size_t k = 0; k < t.gap.size(); ++k) {
        ASSERT_GT(t.gap[k], 0.0) << "t = " << t.time[k];
        if (rolls_past) {
            const vec3<double> e = t.position0[k] - t.position1[k];
            const double driving = dot(e, s.particles.external_forces[0] - s.particles.external_forces[1]);
            ASSERT_EQ(t.speed[k] < 0.0, driving < 0.0) << "t = " << t.time[k];
            if (k > 0 && (t.speed[k] < 0.0) != (t.speed[k - 1] < 0.0)) ++sign_changes;
        } else {
            ASSERT_LT(t.speed[k], 0.0) << "t = " << t.time[k];
        }
        EXPECT_LE(t.iterations[k], 3u);
        EXPECT_LE(t.residual[k], lubrication_tolerance(s.run.precision));
        // The line-of-centres speed is the law's (the transverse motion decouples: T and zeta are both
        // alpha I + beta ee). Solver: the residual's relative component along e is <= sqrt(2) rho ||F||
        // with ||F|| = sqrt(2) |F_0| = 1.58, against |D| >= 2 (e turns towards F_0 - F_1 and |D| grows
        // from 2 to 2 |F_0|): <= 1.12 rho, 2 rho used. Rounding as for head-on (64u), but of the
        // whole relative velocity, which the projection onto e shrinks to w: 64u |v_0 - v_1| / |w|
        // (near contact the shear motion is 10-100 times the squeeze speed).
        EXPECT_NEAR(t.speed[k] / t.predicted_speed[k], 1.0,
                    t.residual[k] * 2 + 64 * std::ldexp(1.0, -53) * t.relative_speed[k] / std::fabs(t.speed[k]))
            << "t = " << t.time[k];
    }
    if (rolls_past) {
        EXPECT_EQ(sign_changes, 1u);
        EXPECT_GT(t.speed.back(), 0.0);
    }
    std::printf("[ %s ] final gap %.4g at t = %.4g, smallest %.4g\n", case_name.c_str(), t.gap.back(), t.time.back(),
                *std::min_element(t.gap.begin(), t.gap.end()));
}

}  // namespace

TEST(ImplicitLubricationRun, HeadOnGapFollowsTheLubricationLawBelow1e4WithoutOverlap) {
    const scenario s = load_scenario(scenario_file, "head_on");
    ASSERT_TRUE(s.system.lubrication.implicit());
    ASSERT_EQ(s.run.precision.hi, precision::f64);
    const pair_track t = track("head_on");
    expect_head_on_follows_the_law(t, s.system, s.run.dt, lubrication_tolerance(s.run.precision), std::ldexp(1.0, -53));
}

TEST(ImplicitLubricationRun, ExplicitSchemeAtTheSameTimeStepBouncesBelowTheCriticalGap) {
    // The same pair, dt and run with the paper's scheme. It tracks the law while 2 m zeta < 1 (s >
    // s_c = 0.282, engine/docs/observables.md); below, the error is multiplied by g = -2 m zeta < -1
    // every step: the separation speed changes sign (first below s_c, never above), and the pair
    // never gets anywhere near the 1e-4 of the implicit run.
    const scenario s = load_scenario(scenario_file, "explicit");
    ASSERT_FALSE(s.system.lubrication.implicit());
    const double critical = explicit_lubrication_critical_gap(s.system);
    const pair_track t = track("explicit");
    std::size_t first_sign_change = 0, sign_changes = 0;
    double minimum = INFINITY;
    for (std::size_t k = 0; k < t.gap.size(); ++k) {
        minimum = std::min(minimum, t.gap[k]);
        if (k > 0 && (t.speed[k] > 0) != (t.speed[k - 1] > 0)) {
            ++sign_changes;
            if (first_sign_change == 0) first_sign_change = k;
        }
    }
    ASSERT_GT(first_sign_change, 0u) << "the explicit scheme should oscillate below s_c";
    EXPECT_LT(t.gap[first_sign_change], critical);
    EXPECT_GT(sign_changes, 10u);
    // Above s_c the explicit run is the law (within the drift lag of the fixed point: the observables
    // test derives 2.3e-3 per step for the rate); below, no approach towards contact.
    EXPECT_GT(minimum, 1e-2);
    std::printf(
        "[ explicit ] first sign change of w at t = %.4g (s = %.4g < s_c = %.10f); %zu sign changes; "
        "minimum gap %.4g\n",
        t.time[first_sign_change], t.gap[first_sign_change], critical, sign_changes, minimum);
}

TEST(ImplicitLubricationRun, ObliquePairClosesWithoutOverlapAndBoundedIterations) {
    expect_oblique_pair_closes("oblique");
}

TEST(ImplicitLubricationRun, TwoBodyHeadOnFollowsTheExactTwoSphereLawBelow1e4WithoutOverlap) {
    // Case two_body_head_on: the same checks as the paper's model's head-on run, against the two-body
    // law w = -2F/R_exact(s) (predict_pair_approach with the model: R_far + zeta of the difference mode
    // along the line, the exact two-sphere resistance checked against the oracle's table by
    // TwoBodyLubrication.*). The fitted rate's window holds: for the exact law 4 - lambda <= 4 (0.9 s
    // ln(1/s) + 2.69 s) = 0.036 on [1e-4, 1e-3], inside the paper law's 0.046. The exact pair is less
    // resisted than the paper's model says (which counts the far field's squeeze resistance twice):
    // it reaches s = 1e-4 earlier.
    const scenario s = load_scenario(scenario_file, "two_body_head_on");
    ASSERT_EQ(s.system.lubrication.model, lubrication_model::two_body);
    const pair_track t = track("two_body_head_on");
    expect_head_on_follows_the_law(t, s.system, s.run.dt, lubrication_tolerance(s.run.precision), std::ldexp(1.0, -53));
    const pair_track paper = track("head_on");
    auto first_below = [](const pair_track& p, double gap) -> double {
        for (std::size_t k = 0; k < p.gap.size(); ++k)
            if (p.gap[k] < gap) return p.time[k];
        return INFINITY;
    };
    EXPECT_LT(first_below(t, 1e-4), first_below(paper, 1e-4) - 0.1);
    std::printf("[ two-body ] s < 1e-4 from t = %.4g (the paper's model: %.4g)\n", first_below(t, 1e-4),
                first_below(paper, 1e-4));
}

TEST(ImplicitLubricationRun, TwoBodyObliquePairRollsPastWithoutOverlapAndBoundedIterations) {
    const scenario s = load_scenario(scenario_file, "two_body_oblique");
    ASSERT_EQ(s.system.lubrication.model, lubrication_model::two_body);
    expect_oblique_pair_closes("two_body_oblique", true);
}

TEST(ImplicitLubricationRun, RunRecordsSolverIterationsAndAnalyzeShowsThem) {
    const fs::path dir = fs::temp_directory_path() / ("stokesian_implicit_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path out = dir / "pair.h5";
    {
        test_support::cli_process run({"run", scenario_file.string(), "--time", "0.5", "--output", out.string(),
                                       "--force", "--threads", "1", "--json"},
                                      dir);
        const test_support::cli_outcome o = run.wait();
        ASSERT_EQ(o.exit_code, 0) << o.err;
        EXPECT_NE(o.out.find("\"lubrication_solver_mean_iterations\""), std::string::npos) << o.out;
    }
    {
        // The text summary names the solve too.
        test_support::cli_process run({"run", scenario_file.string(), "--time", "0.1", "--output",
                                       (dir / "text.h5").string(), "--force", "--threads", "1"},
                                      dir);
        const test_support::cli_outcome o = run.wait();
        ASSERT_EQ(o.exit_code, 0) << o.err;
        EXPECT_NE(o.out.find("lubrication solve: 1 conjugate-gradient iterations per sampled solve"), std::string::npos)
            << o.out;
    }
    const io::h5md_file file(out);
    const double mean = file.read_doubles("/analysis/lubrication_solver/mean_iterations").at(0);
    const double most = file.read_doubles("/analysis/lubrication_solver/most_iterations").at(0);
    // Head-on: one mode excited, one iteration per solve (at most 3, support header).
    EXPECT_GE(mean, 1.0);
    EXPECT_LE(most, 3.0);
    EXPECT_EQ(file.read_doubles("/analysis/lubrication_solver/solved_samples").at(0), 51.0);  // t = 0, 0.01, ..., 0.5
    EXPECT_EQ(file.read_doubles("/observables/lubrication_solver_iterations/value").size(), 51u);
    EXPECT_LE(file.read_doubles("/analysis/lubrication_solver/largest_relative_residual").at(0), 1.05e-8);
    {
        test_support::cli_process analyze({"analyze", out.string()}, dir);
        const test_support::cli_outcome o = analyze.wait();
        ASSERT_EQ(o.exit_code, 0) << o.err;
        EXPECT_NE(o.out.find("lubrication: implicit"), std::string::npos) << o.out;
        EXPECT_NE(o.out.find("CG iterations per solve, mean"), std::string::npos) << o.out;
    }
    {
        test_support::cli_process analyze({"analyze", out.string(), "--json"}, dir);
        const test_support::cli_outcome o = analyze.wait();
        ASSERT_EQ(o.exit_code, 0) << o.err;
        EXPECT_NE(o.out.find("\"lubrication_scheme\":\"implicit\""), std::string::npos) << o.out;
        EXPECT_NE(o.out.find("\"lubrication_solver_most_iterations\":"), std::string::npos) << o.out;
        EXPECT_NE(o.out.find("\"lubrication_solves\":501"), std::string::npos) << o.out;  // construction + 500 steps
    }
    fs::remove_all(dir);
}
