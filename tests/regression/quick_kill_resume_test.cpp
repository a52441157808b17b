// Kill and signals with the built CLI as a real child process: a run killed with SIGKILL at a
// random moment leaves a readable partial output and checkpoint, and `stokesian run --resume`
// completes it bitwise identical to an uninterrupted run; SIGINT/SIGTERM stop after the current
// step with a checkpoint and a valid, closed file (exit 130/143) that --resume continues.
//
// The kill moments are random; the seed is printed and STOKESIAN_KILL_SEED replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <chrono>
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
#include "support/cli_process.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;
using test_support::cli_process;
using test_support::run_cli;

namespace {

const std::string tetrahedron = std::string(STOKESIAN_SOURCE_DIR) + "/scenarios/tetrahedron.toml";

// About two million steps (one to three seconds on one core), a checkpoint every 50 000 steps.
std::vector<std::string> long_run(const fs::path& out) {
    return {"run", tetrahedron, "--time", "20000", "--sample-every", "10", "--checkpoint-every", "500", "--threads", "1",
            "-o", out.string(), "--json"};
}

std::string json_field(const std::string& json, const std::string& key) {
    const std::string tag = "\"" + key + "\":\"";
    const auto at = json.find(tag);
    if (at == std::string::npos) return "";
    const auto begin = at + tag.size();
    return json.substr(begin, json.find('"', begin) - begin);
}

bool wait_for(const fs::path& path, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!fs::exists(path)) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
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
        ASSERT_EQ(last.exit_code, 0) << what << ": " << last.err;
        EXPECT_EQ(json_field(last.out, "status"), "completed") << what;
        EXPECT_EQ(json_field(last.out, "final_state_digest"), json_field(reference().out, "final_state_digest")) << what;
        EXPECT_EQ(test_support::first_difference((dir_ / "reference.h5").string(), out.string()), "") << what;
        EXPECT_FALSE(fs::exists(io::checkpoint_path_for(out))) << what;
        EXPECT_FALSE(fs::exists(fs::path(out) += ".partial")) << what;
    }

    fs::path capture() const { return dir_ / "capture"; }
    cli_outcome reference_;
    double reference_seconds_ = 0;  // wall time of the uninterrupted run: kill moments scale with it
};

unsigned kill_seed() {
    if (const char* text = std::getenv("STOKESIAN_KILL_SEED")) return static_cast<unsigned>(std::strtoul(text, nullptr, 10));
    return std::random_device{}();
}

}  // namespace

TEST_F(KillResume, SigkillAtRandomMomentsThenResumeIsBitwiseTheUninterruptedRun) {
    reference();
    const unsigned seed = kill_seed();
    std::cout << "kill seed " << seed << " (STOKESIAN_KILL_SEED replays it)\n";
    std::mt19937 rng(seed);
    // Kill moments are drawn from the first 60 % of the uninterrupted run's wall time (measured
    // above), so a fast machine (CI) and a slow one (sanitizers) both kill mid-run. A run that
    // still outpaces its kill (load from parallel tests) is started again with half the window.
    const double window = 0.6 * reference_seconds_;
    for (int trial = 0; trial < 5; ++trial) {
        const std::string what = "trial " + std::to_string(trial) + ", seed " + std::to_string(seed);
        const fs::path out = dir_ / ("killed_" + std::to_string(trial) + ".h5");
        const fs::path checkpoint = io::checkpoint_path_for(out), partial = fs::path(out) += ".partial";
        int kills = 0;
        cli_outcome last;
        for (int restart = 0; restart < 6 && kills == 0; ++restart) {
            fs::remove(out), fs::remove(checkpoint), fs::remove(partial);
            const double scale = std::ldexp(1.0, -restart);
            // The first run and, on odd trials, the first resume die by SIGKILL at a random moment
            // after a checkpoint exists (a kill may land inside a checkpoint or a frame write).
            for (int attempt = 0;; ++attempt) {
                std::vector<std::string> args = attempt == 0 ? long_run(out)
                                                             : std::vector<std::string>{"run", "--resume", out.string(), "--json"};
                const auto started = std::chrono::steady_clock::now();
                cli_process child(args, capture());
                const bool kill_this = attempt == 0 || (attempt == 1 && trial % 2 == 1);
                if (kill_this) {
                    ASSERT_TRUE(wait_for(checkpoint, std::chrono::seconds(60))) << what << ": no checkpoint appeared";
                    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                    const double room = std::max(0.0, scale * window - waited);
                    std::this_thread::sleep_for(std::chrono::duration<double>(std::uniform_real_distribution<double>(0, room)(rng)));
                    child.signal(SIGKILL);
                }
                last = child.wait();
                if (last.exit_code != 128 + SIGKILL) break;  // finished before the kill landed, or a resume completed
                ++kills;
                // What a kill leaves behind is readable: the checkpoint, and the partial output.
                ASSERT_NO_THROW(io::read_checkpoint(checkpoint)) << what;
                ASSERT_TRUE(fs::exists(partial)) << what;
                EXPECT_NO_THROW(io::h5md_file{partial}) << what;
            }
        }
        EXPECT_GE(kills, 1) << what << " (six runs finished before their kill)";
        expect_same_as_reference(out, last, what + ", " + std::to_string(kills) + " kills");
    }
}

