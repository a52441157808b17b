// Where the CLI writes, judged by what a name is rather than how it is spelled (issue #27, items 6,
// 7, 8, 9, 11, 12, 16; engine/docs/reliability.md, "Outputs, locks and names"):
//   - an output is never an input of the same command: a run's scenario, a suite's manifest;
//   - two outputs of one command (derived names included) and two suites' folders never name one
//     file, whatever the spelling ("o/", "./x") or a link;
//   - a study holds its folder's lock: a second study, at once or with --force, is refused, and
//     --force never removes a live run's files;
//   - port-check record never replaces a FIFO; a lock name that is not a lock file is left alone;
//   - a secondary output whose temporary name would be too long is refused before any work.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "output_rule_support.hpp"
#include "support/cli_process.hpp"
#include "support/cli_scratch.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using output_rule::bytes_of;
using output_rule::expect_one_line_exit_two;
using output_rule::wait_for;
using ::stokesian::test_support::tetrahedron_toml;
using test_support::cli_outcome;
using test_support::cli_process;
using test_support::run_cli;

namespace {

const std::vector<std::string> short_bench{"bench",         "fcc", "--backend",    "cpu",
                                           "--sizes-cells", "2",   "--precision",  "hi=f64,int=f64",
                                           "--cpu-steps",   "1",   "--cpu-warmup", "0"};

// A suite manifest of one short tetrahedron run named `run`.
void write_manifest(const fs::path& path, const std::string& run) {
    std::ofstream(path) << "[defaults]\nscenario = \"" << tetrahedron_toml
                        << "\"\nprecision = \"hi=f64,int=f64\"\ndt = 0.01\ntime = 0.1\nsample_every = 0.05\n\n"
                           "[[run]]\nname = \""
                        << run << "\"\n";
}

// A time-step study of one Euler run in `dir`: about two million steps (one to three seconds on
// one core) for `time` 20000, long enough for a second command to meet it running.
std::vector<std::string> study_arguments(const fs::path& dir, const std::string& time) {
    return {"study",
            "timestep",
            tetrahedron_toml,
            "--dt",
            "0.01",
            "--integrators",
            "euler",
            "--time",
            time,
            "--sample-every",
            "10",
            "--trajectory-time",
            "0",
            "--backend",
            "cpu",
            "--jobs",
            "1",
            "--no-plots",
            "--output-dir",
            dir.string()};
}

class OutputIdentity : public test_support::cli_scratch_test {
protected:
    OutputIdentity() : cli_scratch_test("stokesian_output_identity") {}
    cli_outcome cli(const std::vector<std::string>& args) const { return run_cli(args, capture()); }
};

}  // namespace

// ---- item 6: an output is never an input of the same command -------------------------------------

TEST_F(OutputIdentity, ARunNeverWritesOverItsScenarioUnderAnySpellingEvenWithForce) {
    const fs::path scenario = dir_ / "s.toml";
    fs::copy_file(tetrahedron_toml, scenario);
    fs::create_symlink(scenario, dir_ / "link.toml");
    fs::create_hard_link(scenario, dir_ / "hard.toml");
    const std::string before = bytes_of(scenario);
    for (const fs::path& output : {scenario, dir_ / "." / "s.toml", dir_ / "link.toml", dir_ / "hard.toml"}) {
        const cli_outcome o = cli({"run", scenario.string(), "--time", "1", "-o", output.string(), "--force"});
        expect_one_line_exit_two(o, "is also an input of this command", output.string());
        EXPECT_TRUE(bytes_of(scenario) == before) << output << ": the scenario was replaced";
    }
}

TEST_F(OutputIdentity, ASuiteNeverWritesARunsOutputOverItsManifest) {
    const fs::path results = dir_ / "o", manifest = results / "a.h5";  // run a's output is o/a.h5
    fs::create_directories(results);
    write_manifest(manifest, "a");
    const std::string before = bytes_of(manifest);
    const cli_outcome o = cli({"suite", "run", manifest.string(), "--output-dir", results.string(), "--force"});
    expect_one_line_exit_two(o, "is also an input of this command", "manifest o/a.h5");
    EXPECT_TRUE(bytes_of(manifest) == before) << "the manifest was replaced";
}

// ---- item 8: two suites never share a folder -------------------------------------------------------

