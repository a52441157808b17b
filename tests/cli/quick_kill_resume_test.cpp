// Kill and signals with the built CLI as a real child process: a run killed with SIGKILL at a
// random moment leaves a readable checkpoint (or none yet: the run starts over), and `stokesian
// run --resume` completes it bitwise identical to an uninterrupted run whatever the kill did to
// the partial output; SIGINT/SIGTERM stop after the current step with a checkpoint and a valid,
// closed file (exit 130/143) that --resume continues. The long label's long_kill_resume_test.cpp
// repeats the random kills 2000 times (tests/support/kill_resume.hpp holds the machinery).
//
// The kill moments are random; the seed is printed and STOKESIAN_KILL_SEED replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/h5md_comparison.hpp"
#include "support/kill_resume.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;
using test_support::cli_process;
using test_support::file_bytes;
using test_support::json_field;
using test_support::run_cli;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

// About two million steps (one to three seconds on one core), a checkpoint every 50 000 steps.
std::vector<std::string> long_run(const fs::path& out) {
    return {"run", tetrahedron_toml, "--time", "20000", "--sample-every", "10",    "--checkpoint-every",
            "500", "--threads",      "1",      "-o",    out.string(),     "--json"};
}

class KillResume : public stokesian::test_support::scratch_directory_test {
protected:
    KillResume() : scratch_directory_test("stokesian_kill") {}
    void SetUp() override {
        scratch_directory_test::SetUp();
        fs::create_directories(dir_ / "capture");
    }

    // The uninterrupted run every interrupted one is compared with.
    const cli_outcome& reference() {
        if (reference_.exit_code < 0) {
            const auto start = std::chrono::steady_clock::now();
            reference_ = run_cli(long_run(dir_ / "reference.h5"), capture());
            reference_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            EXPECT_EQ(reference_.exit_code, 0) << reference_.err;
        }
        return reference_;
    }

    void expect_same_as_reference(const fs::path& out, const cli_outcome& last, const std::string& what) {
        EXPECT_EQ(test_support::difference_from_reference(out, last, dir_ / "reference.h5", reference()), "") << what;
    }

    fs::path capture() const { return dir_ / "capture"; }
    cli_outcome reference_;
    double reference_seconds_ = 0;  // wall time of the uninterrupted run: kill moments scale with it
};

unsigned kill_seed() {
    if (const char* text = std::getenv("STOKESIAN_KILL_SEED"))
        return static_cast<unsigned>(std::strtoul(text, nullptr, 10));
    return std::random_device{}();
}

}  // namespace

TEST_F(KillResume, SigkillAtRandomMomentsThenResumeIsBitwiseTheUninterruptedRun) {
    reference();
    const unsigned seed = kill_seed();
    std::cout << "kill seed " << seed << " (STOKESIAN_KILL_SEED replays it)\n";
    std::mt19937 rng(seed);
    // Kill moments are drawn from the uninterrupted run's whole wall time (measured above, process
    // start included), so a fast machine (CI) and a slow one (sanitizers) both kill anywhere: during
    // set-up, before the first checkpoint, inside a frame or checkpoint write, at the end. The
    // first run and the first resume (or restart) of each trial are killed.
    int kills = 0, before_first_checkpoint = 0;
    for (int trial = 0; trial < 4; ++trial) {
        const std::string what = "trial " + std::to_string(trial) + ", seed " + std::to_string(seed);
        const fs::path out = dir_ / ("killed_" + std::to_string(trial) + ".h5");
        const test_support::kill_record r =
            test_support::kill_until_complete(long_run(out), out, capture(), rng, reference_seconds_, 2);
        kills += r.kills;
        before_first_checkpoint += r.before_first_checkpoint;
        for (const std::string& problem : r.problems) ADD_FAILURE() << what << ": " << problem;
        expect_same_as_reference(out, r.last, what + ", " + std::to_string(r.kills) + " kills");
    }
    std::cout << kills << " kills, " << before_first_checkpoint << " before the first checkpoint\n";
    EXPECT_GE(kills, 1) << "every run finished before its kill";
}

