// Option values and limits that once hung or ran away (issue #27), through the built CLI: each is
// one short line naming the option (or key) and what is expected, exit code 2, nothing written.
// Every command is bounded in time: a value that is not refused would run for hours or for ever
// (bench --warmup -1 warmed up for 2^64 - 1 steps; a thread that could not be started deadlocked
// the thread pool's unwinding, deaf to SIGTERM).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/cli_scratch.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli_at_most;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

class HostileOptions : public stokesian::test_support::cli_scratch_test {
protected:
    HostileOptions() : cli_scratch_test("stokesian_hostile_options") {}
};

void expect_one_short_line_exit_two(const cli_outcome& o, const std::string& expected, const std::string& what) {
    EXPECT_EQ(o.exit_code, 2) << what << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": not one line: " << o.err;
    EXPECT_EQ(o.err.rfind("stokesian: ", 0), 0u) << what << ": " << o.err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << what << ": expected '" << expected << "' in: " << o.err;
    EXPECT_LT(o.err.size(), 300u) << what << ": a bound printed in 309 digits?";
}

// `cli_program() args...` with an address-space limit of `bytes` (RLIMIT_AS, set in the child
// only), as a batch system sets one; stdout discarded, stderr returned. SIGKILLed after `seconds`.
cli_outcome run_cli_with_address_space_limit(const std::vector<std::string>& args, rlim_t bytes, const fs::path& dir,
                                             double seconds) {
    const fs::path err_path = dir / "limited_stderr";
    const std::string cli = stokesian::test_support::cli_program();
    std::vector<char*> argv{const_cast<char*>(cli.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!std::freopen("/dev/null", "w", stdout) || !std::freopen(err_path.c_str(), "w", stderr)) ::_exit(126);
        const rlimit limit{bytes, bytes};
        if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(125);
        ::execv(cli.c_str(), argv.data());
        ::_exit(127);
    }
    int status = 0;
    for (double waited = 0.0; ::waitpid(pid, &status, WNOHANG) == 0; waited += 0.01) {
        if (waited >= seconds) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            break;
        }
        ::usleep(10000);
    }
    cli_outcome o;
    o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.err = stokesian::test_support::read_text(err_path);
    fs::remove(err_path);
    return o;
}

}  // namespace

