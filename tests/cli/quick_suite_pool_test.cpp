// Several suite manifests in one process and one pool (`stokesian suite run A.toml B.toml`, issue
// #16 item 3: the nightly and its negative control share one CUDA context instead of two
// time-slicing the GPU). On the CPU, shortened (--scale 0.01, two runs of each manifest): each
// manifest writes into its own folder with its own suite-summary.json, the runs are labelled
// SUITE/NAME, each suite has its closing line, the results check exactly as when each manifest runs
// alone (bit for bit the scale-0.01 references; the negative control still rejected), and the
// folder options are bad input where two manifests would share a folder. --gpus where no run
// drives a device is bad input, and so is a backend this host cannot run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "regression_suite_support.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "support/scratch_directory.hpp"
#include "support/text_checks.hpp"

using stokesian::test_support::line_count;
using stokesian::test_support::occurrences;

using namespace regression_suite;

namespace {

// One perturbed (precision swapped) and one unperturbed run, under the same names in both manifests.
const std::string two_runs = "tetrahedron_f32-f32_dt0.01,tetrahedron_ds-ds_dt0.01";

class SuitePool : public stokesian::test_support::scratch_directory_test {
protected:
    SuitePool() : scratch_directory_test("stokesian_suite_pool") {}

    outcome both(const std::vector<std::string>& extra) const {
        std::vector<std::string> args{"suite",
                                      "run",
                                      nightly_manifest.string(),
                                      negative_manifest.string(),
                                      "--backend",
                                      "cpu",
                                      "--scale",
                                      "0.01",
                                      "--only",
                                      two_runs};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args, dir_);
    }
};

outcome check(const fs::path& results) {
    std::vector<std::string> args{"reference", "check"};
    for (const auto& f : results_in(results)) args.push_back(f);
    args.insert(args.end(), {"--reference-dir", scaled_references.string()});
    return run_cli(args);
}

}  // namespace

TEST_F(SuitePool, TwoManifestsShareOneProcessEachIntoItsOwnFolderAndCheckAsAlone) {
    const outcome o = both({"--output-dir", (dir_ / "out").string(), "--heartbeat", "0.05"});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("suite nightly + negative_control: 4 runs"), std::string::npos) << o.out;
    for (const char* suite : {"nightly", "negative_control"}) {
        const fs::path folder = dir_ / "out" / suite;
        EXPECT_TRUE(fs::exists(folder / "suite-summary.json")) << folder;
        EXPECT_EQ(results_in(folder).size(), 2u) << folder;
        const std::string summary = read_text(folder / "suite-summary.json");
        EXPECT_EQ(occurrences(summary, "\"state\":\"completed\""), 2u) << summary;
        EXPECT_NE(summary.find(std::string("\"suite\":\"") + suite + "\""), std::string::npos) << summary;
        EXPECT_NE(o.out.find(std::string("suite ") + suite + ": 2 completed, 0 failed, 0 interrupted"),
                  std::string::npos)
            << o.out;
        EXPECT_NE(o.out.find(std::string("] ") + suite + "/tetrahedron_f32-f32_dt0.01 "), std::string::npos) << o.out;
    }
    // The heartbeat names each suite's progress besides the total.
    EXPECT_NE(o.err.find("(nightly "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(", negative_control "), std::string::npos) << o.err;

    // The nightly's runs: bit for bit the references, as when the nightly runs alone.
    const outcome nightly = check(dir_ / "out/nightly");
    EXPECT_EQ(nightly.exit_code, 0) << nightly.out << nightly.err;
    EXPECT_EQ(occurrences(nightly.out, "final state bit for bit"), 2u) << nightly.out;
    // The negative control: the swapped precision rejected, the unperturbed control bit for bit.
    const outcome negative = check(dir_ / "out/negative_control");
    EXPECT_EQ(negative.exit_code, 1) << negative.out << negative.err;
    const auto failed = failures_in_table(negative.out);
    EXPECT_TRUE(failed.count("tetrahedron_ds-ds_dt0.01")) << negative.out;
    EXPECT_FALSE(failed.count("tetrahedron_f32-f32_dt0.01")) << negative.out;
    EXPECT_NE(negative.out.find("NEGATIVE CONTROL"), std::string::npos) << negative.out;
}