TEST_F(KillResume, SigintAndSigtermCheckpointCloseTheFileAndResumeBitwise) {
    reference();
    for (const int sig : {SIGINT, SIGTERM}) {
        const std::string what = "signal " + std::to_string(sig);
        const fs::path out = dir_ / ("signalled_" + std::to_string(sig) + ".h5");
        cli_process child(long_run(out), capture());
        ASSERT_TRUE(wait_for(fs::path(out) += ".partial", std::chrono::seconds(60))) << what;
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
    ASSERT_TRUE(wait_for(fs::path(out) += ".partial", std::chrono::seconds(60)));
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
        {{"run", tetrahedron, "--resume", out.string(), "--time", "20000", "--sample-every", "10", "--dt", "0.02"},
         "key 'dt'"},
        {{"run", tetrahedron, "--resume", out.string(), "--time", "20000", "--sample-every", "10", "--precision",
          "hi=ds,int=ds"},
         "key 'precision'"},
        {{"run", tetrahedron, "--resume", out.string()}, "key 'total_steps'"},
        {{"run", "--resume", out.string(), "--backend", "cpu", "--hi-kernel", "symmetric"}, "key 'hi_kernel'"},
        {{"run", "--resume", out.string(), "--case", "x"}, "--case needs the SCENARIO file"},
        {{"run", "--resume", (dir_ / "elsewhere.h5").string()}, "no checkpoint to resume from"},
        {{"run", tetrahedron, "-o", out.string(), "--time", "20000"}, "--resume " + out.string()},
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
    std::vector<std::string> args{"run", tetrahedron, "--time", "20000", "--sample-every", "10", "--checkpoint-wall",
                                  "0.05", "--threads", "1", "-o", out.string(), "--json"};
    cli_process child(args, capture());
    ASSERT_TRUE(wait_for(io::checkpoint_path_for(out), std::chrono::seconds(60)));
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    child.signal(SIGKILL);
    if (child.wait().exit_code != 128 + SIGKILL) GTEST_SKIP() << "the run finished before the kill (a fast machine)";
    const std::uint64_t step = io::read_checkpoint(io::checkpoint_path_for(out)).engine.step;
    std::cout << "checkpoint by the clock at step " << step << "\n";
    // The reference was written with --checkpoint-every 500; the checkpoint interval is not part
    // of the run's identity, so the outputs must agree all the same.
    expect_same_as_reference(out, run_cli({"run", "--resume", out.string(), "--json"}, capture()), "wall clock");
}
