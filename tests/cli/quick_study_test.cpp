// `stokesian study` end to end (engine/docs/studies.md): short time-step studies of the tetrahedron
// on the CPU recover the integrators' orders of convergence, the study folder is complete, and
// bad input is refused with exit code 2 before anything runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "regression_suite_support.hpp"
#include "stokesian/study/study.hpp"
#include "support/text_checks.hpp"

using stokesian::test_support::plotting_available;

namespace {

namespace fs = std::filesystem;
using namespace stokesian;
using regression_suite::run_cli;

using ::stokesian::test_support::tetrahedron_toml;

fs::path scratch(const std::string& name) {
    const fs::path p = fs::temp_directory_path() / ("stokesian_study_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(p);
    return p;
}

// The settings the CLI builds for `study timestep tetrahedron --dt DTS --integrators ... --time T`.
study::study_settings timestep_settings(const std::vector<double>& dts, const std::vector<integrator_kind>& integrators,
                                        double time) {
    study::study_settings s;
    s.kind = "timestep";
    s.scenario = tetrahedron_toml;
    s.modes = {reference_precision_mode};
    s.dts = dts;
    s.integrators = integrators;
    s.time = time;
    s.backend = "cpu";
    return s;
}

const study::convergence_series& series(const study::study_report& r, integrator_kind k, const std::string& quantity) {
    for (const study::convergence_series& c : r.convergence)
        if (c.integrator == k && c.quantity == quantity) return c;
    throw std::runtime_error("no convergence series for " + std::string(to_string(k)) + " " + quantity);
}

// Tolerance of a fitted order p from dt_max down (engine/docs/studies.md): the next term of the
// error, c dt^p (1 + r dt), moves the fitted log-log slope by at most r dt_max (p+1)/p
// (tests/study/study_convergence_test.cpp), with a factor 2; r is the system's ratio of successive
// error coefficients, 1/r its fastest time scale: Euler's period has c2/c = 2.68/27.93 = 0.096
// per tau_s (engine/docs/tetrahedron.md), so r = 0.1 per tau_s. Plus the fit's own 95% interval
// (the paired differences' noise; NaN with 2 points counts as 0).
double order_tolerance(const study::convergence_series& c, double p) {
    const double r = 0.1, dt_max = c.dts.front();
    return 2.0 * r * dt_max * (p + 1.0) / p + (std::isfinite(c.fit.order_ci95) ? c.fit.order_ci95 : 0.0);
}

// 3000 tau_s: about 5 cycles of T = 517 tau_s, 5 periods per run.
constexpr double study_time = 3000.0;

class TimestepStudy : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        fine_dir_ = new fs::path(scratch("fine"));
        coarse_dir_ = new fs::path(scratch("coarse"));
        // Euler, Heun, AB2 at the paper's time steps, with the figures.
        fine_ = new regression_suite::outcome(
            run_cli({"study", "timestep", tetrahedron_toml, "--dt", "0.04,0.02,0.01,0.005", "--integrators",
                     "euler,heun,ab2", "--time", "3000", "--backend", "cpu", "--output-dir", fine_dir_->string()}));
        // RK4 is converged to rounding (period differences ~1e-11 tau_s) already at dt = 0.04: its
        // order shows at time steps 12x larger.
        coarse_ = new regression_suite::outcome(
            run_cli({"study", "timestep", tetrahedron_toml, "--dt", "0.5,0.25,0.125,0.0625", "--integrators", "rk4",
                     "--time", "3000", "--backend", "cpu", "--output-dir", coarse_dir_->string(), "--no-plots"}));
    }
    static void TearDownTestSuite() {
        fs::remove_all(*fine_dir_);
        fs::remove_all(*coarse_dir_);
        delete fine_;
        delete coarse_;
        delete fine_dir_;
        delete coarse_dir_;
    }
    static inline regression_suite::outcome *fine_ = nullptr, *coarse_ = nullptr;
    static inline fs::path *fine_dir_ = nullptr, *coarse_dir_ = nullptr;
};

TEST_F(TimestepStudy, FolderIsComplete) {
    ASSERT_EQ(fine_->exit_code, 0) << fine_->out << fine_->err;
    const fs::path& d = *fine_dir_;
    for (const char* f : {"manifest.toml", "study.json", "summary.md"}) EXPECT_TRUE(fs::exists(d / f)) << f;
    // 3 integrators x 4 dt, plus the trajectory run.
    std::size_t results = 0;
    for (const auto& e : fs::directory_iterator(d / "runs")) results += e.path().extension() == ".h5" ? 1 : 0;
    EXPECT_EQ(results, 13u);
    for (const char* integrator : {"euler", "heun", "ab2"})
        for (const char* dt : {"0.04", "0.02", "0.01", "0.005"})
            EXPECT_TRUE(fs::exists(d / "runs" / (std::string(integrator) + "_dt" + dt + "_f64-f64.h5")));
    const std::string summary = regression_suite::read_text(d / "summary.md");
    for (const char* heading : {"## Runs", "## Convergence in δt", "## Drift per compute cost"})
        EXPECT_NE(summary.find(heading), std::string::npos) << heading;
    if (!plotting_available()) GTEST_SKIP() << "no /usr/bin/python3 with matplotlib, h5py, numpy: figures not checked";
    for (const char* figure : {"fig3b_trajectory.png", "fig4_period_amplitude_euler_f64-f64.png",
                               "fig5_y1_euler_f64-f64.png", "convergence.png", "drift_per_cost.png"}) {
        EXPECT_TRUE(fs::exists(d / "figures" / figure)) << figure;
        EXPECT_NE(summary.find(std::string("figures/") + figure), std::string::npos) << figure;
    }
}