TEST_F(KillResume, SigintAndSigtermCheckpointCloseTheFileAndResumeBitwise) {
    reference();
    for (const int sig : {SIGINT, SIGTERM}) {
        const std::string what = "signal " + std::to_string(sig);
        const fs::path out = dir_ / ("signalled_" + std::to_string(sig) + ".h5");
        cli_process child(long_run(out), capture());
        ASSERT_TRUE(test_support::wait_for_file(fs::path(out) += ".partial", std::chrono::seconds(60))) << what;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        child.signal(sig);
        const cli_outcome stopped = child.wait();
        if (stopped.exit_code == 0) GTEST_SKIP() << "the run finished before the signal (a fast machine)";
        ASSERT_EQ(stopped.exit_code, 128 + sig) << what << ": " << stopped.err;
        // One line on stderr telling how to continue; a valid, closed file with the status.
        EXPECT_EQ(std::count(stopped.err.begin(), stopped.err.end(), '\n'), 1) << stopped.err;
        EXPECT_NE(stopped.err.find("--resume " + out.string()), std::string::npos) << stopped.err;
        ASSERT_TRUE(fs::exists(out)) << what;
        EXPECT_FALSE(fs::exists(fs::path(out) += ".partial")) << what;
        {
            const io::h5md_file f(out);
            const std::string status = f.string_attribute("/parameters/run", "status").value_or("");
            EXPECT_EQ(status.rfind("interrupted by signal " + std::to_string(sig) + " at step", 0), 0u) << status;
            EXPECT_TRUE(f.exists("/analysis/cycle/period")) << "the interrupted file holds its results";
        }
        ASSERT_TRUE(fs::exists(io::checkpoint_path_for(out))) << what;
        expect_same_as_reference(out, run_cli({"run", "--resume", out.string(), "--json"}, capture()), what);
    }
}