TEST_F(OutputIdentity, TwoManifestsNeverShareAFolderUnderAnotherSpellingOrALink) {
    write_manifest(dir_ / "first.toml", "a");
    write_manifest(dir_ / "second.toml", "b");
    const fs::path results = dir_ / "o";
    for (const std::string& other : {results.string() + "/", (dir_ / "link").string()}) {
        if (other == (dir_ / "link").string()) {
            fs::create_directories(results);
            fs::create_directory_symlink(results, dir_ / "link");
        }
        const cli_outcome o = cli({"suite", "run", (dir_ / "first.toml").string(), (dir_ / "second.toml").string(),
                                   "--output-dirs", results.string() + "," + other});
        expect_one_line_exit_two(o, "two manifests would write into the same folder", other);
        EXPECT_FALSE(fs::exists(results / "a.h5")) << other << ": refused before the first run";
    }
}

// ---- item 9: two outputs of one command never name one file ----------------------------------------

TEST_F(OutputIdentity, TwoOutputsOfOneBenchNamingOneFileAreRefusedBeforeAnyWork) {
    const std::string a = (dir_ / "a.csv").string(), b = (dir_ / "b.csv").string(), c = (dir_ / "c.csv").string();
    const std::vector<std::vector<std::string>> clashes{
        {"--csv", a, "--h5", a},
        {"--csv", a, "--h5", (dir_ / "." / "a.csv").string()},
        {"--csv", b, "--h5", (dir_ / "b_fits.csv").string()},  // the fits go to <name>_fits.csv
        {"--write-velocities", c, "--csv", c},
    };
    for (const std::vector<std::string>& outputs : clashes) {
        std::vector<std::string> args = short_bench;
        args.insert(args.end(), outputs.begin(), outputs.end());
        const cli_outcome o = cli(args);
        expect_one_line_exit_two(o, "each output of a command needs its own file", outputs[0] + " " + outputs[3]);
        EXPECT_EQ(o.out.find("step ms"), std::string::npos) << "timed before the refusal: " << o.out;
        for (const std::string& file : {a, b, c, (dir_ / "b_fits.csv").string()})
            EXPECT_FALSE(fs::exists(file)) << file;
    }
}

TEST_F(OutputIdentity, ReferenceCheckRefusesOneFileForJsonAndJunit) {
    const fs::path result = output_rule::short_result(dir_ / "r.h5", capture());
    const fs::path references = output_rule::references_recorded_from(result, dir_, capture());
    const fs::path report = dir_ / "report";
    const cli_outcome o = cli({"reference", "check", result.string(), "--reference-dir", references.string(), "--json",
                               report.string(), "--junit", report.string()});
    expect_one_line_exit_two(o, "--junit names the file of --json", "--json X --junit X");
    EXPECT_FALSE(fs::exists(report));
}

// ---- item 11: port-check record follows the output rule --------------------------------------------

TEST_F(OutputIdentity, PortCheckRecordNeverReplacesAFifoEvenWithForce) {
    const fs::path fifo = dir_ / "record.h5";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const bool force : {false, true}) {
        std::vector<std::string> args{"port-check",  "record",      fifo.string(),   "--configs",
                                      "tetrahedron", "--precision", "hi=f64,int=f64"};
        if (force) args.push_back("--force");
        expect_one_line_exit_two(cli(args), "is not a regular file", force ? "--force" : "no --force");
        EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced";
    }
}

// ---- item 12: a lock name that is not a lock file --------------------------------------------------

TEST_F(OutputIdentity, ALockNameHardLinkedToAnotherFileLeavesThatFileAlone) {
    const fs::path precious = dir_ / "precious.txt";
    std::ofstream(precious) << "my notes\n";
    // A run's lock, OUTPUT.lock.
    fs::create_hard_link(precious, dir_ / "out.h5.lock");
    const cli_outcome run = cli({"run", tetrahedron_toml, "--time", "1", "-o", (dir_ / "out.h5").string()});
    expect_one_line_exit_two(run, "not a lock file", "run");
    EXPECT_EQ(test_support::read_text(precious), "my notes\n");
    EXPECT_FALSE(fs::exists(dir_ / "out.h5"));
    // reference record's lock of the reference file, REFERENCE.lock.
    const fs::path result = output_rule::short_result(dir_ / "r.h5", capture());
    fs::create_directories(dir_ / "references");
    fs::create_hard_link(precious, dir_ / "references" / "tetrahedron.h5.lock");
    const cli_outcome record =
        cli({"reference", "record", result.string(), "--reference-dir", (dir_ / "references").string(), "--checks",
             std::string(::stokesian::test_support::project_source_dir) + "/reference_data/checks.toml"});
    expect_one_line_exit_two(record, "not a lock file", "reference record");
    EXPECT_EQ(test_support::read_text(precious), "my notes\n");
}

// ---- item 16: the longest name a command creates is checked at its start ---------------------------