// Counts with their nouns in the right number (it printed "1 integrators").
TEST_F(TimestepStudy, HeaderCountsRunsModesTimeStepsAndIntegrators) {
    ASSERT_EQ(coarse_->exit_code, 0) << coarse_->out << coarse_->err;
    EXPECT_NE(coarse_->out.find(": 5 runs (1 mode x 4 time steps x 1 integrator + 1 trajectory run)"),
              std::string::npos)
        << coarse_->out;
    EXPECT_NE(fine_->out.find(": 13 runs (1 mode x 4 time steps x 3 integrators + 1 trajectory run)"),
              std::string::npos)
        << fine_->out;
}

TEST_F(TimestepStudy, EulerIsFirstOrderHeunAndAdamsBashforthSecond) {
    ASSERT_EQ(fine_->exit_code, 0) << fine_->out << fine_->err;
    const study::study_report r = study::analyse_study(
        timestep_settings({0.04, 0.02, 0.01, 0.005},
                          {integrator_kind::euler, integrator_kind::heun, integrator_kind::ab2}, study_time),
        *fine_dir_ / "runs");
    for (const auto& [k, p] : std::vector<std::pair<integrator_kind, double>>{
             {integrator_kind::euler, 1.0}, {integrator_kind::heun, 2.0}, {integrator_kind::ab2, 2.0}}) {
        const study::convergence_series& c = series(r, k, "period_first");
        EXPECT_EQ(c.fit.points, 3u) << to_string(k);
        EXPECT_NEAR(c.fit.order, p, order_tolerance(c, p)) << to_string(k);
    }
    // The period drift: first order with Euler; with the second-order methods it vanishes faster
    // than their bias (measured: order 3, engine/docs/studies.md); at least second order.
    const study::convergence_series& euler_drift = series(r, integrator_kind::euler, "period_drift");
    EXPECT_NEAR(euler_drift.fit.order, 1.0, order_tolerance(euler_drift, 1.0));
    for (const integrator_kind k : {integrator_kind::heun, integrator_kind::ab2}) {
        const study::convergence_series& c = series(r, k, "period_drift");
        EXPECT_GE(c.fit.order, 2.0 - order_tolerance(c, 2.0)) << to_string(k);
    }
}

TEST_F(TimestepStudy, RungeKutta4IsFourthOrderAndExtrapolatesToTheKnownPeriod) {
    ASSERT_EQ(coarse_->exit_code, 0) << coarse_->out << coarse_->err;
    const study::study_report r = study::analyse_study(
        timestep_settings({0.5, 0.25, 0.125, 0.0625}, {integrator_kind::rk4}, study_time), *coarse_dir_ / "runs");
    const study::convergence_series& c = series(r, integrator_kind::rk4, "period_first");
    EXPECT_GE(c.fit.points, 3u);
    EXPECT_NEAR(c.fit.order, 4.0, order_tolerance(c, 4.0));
    EXPECT_GE(c.fit.order, 2.0);
    // T0 = 517.035980 tau_s (engine/docs/tetrahedron.md: Euler extrapolated, first cycle, 6
    // decimals, fit residual 2.2e-7). Ours is the intercept of a line through 5 periods: each
    // period's parabolic-fit sampling error is <= 9e-5 tau_s (engine/docs/observables.md), which
    // the intercept can carry at most once.
    EXPECT_NEAR(c.extrapolated, 517.035980, 9e-5 + 5e-7 + 2.2e-7);
    EXPECT_FALSE(fs::exists(*coarse_dir_ / "figures"));  // --no-plots
}

TEST(StudyCli, BadInputExitsWithTwoAndWritesNothing) {
    const fs::path out = scratch("bad");
    const std::string t = tetrahedron_toml;
    const std::vector<std::vector<std::string>> cases{
        {"study", "timestep", t, "--dt", "0.01,-1", "--output-dir", out.string()},
        {"study", "timestep", t, "--dt", "0.01,abc", "--output-dir", out.string()},
        {"study", "timestep", t, "--integrators", "euler,leapfrog", "--output-dir", out.string()},
        {"study", "precision", t, "--precision", "hi=f16,int=f32", "--output-dir", out.string()},
        {"study", "precision", t, "--time", "-5", "--output-dir", out.string()},
        {"study", "timestep", t, "--dt", "0.03", "--time", "100", "--output-dir", out.string()},  // not a multiple
        {"study", "precision", t, "--backend", "gpu", "--output-dir", out.string()},
        {"study", "precision", (regression_suite::source_dir / "scenarios/missing.toml").string(), "--output-dir",
         out.string()},
        {"study", "precision", (regression_suite::source_dir / "scenarios/approaching_pairs.toml").string(),
         "--output-dir", out.string()},                        // no cycle observable
        {"study", "precision", "--output-dir", out.string()},  // no scenario
        {"study", "sideways", t},
    };
    for (const auto& args : cases) {
        const regression_suite::outcome o = run_cli(args);
        std::string line;
        for (const auto& a : args) line += a + " ";
        EXPECT_EQ(o.exit_code, 2) << line << "\n" << o.out << o.err;
        EXPECT_FALSE(o.err.empty()) << line;
        EXPECT_FALSE(fs::exists(out / "runs")) << line;
    }
    // An existing, non-empty folder is not replaced without --force.
    fs::create_directories(out);
    std::ofstream(out / "keep.txt") << "mine\n";
    const regression_suite::outcome o =
        run_cli({"study", "precision", t, "--time", "100", "--output-dir", out.string()});
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_NE(o.err.find("--force"), std::string::npos) << o.err;
    EXPECT_TRUE(fs::exists(out / "keep.txt"));
    EXPECT_FALSE(fs::exists(out / "runs"));
    fs::remove_all(out);
}

}  // namespace
