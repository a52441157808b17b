// Lock files (io/file_lock.hpp) and the lost update they prevent in `reference record` (issue
// #18.4): concurrent records of different entries into one reference file all end up in it.
// The run's lock through the CLI: tests/cli/quick_output_safety_test.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/file_lock.hpp"
#include "stokesian/regression/check_rules.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/reference_recorder.hpp"
#include "stokesian/regression/reference_store.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
using namespace stokesian::regression;
namespace fs = std::filesystem;

namespace {

class FileLock : public test_support::scratch_directory_test {
protected:
    FileLock() : scratch_directory_test("stokesian_file_lock") {}
};

// One result of the tetrahedron per dt: each a different reference entry.
observed_run result_with_dt(double dt) {
    observed_run r;
    r.file = "/results/dt" + std::to_string(dt) + ".h5";
    r.name = "tetrahedron_dt" + std::to_string(dt);
    r.key = {"tetrahedron", "", "hi=f64,int=f64", dt, "euler", "cpu"};
    r.planned_steps = r.steps = 1000;
    r.sample_interval_steps = 10;
    r.status = "completed";
    r.provenance = {{"git_commit", "abc"},
                    {"date", "2026-11-26T00:00:00Z"},
                    {"host", "h"},
                    {"command", "stokesian run"},
                    {"device_name", "CPU"}};
    observed_value drift;
    drift.values = {0.3149};
    drift.ci95_half_width = 0.0044;
    r.observables["cycle.period_drift"] = drift;
    return r;
}

check_rules drift_rule() {
    return parse_check_rules(R"(
[[rule]]
scenario = "tetrahedron"
observable = "cycle.period_drift"
kind = "ci_overlap"
tolerance = 0
derivation = "a test rule for the drift"
)",
                             "checks.toml");
}

}  // namespace

TEST_F(FileLock, OneHolderAtATimeAndTheLockFileGoesWithTheLastHolder) {
    const fs::path file = dir_ / "out.h5";
    std::optional<io::file_lock> first = io::file_lock::try_lock(file);
    ASSERT_TRUE(first.has_value());
    EXPECT_TRUE(fs::exists(dir_ / "out.h5.lock"));
    std::string holder;
    EXPECT_FALSE(io::file_lock::try_lock(file, &holder).has_value()) << "a second lock of the same name";
    EXPECT_EQ(holder, std::to_string(::getpid())) << "the lock file names its holder";
    const std::string message = [&] {
        try {
            io::lock_run_output(file);
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string();
    }();
    EXPECT_NE(message.find("another run (process " + std::to_string(::getpid()) + ") is writing this output"),
              std::string::npos)
        << message;
    first.reset();
    EXPECT_FALSE(fs::exists(dir_ / "out.h5.lock")) << "a released lock removes its lock file";
    EXPECT_TRUE(io::file_lock::try_lock(file).has_value());
}

TEST_F(FileLock, ALockFileLeftByAKilledHolderIsReused) {
    const fs::path file = dir_ / "out.h5";
    std::ofstream(dir_ / "out.h5.lock") << "999999\n";  // what SIGKILL leaves: the file, no lock
    EXPECT_TRUE(io::file_lock::try_lock(file).has_value());
}

TEST_F(FileLock, ARecordWaitsForTheFilesLockAndGivesUpWithOneLine) {
    const fs::path reference = dir_ / "tetrahedron.h5";
    const std::optional<io::file_lock> held = io::file_lock::try_lock(reference);
    ASSERT_TRUE(held.has_value());
    record_request request{{result_with_dt(0.01)}, reference, drift_rule(), false, "test"};
    request.lock_patience = std::chrono::milliseconds(200);
    const auto start = std::chrono::steady_clock::now();
    try {
        record_references(request);
        ADD_FAILURE() << "recorded while another process held the lock";
    } catch (const input_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("held the lock '" + reference.string() + ".lock'"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(200)) << "it waited";
    EXPECT_FALSE(fs::exists(reference)) << "nothing written";
}

TEST_F(FileLock, ConcurrentRecordsOfDifferentEntriesIntoOneFileAllEndUpInIt) {
    // Without the lock two records read the same old file and the later rename drops the other's
    // entry (19 of 20 trials with two processes, issue #18.4). Processes, as users run them; they
    // start together at a pipe's signal so that their read-modify-rename cycles overlap.
    constexpr int writers = 8;
    const fs::path reference = dir_ / "tetrahedron.h5";
    const check_rules rules = drift_rule();
    int go[2];
    ASSERT_EQ(::pipe(go), 0);
    std::vector<pid_t> children;
    for (int k = 0; k < writers; ++k) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(go[1]);
            char byte = 0;
            if (::read(go[0], &byte, 1) != 0) ::_exit(3);  // EOF: all start together
            try {
                record_references({{result_with_dt(0.01 * (k + 1))}, reference, rules, false, "test"});
            } catch (...) {
                ::_exit(1);
            }
            ::_exit(0);
        }
        children.push_back(pid);
    }
    ::close(go[0]);
    ::close(go[1]);
    for (const pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a record failed";
    }
    const reference_set set = read_reference_file(reference);
    EXPECT_EQ(set.entries.size(), std::size_t(writers)) << "every record's entry is in the file";
    EXPECT_FALSE(fs::exists(dir_ / "tetrahedron.h5.lock"));
}

TEST_F(FileLock, ALockNameThatIsNotALockFileIsRefusedAndLeftAsItIs) {
    // Taking the lock truncates the lock file and writes the PID: a hard link to a result, a
    // user's file or a FIFO at the lock name would lose its content (issue #27.12).
    const fs::path precious = dir_ / "precious.h5";
    std::ofstream(precious) << "a result";
    fs::create_hard_link(precious, dir_ / "linked.h5.lock");
    std::ofstream(dir_ / "notes.h5.lock") << "my notes\n";
    ASSERT_EQ(::mkfifo((dir_ / "pipe.h5.lock").c_str(), 0600), 0);
    for (const char* name : {"linked.h5", "notes.h5", "pipe.h5"}) {
        try {
            io::file_lock::try_lock(dir_ / name);
            ADD_FAILURE() << name << ": locked";
        } catch (const input_error& e) {
            EXPECT_NE(std::string(e.what()).find("not a lock file"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(fs::file_size(precious), 8u);
    std::ifstream in(precious);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "a result");
    std::ifstream notes(dir_ / "notes.h5.lock");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(notes), {}), "my notes\n");
    EXPECT_TRUE(fs::is_fifo(dir_ / "pipe.h5.lock"));
    EXPECT_THROW(io::wait_for_lock(dir_ / "linked.h5", std::chrono::milliseconds(0), "a test"), input_error);
    EXPECT_EQ(fs::file_size(precious), 8u);
}