TEST_F(SuitePool, OutputDirsNamesEachManifestsFolder) {
    const fs::path a = dir_ / "a", b = dir_ / "b/results";
    const outcome o = both({"--output-dirs", a.string() + "," + b.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_EQ(results_in(a).size(), 2u);
    EXPECT_EQ(results_in(b).size(), 2u);
    EXPECT_TRUE(fs::exists(a / "suite-summary.json"));
    EXPECT_TRUE(fs::exists(b / "suite-summary.json"));
    // Again without --force: the existing outputs are refused before anything runs.
    const outcome again = both({"--output-dirs", a.string() + "," + b.string()});
    EXPECT_EQ(again.exit_code, 2) << again.out << again.err;
}

TEST_F(SuitePool, TwoManifestsInOneFolderOrAMiscountedOutputDirsAreBadInput) {
    const auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
        const outcome o = run_cli(args, dir_);
        EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
        EXPECT_NE(o.err.find(says), std::string::npos) << o.err;
        EXPECT_TRUE(results_in(dir_).empty());
    };
    const std::vector<std::string> common{"--backend", "cpu",    "--scale",
                                          "0.01",      "--only", "tetrahedron_f32-f32_dt0.01"};
    std::vector<std::string> twice{"suite",        "run",        nightly_manifest.string(), nightly_manifest.string(),
                                   "--output-dir", dir_.string()};
    twice.insert(twice.end(), common.begin(), common.end());
    refused(twice, "same folder");
    std::vector<std::string> one_dir{
        "suite", "run", nightly_manifest.string(), negative_manifest.string(), "--output-dirs", dir_.string()};
    one_dir.insert(one_dir.end(), common.begin(), common.end());
    refused(one_dir, "one folder per manifest");
    std::vector<std::string> same_dir{"suite",
                                      "run",
                                      nightly_manifest.string(),
                                      negative_manifest.string(),
                                      "--output-dirs",
                                      dir_.string() + "," + dir_.string()};
    same_dir.insert(same_dir.end(), common.begin(), common.end());
    refused(same_dir, "same folder");
    // --gpus where every run is on the host (the CPU backend), or spelt wrong.
    std::vector<std::string> gpus{"suite",  "run", nightly_manifest.string(), "--output-dir", dir_.string(),
                                  "--gpus", "0"};
    gpus.insert(gpus.end(), common.begin(), common.end());
    refused(gpus, "no run drives a device");
    gpus[6] = "0,0";
    refused(gpus, "named twice");
}

// A backend this host cannot run (here: CUDA without a device or a CUDA build), named by --backend or
// by a run of the manifest, is refused before the first run: one line naming it, exit code 2, nothing
// written (no output folder, no suite-summary.json to block the next try).
TEST_F(SuitePool, ABackendThisHostCannotRunIsRefusedBeforeAnythingIsWritten) {
    if (stokesian::regression::device_backend_available()) GTEST_SKIP() << "a device backend is available";
    const fs::path out = dir_ / "out" / "nightly";
    outcome o =
        run_cli({"suite", "run", nightly_manifest.string(), "--backend", "cuda", "--output-dir", out.string()}, dir_);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(line_count(o.err), 1u) << o.err;
    EXPECT_EQ(o.err.rfind("stokesian: command line: key '--backend' = cuda: ", 0), 0u) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "nothing may be written";

    const fs::path manifest = dir_ / "cuda_suite.toml";
    std::ofstream(manifest) << "[suite]\nname = \"cuda_suite\"\n\n[[run]]\nname = \"t\"\nscenario = \""
                            << (source_dir / "scenarios/tetrahedron.toml").string()
                            << "\"\nbackend = \"cuda\"\nprecision = \"hi=f64,int=f64\"\ndt = 0.01\ntime = 1\n";
    o = run_cli({"suite", "run", manifest.string(), "--output-dir", (dir_ / "out2").string()}, dir_);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(line_count(o.err), 1u) << o.err;
    EXPECT_NE(o.err.find("cuda_suite.toml (run 't'): key 'backend' = cuda: "), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "out2")) << "nothing may be written";
}
