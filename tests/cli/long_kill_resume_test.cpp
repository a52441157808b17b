// Issue #18.5's proof, label long: at least 2000 SIGKILLs at random moments of short runs of the
// built CLI with frequent checkpoints, each run continued as a user would (`--resume` where a
// checkpoint exists, the same command again where none does yet) until it completes; every one
// must end bitwise identical to the uninterrupted run (final state digest, every frame, every
// observable series and analysis result) with nothing left beside the output, and after every
// kill the checkpoint (if any) must be readable and a readable partial output must name its run.
//
// Three kinds of run take turns: a trajectory with a checkpoint every 100 tau_s, observables only
// (--no-trajectory), and checkpoints by the wall clock (between samples). Trials run on several
// threads (STOKESIAN_KILL_WORKERS, default: the machine's cores); trial k draws its kill moments
// from seed_seq{seed, k}, so a seed replays the same kill schedule (STOKESIAN_KILL_SEED; where a
// kill lands also depends on the machine's speed). STOKESIAN_KILLS sets the number of kills
// (default 2000). About 9 minutes on 2 loaded cores (engine/docs/reliability.md has the last count).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include "support/build_paths.hpp"
#include "support/kill_resume.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

// 200 000 steps (a fraction of a second on one core), 2000 samples.
std::vector<std::string> short_run(int kind, const fs::path& out) {
    std::vector<std::string> args{"run", tetrahedron_toml, "--time", "2000", "--sample-every", "1", "--threads", "1",
                                  "-o",  out.string(),     "--json"};
    if (kind == 0) args.insert(args.end(), {"--checkpoint-every", "100"});
    if (kind == 1) args.insert(args.end(), {"--checkpoint-every", "100", "--no-trajectory"});
    if (kind == 2) args.insert(args.end(), {"--checkpoint-wall", "0.02"});
    return args;
}
constexpr int kinds = 3;

unsigned long environment_number(const char* name, unsigned long otherwise) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtoul(text, nullptr, 10) : otherwise;
}

class LongKillResume : public test_support::scratch_directory_test {
protected:
    LongKillResume() : scratch_directory_test("stokesian_long_kill") {}
    void TearDown() override {
        if (HasFailure()) std::cout << "the failed trials' files stay in " << dir_.string() << "\n";
        else scratch_directory_test::TearDown();
    }
};

}  // namespace

TEST_F(LongKillResume, TwoThousandRandomKillsAllResumeBitwise) {
    const unsigned seed = static_cast<unsigned>(environment_number("STOKESIAN_KILL_SEED", std::random_device{}()));
    const int target = static_cast<int>(environment_number("STOKESIAN_KILLS", 2000));
    const unsigned workers = static_cast<unsigned>(
        environment_number("STOKESIAN_KILL_WORKERS", std::max(1u, std::thread::hardware_concurrency())));
    std::cout << "kill seed " << seed << " (STOKESIAN_KILL_SEED replays it), " << target << " kills, " << workers
              << " workers\n";
    fs::create_directories(dir_ / "capture");

    // The uninterrupted runs, one per kind; their wall time (process start included) is the window
    // the kill moments are drawn from.
    std::vector<cli_outcome> reference(kinds);
    std::vector<double> window(kinds);
    for (int kind = 0; kind < kinds; ++kind) {
        const auto start = std::chrono::steady_clock::now();
        reference[kind] = test_support::run_cli(short_run(kind, dir_ / ("reference_" + std::to_string(kind) + ".h5")),
                                                dir_ / "capture");
        window[kind] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ASSERT_EQ(reference[kind].exit_code, 0) << reference[kind].err;
        std::cout << "kind " << kind << ": uninterrupted run " << window[kind] << " s\n";
    }

    std::atomic<int> kills{0}, next_trial{0}, before_first_checkpoint{0}, readable{0}, unreadable{0};
    std::mutex failures_mutex;
    std::vector<std::string> failures;
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        while (kills.load() < target) {
            const int trial = next_trial++;
            const int kind = trial % kinds;
            std::seed_seq trial_seed{seed, static_cast<unsigned>(trial)};
            std::mt19937 rng(trial_seed);
            const fs::path out = dir_ / ("trial_" + std::to_string(trial) + ".h5");
            // The first run and two continuations are killed; the fourth command completes.
            const test_support::kill_record r =
                test_support::kill_until_complete(short_run(kind, out), out, dir_ / "capture", rng, window[kind], 3);
            kills += r.kills;
            before_first_checkpoint += r.before_first_checkpoint;
            readable += r.readable_partials;
            unreadable += r.unreadable_partials;
            std::vector<std::string> problems = r.problems;
            const std::string difference = test_support::difference_from_reference(
                out, r.last, dir_ / ("reference_" + std::to_string(kind) + ".h5"), reference[kind]);
            if (!difference.empty()) problems.push_back(difference);
            if (!problems.empty()) {
                const std::lock_guard<std::mutex> lock(failures_mutex);
                for (const std::string& p : problems) {
                    failures.push_back("trial " + std::to_string(trial) + " (kind " + std::to_string(kind) + ", " +
                                       std::to_string(r.kills) + " kills): " + p);
                    // At once, with write(2): stdio's locks must not be held while another thread forks.
                    const std::string line = failures.back() + "\n";
                    if (::write(2, line.data(), line.size()) < 0) {}
                }
                continue;  // its files stay for a look
            }
            for (const fs::path& f : test_support::companions_of(out)) fs::remove(f);
            fs::remove(out);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned k = 0; k < workers; ++k) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::cout << kills.load() << " kills in " << next_trial.load() << " runs, " << seconds
              << " s: " << before_first_checkpoint.load()
              << " before the first checkpoint (started over), partial output readable after " << readable.load()
              << ", unreadable after " << unreadable.load() << "; " << failures.size() << " failures\n";
    for (const std::string& f : failures) ADD_FAILURE() << f;
    EXPECT_GE(kills.load(), target);
}
