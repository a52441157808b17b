// `stokesian run` as a user meets it: a real child process, its exit code, its output file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "stokesian/io/h5md.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::io::h5md_file;
using outcome = stokesian::test_support::cli_outcome;
using stokesian::test_support::cli_process;
using stokesian::test_support::run_cli;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

class Cli : public stokesian::test_support::scratch_directory_test {
protected:
    Cli() : scratch_directory_test("stokesian_cli") {}
};

}  // namespace

TEST_F(Cli, RunWritesAValidH5mdFileAndAJsonSummary) {
    const fs::path out = dir_ / "t.h5";
    const outcome o = run_cli({"run", tetrahedron_toml, "--time", "20", "--output", out.string(), "--json"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("\"status\":\"completed\""), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("\"steps\":2000"), std::string::npos) << o.out;
    EXPECT_EQ(o.err, "");  // not a terminal: no progress line
    ASSERT_TRUE(fs::exists(out));
    EXPECT_FALSE(fs::exists(dir_ / "t.h5.partial"));
    const h5md_file f(out);
    EXPECT_EQ(f.shape("/particles/trajectory/position/value"), (std::vector<std::size_t>{21, 4, 3}));
    EXPECT_TRUE(f.exists("/h5md/creator"));
    EXPECT_EQ(f.shape("/particles/trajectory/box/edges/value"), (std::vector<std::size_t>{21, 3, 3}));
    EXPECT_EQ(f.string_attribute("/parameters/run", "precision"), "hi=f64,int=f64");
    EXPECT_EQ(f.string_attribute("/parameters/run", "status"), "completed");
    EXPECT_EQ(f.string_attribute("/parameters/engine", "backend"), "cpu");
    // The default kernel request (auto) and what it chose, in the provenance and the summary.
    EXPECT_NE(f.string_attribute("/parameters/scenario", "resolved_configuration")->find("hi_kernel = \"auto\""),
              std::string::npos);
    EXPECT_EQ(f.string_attribute("/parameters/engine", "hi_kernel"), "all-pairs");
    EXPECT_EQ(f.string_attribute("/parameters/engine", "hi_kernel_choice").value_or("").rfind("auto: all-pairs (", 0),
              0u);
    EXPECT_NE(o.out.find("\"hi_kernel_choice\":\"auto: all-pairs ("), std::string::npos) << o.out;
    EXPECT_TRUE(f.string_attribute("/parameters/scenario", "source_text")->find("[particles]") != std::string::npos);
    EXPECT_TRUE(f.string_attribute("/parameters/invocation", "command")->find("--json") != std::string::npos);
    EXPECT_TRUE(f.exists("/observables/symmetry_y1/value"));
}

TEST_F(Cli, OverridesAreRecordedAndPrecisionIsSelectable) {
    const fs::path out = dir_ / "t.h5";
    const outcome o = run_cli({"run", tetrahedron_toml, "--steps", "50", "--dt", "0.02", "--sample-every", "0.1",
                               "--precision", "hi=ds,int=f32", "-o", out.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const h5md_file f(out);
    EXPECT_EQ(f.string_attribute("/parameters/run", "precision"), "hi=ds,int=f32");
    EXPECT_EQ(f.parameter_attribute("/parameters/run", "dt"), "0.02");
    EXPECT_EQ(f.shape("/particles/trajectory/position/value"), (std::vector<std::size_t>{11, 4, 3}));
}

TEST_F(Cli, ExistingOutputIsKeptWithoutForceAndReplacedWithIt) {
    const fs::path out = dir_ / "t.h5";
    { std::ofstream(out) << "precious"; }
    const outcome refused = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", out.string()});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("output file exists; use --force"), std::string::npos) << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << "one line: " << refused.err;
    std::ifstream in(out);
    std::string content;
    in >> content;
    EXPECT_EQ(content, "precious");
    const outcome forced = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", out.string(), "--force"});
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_NO_THROW(h5md_file{out});
}

TEST_F(Cli, BadInputIsOneLineAndExitCodeTwo) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", (dir_ / "missing.toml").string()},
          std::vector<std::string>{"run", tetrahedron_toml, "--precision", "hi=f16,int=f32"},
          std::vector<std::string>{"run", tetrahedron_toml, "--dt", "-1"},
          std::vector<std::string>{"run", tetrahedron_toml, "--dt", "0.01", "--time", "0.015"},
          std::vector<std::string>{"run", tetrahedron_toml, "--backend", "quantum"},
          std::vector<std::string>{"run", tetrahedron_toml, "-o", (dir_ / "no" / "such" / "dir.h5").string()},
          std::vector<std::string>{"run"}}) {
        const outcome o = run_cli(args);
        EXPECT_EQ(o.exit_code, 2) << args.back() << ": " << o.err;
        EXPECT_FALSE(o.err.empty());
        EXPECT_TRUE(fs::is_empty(dir_)) << "nothing may be written";
    }
}

