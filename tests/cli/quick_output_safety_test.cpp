// Where the CLI writes, as a hostile or careless user meets it (issue #18, items 2, 3, 6, 10;
// engine/docs/reliability.md, "Outputs", "Locks", "Names"):
//   - two runs on one output: the second is refused at once, the first completes (the run's lock);
//   - every output name is checked before the first step: a file at OUTPUT on --resume, -o '',
//     a FIFO as the output;
//   - secondary outputs (--json, --junit, --csv, --report, suite-summary.json) replace nothing
//     without --force, never an input of the command, never a device; a failed write is exit 2;
//   - a result whose scenario name would leave the reference directory is refused.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <hdf5.h>

#include "output_rule_support.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/cli_scratch.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using output_rule::bytes_of;
using output_rule::expect_one_line_exit_two;
using output_rule::references_recorded_from;
using output_rule::wait_for;
using ::stokesian::test_support::tetrahedron_toml;
using test_support::cli_outcome;
using test_support::cli_process;
using test_support::read_text;
using test_support::run_cli;

namespace {

// About two million steps (one to three seconds on one core), a checkpoint every 50 000 steps:
// long enough for a second command to meet it running.
std::vector<std::string> long_run_without_trajectory(const fs::path& out) {
    return {"run",
            tetrahedron_toml,
            "--time",
            "20000",
            "--sample-every",
            "10",
            "--checkpoint-every",
            "500",
            "--threads",
            "1",
            "--no-trajectory",
            "-o",
            out.string(),
            "--json"};
}

// A child's file appearing: 20 s is far beyond a run's set-up (well under a second here).

bool is_h5md_result(const fs::path& path) {
    try {
        const io::h5md_file f(path);
        return f.exists("/parameters/run");
    } catch (const std::exception&) {
        return false;
    }
}

// Runs the CLI with `limit` bytes as the largest file it may write (RLIMIT_FSIZE, SIGXFSZ
// ignored, so a write past it fails with EFBIG as on a full disk); stdout to /dev/null, stderr
// through a pipe (the limit does not apply to pipes), returned with the exit code.
cli_outcome run_cli_with_file_size_limit(const std::vector<std::string>& args, rlim_t limit) {
    int err[2];
    if (::pipe(err) != 0) return {};
    const std::string cli = ::stokesian::test_support::built_cli;
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit r{limit, limit};
        ::setrlimit(RLIMIT_FSIZE, &r);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(err[1], STDERR_FILENO);
        ::close(err[0]);
        std::vector<char*> argv{const_cast<char*>(cli.c_str())};
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(cli.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(err[1]);
    cli_outcome o;
    char buffer[4096];
    for (ssize_t n; (n = ::read(err[0], buffer, sizeof buffer)) > 0;) o.err.append(buffer, static_cast<std::size_t>(n));
    ::close(err[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return o;
}

class OutputSafety : public test_support::cli_scratch_test {
protected:
    OutputSafety() : cli_scratch_test("stokesian_output_safety") {}

    // A short completed tetrahedron result.
    fs::path short_result(const std::string& name = "r.h5") const {
        return output_rule::short_result(dir_ / name, capture());
    }
};

}  // namespace

// ---- item 3: one run per output ------------------------------------------------------------------

TEST_F(OutputSafety, ASecondRunOnTheSameOutputIsRefusedWhileTheFirstRunsAndCompletes) {
    const fs::path out = dir_ / "shared.h5";
    cli_process first(long_run_without_trajectory(out), capture());
    ASSERT_TRUE(wait_for(fs::path(out) += ".partial")) << "the first run never started";
    const std::string holder = "another run (process " + std::to_string(first.pid()) + ") is writing this output";
    // Another scenario length, with --force: before the lock it deleted the live partial output.
    const cli_outcome second =
        run_cli({"run", tetrahedron_toml, "--time", "1", "-o", out.string(), "--force"}, capture());
    expect_one_line_exit_two(second, holder, "second run");
    const cli_outcome resume = run_cli({"run", "--resume", out.string()}, capture());
    expect_one_line_exit_two(resume, holder, "resume of a live run");

    const cli_outcome done = first.wait();
    ASSERT_EQ(done.exit_code, 0) << done.err;
    EXPECT_NE(done.out.find("\"status\":\"completed\""), std::string::npos) << done.out;
    const io::h5md_file f(out);
    EXPECT_EQ(f.parameter_attribute("/parameters/run", "steps"), "2000000") << "the output holds the first run";
    EXPECT_EQ(f.string_attribute("/parameters/run", "status"), "completed");
    EXPECT_FALSE(fs::exists(fs::path(out) += ".lock")) << "a finished run removes its lock file";
}

TEST_F(OutputSafety, TheLockFileOfAKilledRunDoesNotBlockTheNextRun) {
    const fs::path out = dir_ / "killed.h5";
    {
        cli_process first(long_run_without_trajectory(out), capture());
        ASSERT_TRUE(wait_for(fs::path(out) += ".partial"));
        first.signal(SIGKILL);
        EXPECT_EQ(first.wait().exit_code, 128 + SIGKILL);
    }
    const cli_outcome next =
        run_cli({"run", tetrahedron_toml, "--time", "1", "-o", out.string(), "--force"}, capture());
    EXPECT_EQ(next.exit_code, 0) << next.err;
    EXPECT_TRUE(is_h5md_result(out));
    EXPECT_FALSE(fs::exists(fs::path(out) += ".lock"));
}

// ---- item 10: every output name checked before the first step ------------------------------------

TEST_F(OutputSafety, ResumeWithAFileNowAtTheOutputIsRefusedBeforeComputingAnything) {
    const fs::path out = dir_ / "resumed.h5";
    const fs::path partial = fs::path(out) += ".partial", checkpoint = io::checkpoint_path_for(out);
    {
        cli_process first(long_run_without_trajectory(out), capture());
        ASSERT_TRUE(wait_for(checkpoint)) << "no checkpoint within 20 s";
        first.signal(SIGKILL);
        first.wait();
    }
    ASSERT_TRUE(fs::exists(partial));
    std::ofstream(out) << "precious";
    const std::string partial_before = bytes_of(partial), checkpoint_before = bytes_of(checkpoint);
    const cli_outcome refused = run_cli({"run", "--resume", out.string()}, capture());
    expect_one_line_exit_two(refused, "output file exists; use --force to replace it", "resume");
    EXPECT_EQ(read_text(out), "precious");
    // Before the fix the resume computed the whole remainder into the partial output first.
    EXPECT_TRUE(bytes_of(partial) == partial_before) << "the partial output was touched";
    EXPECT_TRUE(bytes_of(checkpoint) == checkpoint_before) << "the checkpoint was touched";
    const cli_outcome forced = run_cli({"run", "--resume", out.string(), "--force"}, capture());
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_TRUE(is_h5md_result(out));
}

TEST_F(OutputSafety, AnEmptyOutputNameIsAnErrorNotTheDefaultName) {
    const cli_outcome o = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", ""}, capture());
    expect_one_line_exit_two(o, "expected a file name, not an empty one", "-o ''");
}

TEST_F(OutputSafety, AFifoAsTheOutputIsRefusedEvenWithForce) {
    const fs::path fifo = dir_ / "pipe.h5";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const bool force : {false, true}) {
        std::vector<std::string> args{"run", tetrahedron_toml, "--time", "1", "-o", fifo.string()};
        if (force) args.push_back("--force");
        const cli_outcome o = run_cli(args, capture());
        expect_one_line_exit_two(o, "is not a regular file", force ? "--force" : "no --force");
        EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced";
    }
}

// ---- item 6: secondary outputs ---------------------------------------------------------------------

TEST_F(OutputSafety, ReferenceCheckNeverWritesItsReportsOverAResultItChecks) {
    const fs::path result = short_result();
    const fs::path references = references_recorded_from(result, dir_, capture());
    const std::string before = bytes_of(result);
    for (const char* option : {"--json", "--junit"}) {
        const cli_outcome plain = run_cli(
            {"reference", "check", result.string(), "--reference-dir", references.string(), option, result.string()},
            capture());
        expect_one_line_exit_two(plain, "is also an input of this command", option);
        const cli_outcome forced = run_cli({"reference", "check", result.string(), "--reference-dir",
                                            references.string(), option, result.string(), "--force"},
                                           capture());
        expect_one_line_exit_two(forced, "is also an input of this command", std::string(option) + " --force");
    }
    EXPECT_TRUE(bytes_of(result) == before) << "the checked result was overwritten";
    // Another existing file: kept without --force, replaced with it.
    const fs::path json = dir_ / "check.json";
    std::ofstream(json) << "earlier";
    const cli_outcome kept = run_cli(
        {"reference", "check", result.string(), "--reference-dir", references.string(), "--json", json.string()},
        capture());
    expect_one_line_exit_two(kept, "output file exists; use --force to replace it", "existing --json");
    EXPECT_EQ(read_text(json), "earlier");
    const cli_outcome replaced = run_cli({"reference", "check", result.string(), "--reference-dir", references.string(),
                                          "--json", json.string(), "--force"},
                                         capture());
    EXPECT_NE(replaced.exit_code, 2) << replaced.err;
    EXPECT_EQ(read_text(json).rfind("{", 0), 0u) << "the JSON report replaced the earlier file";
}

TEST_F(OutputSafety, ADeviceIsNoReportFileAndAFailedWriteIsExitTwo) {
    const fs::path result = short_result();
    const fs::path references = references_recorded_from(result, dir_, capture());
    // /dev/full: before, the summary was lost and the command exited 0 (or 1 for the missing entry).
    const cli_outcome device =
        run_cli({"reference", "check", result.string(), "--reference-dir", references.string(), "--json", "/dev/full"},
                capture());
    expect_one_line_exit_two(device, "is not a regular file", "/dev/full");
    // A full disk, as a file size limit of 0 bytes makes every write fail (EFBIG).
    const fs::path json = dir_ / "check.json";
    const cli_outcome full = run_cli_with_file_size_limit(
        {"reference", "check", result.string(), "--reference-dir", references.string(), "--json", json.string()}, 0);
    expect_one_line_exit_two(full, "cannot write", "write past the file size limit");
    EXPECT_FALSE(fs::exists(json)) << "no truncated report";
    for (const auto& entry : fs::directory_iterator(dir_))
        EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

TEST_F(OutputSafety, BenchCsvReplacesNeitherAResultNorTheFitsFileBesideIt) {
    const fs::path result = short_result("run.h5");
    const std::string before = bytes_of(result);
    const std::vector<std::string> bench{"bench",         "fcc", "--backend",    "cpu",
                                         "--sizes-cells", "1",   "--precision",  "hi=f64,int=f64",
                                         "--cpu-steps",   "1",   "--cpu-warmup", "0"};
    std::vector<std::string> args = bench;
    args.insert(args.end(), {"--csv", result.string()});
    expect_one_line_exit_two(run_cli(args, capture()), "output file exists; use --force to replace it", "--csv run.h5");
    EXPECT_TRUE(bytes_of(result) == before);
    // The fits go to <name>_fits<ext>: `--csv run_all.h5` would have replaced run_all_fits.h5.
    const fs::path fits = dir_ / "new_fits.h5";
    fs::copy_file(result, fits);
    args = bench;
    args.insert(args.end(), {"--csv", (dir_ / "new.h5").string()});
    expect_one_line_exit_two(run_cli(args, capture()), "new_fits.h5: output file exists", "fits file");
    EXPECT_TRUE(bytes_of(fits) == before);
    EXPECT_FALSE(fs::exists(dir_ / "new.h5"));
}

TEST_F(OutputSafety, AnEarlierPortCheckReportIsKeptWithoutForce) {
    const fs::path a = dir_ / "a.h5", report = dir_ / "report";
    ASSERT_EQ(run_cli({"port-check", "record", a.string(), "--configs", "tetrahedron", "--precision", "hi=f64,int=f64"},
                      capture())
                  .exit_code,
              0);
    const std::vector<std::string> compare{"port-check", "compare",       a.string(),  a.string(),
                                           "--report",   report.string(), "--no-plots"};
    ASSERT_EQ(run_cli(compare, capture()).exit_code, 0);
    std::ofstream(report / "report.md") << "the earlier report";
    expect_one_line_exit_two(run_cli(compare, capture()), "report.md: output file exists", "second report");
    EXPECT_EQ(read_text(report / "report.md"), "the earlier report");
    std::vector<std::string> forced = compare;
    forced.push_back("--force");
    EXPECT_EQ(run_cli(forced, capture()).exit_code, 0);
    EXPECT_NE(read_text(report / "report.md").find("# Port check"), std::string::npos);
}

TEST_F(OutputSafety, AnEarlierSuiteSummaryIsKeptWithoutForce) {
    const fs::path manifest = dir_ / "two.toml", results = dir_ / "results";
    std::ofstream(manifest) << "[defaults]\nscenario = \"" << tetrahedron_toml
                            << "\"\nprecision = \"hi=f64,int=f64\"\ndt = 0.01\ntime = 0.1\nsample_every = 0.05\n\n"
                               "[[run]]\nname = \"a\"\n\n[[run]]\nname = \"b\"\n";
    const cli_outcome first =
        run_cli({"suite", "run", manifest.string(), "--only", "a", "--output-dir", results.string()}, capture());
    ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
    const std::string summary = read_text(results / "suite-summary.json");
    ASSERT_NE(summary.find("\"name\":\"a\""), std::string::npos) << summary;
    const cli_outcome second =
        run_cli({"suite", "run", manifest.string(), "--only", "b", "--output-dir", results.string()}, capture());
    expect_one_line_exit_two(second, "suite-summary.json: output file exists", "second suite");
    EXPECT_EQ(read_text(results / "suite-summary.json"), summary);
    EXPECT_FALSE(fs::exists(results / "b.h5")) << "refused before the first run";
}

// ---- item 2: names read back from a file -----------------------------------------------------------

TEST_F(OutputSafety, AResultWhoseScenarioNameLeavesTheReferenceDirectoryIsRefused) {
    const fs::path result = short_result();
    {
        // What an edited (or hostile) result file says its scenario is.
        namespace h5 = io::hdf5;
        const h5::file file(h5::check(H5Fopen(result.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "opening the result"));
        const h5::group group(
            h5::check(H5Gopen2(file.get(), "/parameters/scenario", H5P_DEFAULT), "opening the group"));
        io::write_string_attribute(group.get(), "name", "../escaped");
    }
    const fs::path references = dir_ / "references";
    const std::string checks =
        std::string(::stokesian::test_support::project_source_dir) + "/reference_data/checks.toml";
    const cli_outcome o =
        run_cli({"reference", "record", result.string(), "--reference-dir", references.string(), "--checks", checks},
                capture());
    expect_one_line_exit_two(o, "/parameters/scenario name", "record");
    EXPECT_NE(o.err.find("not a safe file name"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "escaped.h5")) << "written outside --reference-dir";
    EXPECT_THROW(regression::read_observed_run(result), input_error);
}