TEST_F(KillResume, ResumeRefusesAnotherRunsSettingsAndTouchesNothing) {
    const fs::path out = dir_ / "t.h5";
    cli_process child(long_run(out), capture());
    ASSERT_TRUE(test_support::wait_for_file(fs::path(out) += ".partial", std::chrono::seconds(60)));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    child.signal(SIGINT);
    if (child.wait().exit_code == 0) GTEST_SKIP() << "the run finished before the signal (a fast machine)";
    const fs::path checkpoint = io::checkpoint_path_for(out);
    const std::string output_before = file_bytes(out), checkpoint_before = file_bytes(checkpoint);
    struct refusal {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::vector<refusal> refusals{
        {{"run", tetrahedron_toml, "--resume", out.string(), "--time", "20000", "--sample-every", "10", "--dt", "0.02"},
         "key 'dt'"},
        {{"run", tetrahedron_toml, "--resume", out.string(), "--time", "20000", "--sample-every", "10", "--precision",
          "hi=ds,int=ds"},
         "key 'precision'"},
        {{"run", tetrahedron_toml, "--resume", out.string()}, "key 'total_steps'"},
        {{"run", "--resume", out.string(), "--backend", "cpu", "--hi-kernel", "symmetric"}, "key 'hi_kernel'"},
        {{"run", "--resume", out.string(), "--case", "x"}, "--case needs the SCENARIO file"},
        {{"run", "--resume", (dir_ / "elsewhere.h5").string()}, "no checkpoint to resume from"},
        {{"run", tetrahedron_toml, "-o", out.string(), "--time", "20000"}, "--resume " + out.string()},
    };
    for (const refusal& r : refusals) {
        const cli_outcome o = run_cli(r.args, capture());
        EXPECT_EQ(o.exit_code, 2) << r.expected << ": " << o.err;
        EXPECT_NE(o.err.find(r.expected), std::string::npos) << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "one line: " << o.err;
    }
    EXPECT_EQ(file_bytes(out), output_before) << "a refused resume leaves the output as it was";
    EXPECT_EQ(file_bytes(checkpoint), checkpoint_before);
    const cli_outcome done = run_cli({"run", "--resume", checkpoint.string(), "--json"}, capture());
    EXPECT_EQ(done.exit_code, 0) << done.err;
    EXPECT_EQ(json_field(done.out, "status"), "completed");
}

TEST_F(KillResume, WallClockCheckpointsAlsoResumeBitwise) {
    // Checkpoints by the clock land on arbitrary steps, between samples.
    reference();
    const fs::path out = dir_ / "wall.h5";
    std::vector<std::string> args{"run", tetrahedron_toml,    "--time", "20000",     "--sample-every",
                                  "10",  "--checkpoint-wall", "0.05",   "--threads", "1",
                                  "-o",  out.string(),        "--json"};
    cli_process child(args, capture());
    ASSERT_TRUE(test_support::wait_for_file(io::checkpoint_path_for(out), std::chrono::seconds(60)));
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    child.signal(SIGKILL);
    if (child.wait().exit_code != 128 + SIGKILL) GTEST_SKIP() << "the run finished before the kill (a fast machine)";
    const std::uint64_t step = io::read_checkpoint(io::checkpoint_path_for(out)).engine.step;
    std::cout << "checkpoint by the clock at step " << step << "\n";
    // The reference was written with --checkpoint-every 500; the checkpoint interval is not part
    // of the run's identity, so the outputs must agree all the same.
    expect_same_as_reference(out, run_cli({"run", "--resume", out.string(), "--json"}, capture()), "wall clock");
}

namespace {

// Runs `args` until its first checkpoint exists, then kills it with SIGKILL; false when the run
// finished first.
bool kill_after_first_checkpoint(const std::vector<std::string>& args, const fs::path& out, const fs::path& capture) {
    cli_process child(args, capture);
    if (!test_support::wait_for_file(io::checkpoint_path_for(out), std::chrono::seconds(60))) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    child.signal(SIGKILL);
    return child.wait().exit_code == 128 + SIGKILL;
}

}  // namespace

TEST_F(KillResume, AKillBetweenTheFinalRenameAndTheCheckpointRemovalIsACompletedRunForEveryCommand) {
    // Issue #18.5: that state made --resume say "status completed" (exit 2) and a new run say
    // "continue with --resume". It is made here exactly: the checkpoint and frame journal of a
    // killed run, kept aside, put back beside the output its resume completed.
    reference();
    const fs::path out = dir_ / "leftover.h5", checkpoint = io::checkpoint_path_for(out);
    const fs::path journal = fs::path(out) += ".frames";
    ASSERT_TRUE(kill_after_first_checkpoint(long_run(out), out, capture())) << "the run finished before the kill";
    const std::string checkpoint_bytes = file_bytes(checkpoint), journal_bytes = file_bytes(journal);
    const cli_outcome resumed = run_cli({"run", "--resume", out.string(), "--json"}, capture());
    expect_same_as_reference(out, resumed, "the resume");
    std::ofstream(checkpoint, std::ios::binary) << checkpoint_bytes;
    std::ofstream(journal, std::ios::binary) << journal_bytes;
    const std::string output_bytes = file_bytes(out);

    // A new run: the output exists and is a completed run's (one line, exit 2, nothing touched).
    const cli_outcome again = run_cli(long_run(out), capture());
    EXPECT_EQ(again.exit_code, 2) << again.err;
    EXPECT_NE(again.err.find("the run completed"), std::string::npos) << again.err;
    EXPECT_EQ(std::count(again.err.begin(), again.err.end(), '\n'), 1) << again.err;
    EXPECT_EQ(file_bytes(out), output_bytes);
    EXPECT_EQ(file_bytes(checkpoint), checkpoint_bytes);
    // --resume: completed, exit 0, the leftovers removed, the output as it was.
    const cli_outcome done = run_cli({"run", "--resume", out.string(), "--json"}, capture());
    expect_same_as_reference(out, done, "the resume of a completed run");
    EXPECT_EQ(file_bytes(out), output_bytes);
}

TEST_F(KillResume, AKilledRunsPartialOutputNamesItsRunAndItsResumeNeedsNoPartial) {
    // Issue #17.5: /parameters (scenario, settings, build, command line) is written and flushed
    // when the output is created, so the partial output of a killed run says what it was, with or
    // without a trajectory. Issue #18.5: the resume rebuilds the output from the checkpoint and the
    // frame journal, so it completes bitwise even when the partial output is gone or garbage.
    reference();
    for (const bool trajectory : {true, false}) {
        const std::string what = trajectory ? "with a trajectory" : "--no-trajectory";
        const fs::path out = dir_ / (trajectory ? "named.h5" : "named_observables.h5");
        std::vector<std::string> args = long_run(out);
        if (!trajectory) args.push_back("--no-trajectory");
        ASSERT_TRUE(kill_after_first_checkpoint(args, out, capture())) << what << ": the run finished before the kill";
        const fs::path partial = fs::path(out) += ".partial";
        ASSERT_TRUE(fs::exists(partial)) << what;
        {
            const io::h5md_file f(partial);
            EXPECT_EQ(f.string_attribute("/parameters/scenario", "source_text"),
                      test_support::read_text(tetrahedron_toml))
                << what;
            EXPECT_EQ(f.string_attribute("/parameters/run", "status"), "running") << what;
            EXPECT_EQ(f.parameter_attribute("/parameters/run", "planned_steps"), "2000000") << what;
            EXPECT_TRUE(f.exists("/parameters/build")) << what;
            EXPECT_TRUE(f.exists("/parameters/invocation")) << what;
            EXPECT_TRUE(f.exists("/parameters/engine")) << what;
        }
        std::ofstream(partial, std::ios::binary | std::ios::trunc) << "what a kill may leave of an HDF5 file";
        const cli_outcome resumed = run_cli({"run", "--resume", out.string(), "--json"}, capture());
        if (trajectory) {
            expect_same_as_reference(out, resumed, what);
        } else {
            std::vector<std::string> uninterrupted = long_run(dir_ / "observables_only.h5");
            uninterrupted.push_back("--no-trajectory");
            EXPECT_EQ(test_support::difference_from_reference(out, resumed, dir_ / "observables_only.h5",
                                                              run_cli(uninterrupted, capture())),
                      "");
        }
    }
}