TEST_F(Cli, InterruptStopsCleanlyWithAValidClosedFile) {
    // 10^8 steps take minutes; SIGINT after the run has started must end it within a second,
    // with exit code 128 + SIGINT and a complete file under the final name.
    const fs::path out = dir_ / "t.h5";
    const auto start = std::chrono::steady_clock::now();
    cli_process run({"run", tetrahedron_toml, "--time", "1000000", "-o", out.string(), "--no-trajectory"},
                    fs::temp_directory_path());
    // Wait until the run has begun (the .partial file exists).
    for (int i = 0; i < 200 && !fs::exists(dir_ / "t.h5.partial"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    run.signal(SIGINT);
    const outcome o = run.wait();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(o.exit_code, 128 + SIGINT) << o.err;
    EXPECT_LT(seconds, 10.0);
    ASSERT_TRUE(fs::exists(out));
    const h5md_file f(out);
    const std::string status = f.string_attribute("/parameters/run", "status").value_or("");
    EXPECT_EQ(status.rfind("interrupted by signal 2 at step", 0), 0u) << status;
    EXPECT_TRUE(f.exists("/observables/centre_of_mass_z/value"));
}

// --dt alone keeps the scenario's run length as simulated time (docs/reference/cli.md, "stokesian run"),
// also when the scenario gives it in steps: it used to fail with "expected exactly one of run.time
// and run.steps" (issue #17.6).
TEST_F(Cli, DtAloneKeepsTheScenariosSimulatedTime) {
    std::string text = stokesian::test_support::read_text(tetrahedron_toml);
    const std::string length = "time = 5170.0";
    ASSERT_NE(text.find(length), std::string::npos);
    text.replace(text.find(length), length.size(), "steps = 100");  // 1 tau_s at dt = 0.01
    const fs::path scenario = dir_ / "steps.toml";
    std::ofstream(scenario) << text;
    const outcome o = run_cli({"run", scenario.string(), "--dt", "0.005", "-o", (dir_ / "t.h5").string(), "--json"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const auto summary = nlohmann::json::parse(o.out);
    EXPECT_EQ(summary.at("steps").get<std::uint64_t>(), 200u) << o.out;
    EXPECT_EQ(summary.at("simulated_time").get<double>(), 1.0) << o.out;
    // A dt that does not divide the kept length says so, and how to choose another.
    const outcome refused = run_cli({"run", scenario.string(), "--dt", "0.003", "-o", (dir_ / "u.h5").string()});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("(--dt keeps the scenario's run length of 1 tau_s; give --steps or --time for another)"),
              std::string::npos)
        << refused.err;
}

// An environment that cannot run the request is bad input (exit code 2, one line), not a blow-up
// (issue #17.7). Skipped where a CUDA device is present.
TEST_F(Cli, CudaWithoutADeviceIsOneLineExitTwo) {
    const outcome o =
        run_cli({"run", tetrahedron_toml, "--time", "1", "--backend", "cuda", "-o", (dir_ / "t.h5").string()});
    if (o.exit_code == 0) GTEST_SKIP() << "a CUDA device is present";
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_TRUE(o.err.find("key 'run.backend' = cuda: no CUDA device is available here") != std::string::npos ||
                o.err.find("key 'run.backend' = cuda: this build of stokesian has no CUDA backend") !=
                    std::string::npos)
        << o.err;
    EXPECT_TRUE(fs::is_empty(dir_)) << "nothing may be written";
}

// --backend auto chooses by the measured speed at the run's N: the tetrahedron (N = 4) runs on the
// CPU on every host, GPU or not, without a fallback notice, and the provenance (H5MD and --json)
// says why, naming the committed measurement.
TEST_F(Cli, AutoRunsTheTetrahedronOnTheCpuWhereMeasuredFasterAndSaysWhy) {
    const fs::path out = dir_ / "a.h5";
    const outcome o = run_cli(
        {"run", tetrahedron_toml, "--time", "1", "--backend", "auto", "--threads", "1", "-o", out.string(), "--json"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(o.err, "") << "a choice by measurement is no fallback to announce";
    const h5md_file f(out);
    EXPECT_EQ(f.string_attribute("/parameters/engine", "backend"), "cpu");
    const std::string why = f.string_attribute("/parameters/engine", "backend_choice").value_or("");
    EXPECT_EQ(why.rfind("auto: cpu (N = 4 <= 4", 0), 0u) << why;
    EXPECT_NE(why.find("gpu-runs/2026-11-27-h100-tetrahedron-cpu-cuda.csv"), std::string::npos) << why;
    EXPECT_NE(o.out.find("\"backend_choice\":\"auto: cpu (N = 4 <= 4"), std::string::npos) << o.out;
}

// The summary of a short run says what it measured: a sub-second time as such (not "0 s"), and
// no "nan" for a run without a complete cycle (issue #17.8).
TEST_F(Cli, SummaryOfAShortRunHasNoZeroSecondsAndNoNan) {
    const outcome o = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", (dir_ / "t.h5").string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(o.out.find(" in 0 s"), std::string::npos) << o.out;
    EXPECT_EQ(o.out.find("nan"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("  cycles: 0, no complete cycle: no mean period or amplitude\n"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find(" s, "), std::string::npos) << o.out;  // "in 0.0042 s, 2.4e+04 steps/s"
}

namespace {
// Runs the CLI with stderr on a pseudo-terminal (so it prints its progress line) for `seconds`,
// then SIGINT; returns everything it wrote there.
std::string progress_on_a_terminal(const std::vector<std::string>& args, double seconds) {
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return "";
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(slave, STDERR_FILENO);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        std::vector<char*> argv{const_cast<char*>(::stokesian::test_support::built_cli)};
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(::stokesian::test_support::built_cli, argv.data());
        ::_exit(127);
    }
    ::close(slave);
    std::string text;
    const auto start = std::chrono::steady_clock::now();
    bool interrupted = false;
    for (;;) {
        pollfd p{master, POLLIN, 0};
        if (::poll(&p, 1, 50) > 0) {
            char buffer[4096];
            const ssize_t got = ::read(master, buffer, sizeof buffer);
            if (got <= 0) break;  // EIO: the child closed the terminal
            text.append(buffer, static_cast<std::size_t>(got));
        }
        if (!interrupted && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
            ::kill(pid, SIGINT);
            interrupted = true;
        }
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(master);
    return text;
}
}  // namespace

// After --resume the progress line's rate is that of this process: steps since the checkpoint over
// its own wall time (it divided the absolute step, ~10x too fast here). Each line clears the
// previous one. The engine reports progress first after more than 0.25 s (run/run_session.cpp),
// so rate <= (step - checkpoint step) / 0.25 s, with 0.5% for the 3 digits printed.
TEST_F(Cli, ProgressAfterResumeCountsOnlyThisProcesssSteps) {
    const fs::path out = dir_ / "t.h5";
    cli_process first({"run", tetrahedron_toml, "--time", "1000000", "-o", out.string(), "--no-trajectory"},
                      fs::temp_directory_path());
    for (int i = 0; i < 500 && !fs::exists(dir_ / "t.h5.partial"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::seconds(2));
    first.signal(SIGINT);
    const outcome stopped = first.wait();
    ASSERT_EQ(stopped.exit_code, 128 + SIGINT) << stopped.err;
    const std::string marker = "checkpoint at step ";
    ASSERT_NE(stopped.err.find(marker), std::string::npos) << stopped.err;
    const double checkpoint_step = std::stod(stopped.err.substr(stopped.err.find(marker) + marker.size()));
    ASSERT_GT(checkpoint_step, 0.0);

    const std::string text = progress_on_a_terminal({"run", "--resume", out.string()}, 3.0);
    std::size_t lines = 0;
    for (std::size_t at = text.find('\r'); at != std::string::npos; at = text.find('\r', at + 1)) {
        const std::string line = text.substr(at + 1, text.find_first_of("\r\n", at + 1) - at - 1);
        if (line.find("steps/s") == std::string::npos) continue;
        ++lines;
        EXPECT_EQ(line.rfind("\033[K", 0), 0u) << "not cleared: " << line;
        const std::size_t step_at = line.find("step ") + 5, rate_end = line.find(" steps/s");
        const double step = std::stod(line.substr(step_at));
        const double rate = std::stod(line.substr(line.rfind(' ', rate_end - 1) + 1));
        EXPECT_LE(rate, (step - checkpoint_step) / 0.25 * 1.005)
            << line << " (resumed at step " << checkpoint_step << ")";
    }
    EXPECT_GE(lines, 1u) << text;  // 3 s: more than 0.25 s of stepping even on a loaded machine
}