TEST_F(HostileOptions, SecondsOutsideTheirRangeAreOneShortLine) {
    struct option_case {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::string heartbeat = "expected a finite number of seconds >= 0 (0: none)";
    const std::string limit = "expected a finite number of seconds > 0";
    const std::string wall = "expected a finite number of seconds >= 0 (0: no wall-clock checkpoints)";
    const std::vector<option_case> cases{
        {{"run", tetrahedron_toml, "--heartbeat", "-1", "-o", out()}, "--heartbeat: -1: " + heartbeat},
        {{"run", tetrahedron_toml, "--heartbeat", "nan", "-o", out()}, "--heartbeat: nan: " + heartbeat},
        {{"run", tetrahedron_toml, "--heartbeat", "inf", "-o", out()}, "--heartbeat: inf: " + heartbeat},
        {{"run", tetrahedron_toml, "--first-step-limit", "-1", "-o", out()}, "--first-step-limit: -1: " + limit},
        {{"run", tetrahedron_toml, "--first-step-limit", "0", "-o", out()}, "--first-step-limit: 0: " + limit},
        {{"run", tetrahedron_toml, "--first-step-limit", "nan", "-o", out()}, "--first-step-limit: nan: " + limit},
        {{"run", tetrahedron_toml, "--first-step-limit", "inf", "-o", out()}, "--first-step-limit: inf: " + limit},
        {{"run", tetrahedron_toml, "--checkpoint-wall", "-1e300", "-o", out()}, "--checkpoint-wall: -1e300: " + wall},
        {{"run", tetrahedron_toml, "--checkpoint-wall", "nan", "-o", out()}, "--checkpoint-wall: nan: " + wall},
        {{"suite", "run", tetrahedron_toml, "--heartbeat", "-1", "--output-dir", (work() / "suite").string()},
         "--heartbeat: -1: " + heartbeat},
    };
    for (const auto& c : cases) {
        const cli_outcome o = run_cli_at_most(20.0, c.args, capture());
        expect_one_short_line_exit_two(o, c.expected, c.args[2] + " " + c.args[3]);
        EXPECT_TRUE(fs::is_empty(work())) << c.args[2] << " " << c.args[3] << ": nothing may be written";
    }
}

// Bench counts go through the step-count rule (stokesian/core/step_count.hpp); where 0 has a
// meaning (no warm-up, never reset) it is allowed and named.
TEST_F(HostileOptions, BenchCountsFollowTheStepCountRule) {
    const std::string most = " to 2^53 = 9007199254740992";
    struct count_case {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::vector<count_case> cases{
        {{"bench", "steps", tetrahedron_toml, "--warmup", "-1"},
         "--warmup: -1: expected a whole number of steps from 0" + most + " (0: none)"},
        {{"bench", "steps", tetrahedron_toml, "--warmup", "18446744073709551615"},
         "--warmup: 18446744073709551615: expected a whole number of steps from 0" + most},
        {{"bench", "steps", tetrahedron_toml, "--warmup", "9007199254740993"}, "--warmup: 9007199254740993: expected"},
        {{"bench", "fcc", "--backend", "cpu", "--sizes-cells", "2", "--warmup", "-1"},
         "--warmup: -1: expected a whole number of steps"},
        {{"bench", "fcc", "--backend", "cpu", "--sizes-cells", "2", "--steps", "0"},
         "--steps: 0: expected a whole number of steps from 1" + most},
        {{"bench", "fcc", "--backend", "cpu", "--sizes-cells", "2", "--min-steps", "-3"}, "--min-steps: -3: expected"},
        {{"bench", "fcc", "--backend", "cpu", "--sizes-cells", "2", "--reset-every", "1e3"},
         "--reset-every: 1e3: expected"},
        {{"bench", "fcc", "--backend", "cpu", "--sizes-cells", "2", "--cpu-steps", "18446744073709551615"},
         "--cpu-steps: 1844674407"},
        {{"bench", "fcc", "--backend", "cpu", "--sizes-cells", "2", "--cpu-warmup", "-1"},
         "--cpu-warmup: -1: expected"},
    };
    for (const auto& c : cases) {
        const cli_outcome o = run_cli_at_most(20.0, c.args, capture());
        expect_one_short_line_exit_two(o, c.expected, c.args[1] + " " + c.args[c.args.size() - 2]);
    }
    // 0 warm-up steps: none, not a tenth.
    const cli_outcome none = run_cli_at_most(60.0,
                                             {"bench", "steps", tetrahedron_toml, "--steps", "2", "--warmup", "0",
                                              "--threads", "1", "--precision", "hi=f64,int=f64"},
                                             capture());
    EXPECT_EQ(none.exit_code, 0) << none.err;
}

TEST_F(HostileOptions, AbsurdThreadCountsAreRefusedWithTheRange) {
    for (const std::string threads : {"4294967295", "4097", "-1"}) {
        const cli_outcome o =
            run_cli_at_most(20.0, {"run", tetrahedron_toml, "--threads", threads, "-o", out()}, capture());
        expect_one_short_line_exit_two(o, "--threads: Value " + threads + " not in range 0 to 4096", threads);
        EXPECT_TRUE(fs::is_empty(work())) << threads << ": nothing may be written";
    }
}

// A worker thread that cannot be started (here: no address space left for its stack, as under a
// batch system's memory limit) unwinds the pool into one line, exit code 2, with nothing left
// behind; the run used to deadlock there, where no SIGTERM (nor `timeout`) could end it.
// AddressSanitizer reserves terabytes of address space for its shadow memory, so an instrumented CLI
// cannot start under any address-space limit: the check runs in the uninstrumented build (the quick
// label), the pool's unwinding itself under the sanitizers too
// (ThreadPool.AWorkerThatCannotBeStartedUnwindsThePoolIntoOneInputError).
#if defined(__SANITIZE_ADDRESS__)
#define STOKESIAN_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STOKESIAN_ADDRESS_SANITIZER 1
#endif
#endif

TEST_F(HostileOptions, AThreadThatCannotBeStartedIsOneLineExitTwo) {
#if defined(STOKESIAN_ADDRESS_SANITIZER)
    GTEST_SKIP() << "an address-space limit cannot be set under AddressSanitizer (its shadow memory)";
#endif
    const cli_outcome o = run_cli_with_address_space_limit(
        {"run", tetrahedron_toml, "--time", "1", "--threads", "4096", "-o", out()}, rlim_t{1} << 30, capture(), 60.0);
    expect_one_short_line_exit_two(o, "CPU threads = 4096: cannot start worker thread ", "--threads 4096 under 1 GiB");
    EXPECT_NE(o.err.find("ask for fewer threads"), std::string::npos) << o.err;
    EXPECT_TRUE(fs::is_empty(work())) << "nothing may be written";
}

// observables.cycle.window is checked against the run's sampling again once the command line has
// changed it (the loader's check: tests/inputs/bad/observable_cycle_window_*.toml).
TEST_F(HostileOptions, ACycleWindowShorterThanTheCommandLinesSamplingIsRefused) {
    const cli_outcome o =
        run_cli_at_most(60.0, {"run", tetrahedron_toml, "--sample-every", "20000", "-o", out()}, capture());
    expect_one_short_line_exit_two(o,
                                   "tetrahedron.toml: key 'observables.cycle.window' = 10000: expected a window of at "
                                   "least 20000 tau_s: one sample interval (run.sample_every = 20000)",
                                   "--sample-every 20000");
    EXPECT_TRUE(fs::is_empty(work())) << "nothing may be written";
}
