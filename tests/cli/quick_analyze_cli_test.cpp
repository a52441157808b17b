// `stokesian analyze` and `stokesian mobility-check` as a user runs them: child processes, exit
// codes, text and --json output checked against the file's own /analysis values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/io/h5md.hpp"
#include "stokesian/io/json_text.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using outcome = stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli;

namespace {

using stokesian::test_support::scenario_folder;

// The number after "key": in a JSON text (NaN for null or absent).
double json_number(const std::string& json, const std::string& key) {
    const std::string tag = "\"" + key + "\":";
    const auto at = json.find(tag);
    if (at == std::string::npos || json.compare(at + tag.size(), 4, "null") == 0) return NAN;
    return std::strtod(json.c_str() + at + tag.size(), nullptr);
}

// The literal after "key": in a JSON text, up to the next ',' or '}' ("" when absent).
std::string json_literal(const std::string& json, const std::string& key) {
    const std::string tag = "\"" + key + "\":";
    const auto at = json.find(tag);
    if (at == std::string::npos) return "";
    const auto begin = at + tag.size();
    return json.substr(begin, json.find_first_of(",}", begin) - begin);
}

bool is_integer_literal(const std::string& literal) {
    const std::size_t digits = literal.rfind('-', 0) == 0 ? 1 : 0;
    return literal.size() > digits &&
           std::all_of(literal.begin() + digits, literal.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class AnalyzeCli : public stokesian::test_support::scratch_directory_test {
protected:
    AnalyzeCli() : scratch_directory_test("stokesian_analyze") {}

    // The tetrahedron for four cycles with --json, and analyze --json of its file.
    struct ran_and_analyzed {
        fs::path file;
        outcome ran, analyzed;
    };
    ran_and_analyzed run_and_analyze_json() const {
        ran_and_analyzed r{dir_ / "t.h5", {}, {}};
        r.ran = run_cli({"run", (scenario_folder / "tetrahedron.toml").string(), "--time", "2100", "--no-trajectory",
                         "-o", r.file.string(), "--json"},
                        dir_);
        r.analyzed = run_cli({"analyze", r.file.string(), "--json"}, dir_);
        return r;
    }
};

}  // namespace

TEST_F(AnalyzeCli, SummarisesATetrahedronRunInTextAndJson) {
    // Four cycles (2100 tau_s, ~0.1 s): three periods, enough for a drift with a confidence interval.
    const fs::path file = dir_ / "t.h5";
    const outcome ran = run_cli({"run", (scenario_folder / "tetrahedron.toml").string(), "--time", "2100",
                                 "--no-trajectory", "-o", file.string()},
                                dir_);
    ASSERT_EQ(ran.exit_code, 0) << ran.err;

    const stokesian::io::h5md_file h5(file);
    const double drift = h5.read_doubles("/analysis/cycle/period_drift_per_cycle").at(0);
    const double ci = h5.read_doubles("/analysis/cycle/period_drift_ci95_half_width").at(0);
    ASSERT_TRUE(std::isfinite(drift) && std::isfinite(ci));

    const outcome text = run_cli({"analyze", file.string()}, dir_);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_EQ(text.err, "");
    for (const char* expected : {"scenario:   tetrahedron", "precision:  hi=f64,int=f64", "backend: cpu",
                                 "status:     completed", "steps:      210000 of 210000", "period drift per cycle",
                                 "95% CI half-width", "max |y1| (deviation from the xz-plane)",
                                 "lost periodicity at                          none (periodic to the end)",
                                 "sedimentation velocity (mean over the run)", "cycle/period_drift_standard_error"})
        EXPECT_NE(text.out.find(expected), std::string::npos) << expected << "\n" << text.out;
    char drift_text[64];
    std::snprintf(drift_text, sizeof drift_text, "%.10g tau_s", drift);
    EXPECT_NE(text.out.find(drift_text), std::string::npos) << drift_text << "\n" << text.out;

    const outcome json = run_cli({"analyze", file.string(), "--json"}, dir_);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_EQ(json.out.front(), '{');
    EXPECT_EQ(json_number(json.out, "period_drift_per_cycle"), drift);  // 17 digits: exact round trip
    EXPECT_EQ(json_number(json.out, "period_drift_ci95_half_width"), ci);
    EXPECT_EQ(json_number(json.out, "cycles"), 3.0);
    EXPECT_EQ(json_number(json.out, "steps"), 210000.0);
    EXPECT_NE(json.out.find("\"lost_periodicity_time\":null"), std::string::npos) << json.out;
    EXPECT_NE(json.out.find("\"cycle/period\":{\"count\":3"), std::string::npos) << json.out;
    EXPECT_NE(json.out.find("\"status\":\"completed\""), std::string::npos);
}

// Counts (cycles, windows, degrees, checks) are JSON integers in run --json and analyze --json alike,
// with the same value under the same key.
TEST_F(AnalyzeCli, CountsAreJsonIntegersInRunAndAnalyze) {
    const auto [file, ran, analyzed] = run_and_analyze_json();
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
    for (const char* key : {"cycles", "windows", "steps"}) {
        EXPECT_TRUE(is_integer_literal(json_literal(ran.out, key))) << key << ": " << ran.out;
        EXPECT_EQ(json_literal(analyzed.out, key), json_literal(ran.out, key)) << key << ": " << analyzed.out;
    }
    for (const char* key : {"regular_cycles", "planned_steps", "cycle/regular_cycles", "cycle/windows",
                            "cycle/period_trend/cycles", "cycle/period_trend/degree", "cycle/amplitude_trend/degree"})
        EXPECT_TRUE(is_integer_literal(json_literal(analyzed.out, key))) << key << ": " << analyzed.out;
    EXPECT_EQ(json_literal(analyzed.out, "cycles"), "3");
}

// One vocabulary: run --json is the document analyze --json prints for the same file (the same keys,
// the same values, the path under "file") plus what only the run knows.
TEST_F(AnalyzeCli, RunJsonHoldsTheAnalyzeDocumentOfItsFile) {
    const auto [file, ran, analyzed] = run_and_analyze_json();
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
    const stokesian::io::json run = stokesian::io::json::parse(ran.out);
    const stokesian::io::json analysis = stokesian::io::json::parse(analyzed.out);
    for (const auto& [key, value] : analysis.items()) {
        ASSERT_TRUE(run.contains(key)) << key << " missing in run --json: " << ran.out;
        EXPECT_EQ(run[key].dump(), value.dump()) << key;
    }
    EXPECT_EQ(run["file"], file.string());
    EXPECT_FALSE(run.contains("output"));
    // The quantities once printed by one command only, now by both.
    for (const char* key : {"regular_cycles", "period_last", "amplitude_last", "max_abs_symmetry_residual"})
        EXPECT_TRUE(analysis["observables"].contains(key)) << key << ": " << analyzed.out;
    for (const char* key : {"simulated_time", "steps_per_second", "final_state_digest", "resumable", "checkpoint"})
        EXPECT_TRUE(run.contains(key) && !analysis.contains(key)) << key;
}

TEST_F(AnalyzeCli, BadFilesAreOneLineAndExitCodeTwo) {
    { std::ofstream(dir_ / "text.h5") << "not hdf5\n"; }
    for (const auto& [path, message] : std::vector<std::pair<fs::path, std::string>>{
             {dir_ / "missing.h5", "file not found"}, {dir_ / "text.h5", "not a readable HDF5 file"}}) {
        const outcome o = run_cli({"analyze", path.string()}, dir_);
        EXPECT_EQ(o.exit_code, 2) << o.err;
        EXPECT_EQ(o.out, "");
        EXPECT_EQ(o.err.rfind("stokesian: " + path.string(), 0), 0u) << o.err;
        EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    }
}

TEST_F(AnalyzeCli, MobilityCheckPassesThePairAndFailsTheMinimumImageLattice) {
    const outcome pair =
        run_cli({"mobility-check", (scenario_folder / "approaching_pairs.toml").string(), "--json"}, dir_);
    EXPECT_EQ(pair.exit_code, 0) << pair.out << pair.err;
    EXPECT_NE(pair.out.find("\"positive_definite\":true"), std::string::npos) << pair.out;
    EXPECT_NEAR(json_number(pair.out, "smallest_eigenvalue"), 0.464, 1e-12);  // 1 - (3/(2r) - 1/r^3), r = 2.5

    // fcc at n = 0.1 with cells = 2 (N = 32): nearest-image HI is indefinite (smallest eigenvalue
    // -0.064, tests/observables/positive_definiteness_test.cpp): exit status 1.
    std::ifstream in(scenario_folder / "fcc_sedimentation.toml");
    std::stringstream text;
    text << in.rdbuf();
    std::string scenario = text.str();
    scenario.replace(scenario.find("\ncells = 10"), 11, "\ncells = 2");  // the key, not the header's mention
    const fs::path small = dir_ / "fcc2.toml";
    std::ofstream(small) << scenario;
    const outcome lattice = run_cli({"mobility-check", small.string()}, dir_);
    EXPECT_EQ(lattice.exit_code, 1) << lattice.out << lattice.err;
    EXPECT_NE(lattice.out.find("N = 32,"), std::string::npos) << lattice.out;
    EXPECT_NE(lattice.out.find("NOT positive definite"), std::string::npos) << lattice.out;
    EXPECT_NE(lattice.out.find("fails at the leading minor of order"), std::string::npos) << lattice.out;
    EXPECT_NE(lattice.out.find("verdict: proof: NOT positive definite"), std::string::npos) << lattice.out;

    // Lanczos alone proves indefiniteness by its Ritz vector; on the positive definite pair it only
    // estimates (exit status 1: no proof), and says so.
    const outcome lanczos = run_cli({"mobility-check", small.string(), "--method", "lanczos", "--json"}, dir_);
    EXPECT_EQ(lanczos.exit_code, 1) << lanczos.out << lanczos.err;
    EXPECT_NE(lanczos.out.find("\"verdict\":\"proof: not positive definite\""), std::string::npos) << lanczos.out;
    EXPECT_LT(json_number(lanczos.out, "quadratic_form"), -0.05);
    const outcome estimate =
        run_cli({"mobility-check", (scenario_folder / "approaching_pairs.toml").string(), "--method", "lanczos"}, dir_);
    EXPECT_EQ(estimate.exit_code, 1) << estimate.out << estimate.err;
    EXPECT_NE(estimate.out.find("verdict: estimate: positive definite"), std::string::npos) << estimate.out;
    EXPECT_NE(estimate.out.find("not a proof"), std::string::npos) << estimate.out;
}

TEST_F(AnalyzeCli, MobilityCheckRefusesBadOptionsWithOneLine) {
    const std::string pair = (scenario_folder / "approaching_pairs.toml").string();
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"mobility-check", pair, "--method", "choleski"},
          std::vector<std::string>{"mobility-check", pair, "--lanczos-iterations", "0"},
          std::vector<std::string>{"mobility-check", pair, "--lanczos-tolerance", "2"},
          std::vector<std::string>{"mobility-check", pair, "--backend", "no-such-backend"}}) {
        const outcome o = run_cli(args, dir_);
        EXPECT_EQ(o.exit_code, 2) << args[2] << " " << args[3] << ": " << o.out << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    }
    // A dense host method beyond LAPACK's 32-bit index (fcc cells = 17: N = 19 652) is refused before
    // any work, naming Lanczos.
    std::ifstream in(scenario_folder / "fcc_sedimentation.toml");
    std::stringstream text;
    text << in.rdbuf();
    std::string scenario = text.str();
    scenario.replace(scenario.find("\ncells = 10"), 11, "\ncells = 17");
    const fs::path large = dir_ / "fcc17.toml";
    std::ofstream(large) << scenario;
    const outcome dense = run_cli({"mobility-check", large.string(), "--method", "eigen"}, dir_);
    EXPECT_EQ(dense.exit_code, 2) << dense.out << dense.err;
    EXPECT_NE(dense.err.find("--method lanczos takes any N"), std::string::npos) << dense.err;
}