TEST_F(OutputIdentity, AnOutputNameTooLongForItsTemporaryIsRefusedBeforeAnyWork) {
    // 250 bytes fit NAME_MAX (255); with the temporary's ".tmp-PID" they do not.
    const fs::path csv = dir_ / (std::string(246, 'x') + ".csv");
    std::vector<std::string> args = short_bench;
    args.insert(args.end(), {"--csv", csv.string()});
    const cli_outcome bench = cli(args);
    expect_one_line_exit_two(bench, "(NAME_MAX)", "bench --csv");
    EXPECT_LT(bench.err.size(), 400u) << "the long name is shortened";
    EXPECT_EQ(bench.out.find("step ms"), std::string::npos) << "timed before the refusal: " << bench.out;

    const fs::path result = output_rule::short_result(dir_ / "r.h5", capture());
    const fs::path references = output_rule::references_recorded_from(result, dir_, capture());
    const fs::path json = dir_ / (std::string(245, 'j') + ".json");
    const cli_outcome check =
        cli({"reference", "check", result.string(), "--reference-dir", references.string(), "--json", json.string()});
    expect_one_line_exit_two(check, "(NAME_MAX)", "reference check --json");
    EXPECT_LT(check.err.size(), 400u);

    // A folder whose runs' names fit PATH_MAX (4095 bytes) with their longest suffix,
    // ".partial.rebuild", while suite-summary.json's temporary does not.
    fs::path folder = dir_;
    while (folder.string().size() < 4074 - 250) folder /= std::string(200, 'd');
    folder /= std::string(4074 - folder.string().size() - 1, 'e');
    ASSERT_EQ(folder.string().size(), 4074u);
    write_manifest(dir_ / "suite.toml", "a");
    const cli_outcome suite = cli({"suite", "run", (dir_ / "suite.toml").string(), "--output-dir", folder.string()});
    expect_one_line_exit_two(suite, "(PATH_MAX)", "suite run --output-dir");
    EXPECT_LT(suite.err.size(), 400u);
    EXPECT_FALSE(fs::exists(folder / "a.h5")) << "refused before the first run";
}

// ---- item 7: a study holds its folder ----------------------------------------------------------------

TEST_F(OutputIdentity, AStudyWithForceIsRefusedWhileAnotherStudyRunsInItsFolder) {
    const fs::path folder = dir_ / "study";
    cli_process first(study_arguments(folder, "20000"), capture());
    ASSERT_TRUE(wait_for(folder / "manifest.toml")) << "the first study never started";
    std::vector<std::string> forced = study_arguments(folder, "100");
    forced.push_back("--force");
    const cli_outcome second = cli(forced);
    expect_one_line_exit_two(second, "another study (process " + std::to_string(first.pid()) + ")", "--force");
    const cli_outcome done = first.wait();
    EXPECT_EQ(done.exit_code, 0) << done.out << done.err;
    EXPECT_TRUE(fs::exists(folder / "study.json"));
    EXPECT_FALSE(fs::exists(folder / "study.lock")) << "a finished study removes its lock file";
}

TEST_F(OutputIdentity, StudiesStartedTogetherOnOneFolderRunOneAtATime) {
    const fs::path folder = dir_ / "study";
    std::vector<std::unique_ptr<cli_process>> studies;
    for (int k = 0; k < 6; ++k)
        studies.push_back(std::make_unique<cli_process>(study_arguments(folder, "3000"), capture()));
    int completed = 0;
    for (auto& s : studies) {
        const cli_outcome o = s->wait();
        if (o.exit_code == 0) ++completed;
        else
            EXPECT_TRUE(o.exit_code == 2 && (o.err.find("another study") != std::string::npos ||
                                             o.err.find("exists and is not empty") != std::string::npos))
                << o.exit_code << ": " << o.err;
    }
    EXPECT_EQ(completed, 1);
}

TEST_F(OutputIdentity, AStudyWithForceLeavesALiveRunInItsFolderAlone) {
    const fs::path folder = dir_ / "study", output = folder / "runs" / "euler_mine.h5";
    fs::create_directories(folder / "runs");
    cli_process run({"run", tetrahedron_toml, "--time", "20000", "--sample-every", "10", "--checkpoint-every", "500",
                     "--threads", "1", "--no-trajectory", "-o", output.string()},
                    capture());
    ASSERT_TRUE(wait_for(fs::path(output) += ".partial")) << "the run never started";
    std::vector<std::string> forced = study_arguments(folder, "100");
    forced.push_back("--force");
    const cli_outcome refused = cli(forced);
    expect_one_line_exit_two(refused, "another run (process " + std::to_string(run.pid()) + ")", "study --force");
    EXPECT_TRUE(fs::exists(fs::path(output) += ".lock")) << "the live run's lock file was removed";
    const cli_outcome done = run.wait();
    EXPECT_EQ(done.exit_code, 0) << done.err;
    EXPECT_TRUE(fs::exists(output));
}
