// Broken inputs through the built CLI: every one gives ONE line on stderr naming the file (and
// key, value, what is expected) and exit code 2; nothing is overwritten or left behind; no crash
// (under the sanitize preset: no sanitizer report either). The inputs: the scenario corpus
// (tests/inputs/bad), the HDF5 corpus (checkpoints, interrupted outputs and H5MD files derived
// from valid ones by tests/inputs/hdf5/bad_hdf5_corpus.cpp), and unusable output paths.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "inputs/hdf5/bad_hdf5_corpus.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "support/bad_scenarios.hpp"
#include "support/build_paths.hpp"
#include "support/cli_expectations.hpp"
#include "support/cli_process.hpp"
#include "support/cli_scratch.hpp"
#include "support/h5md_comparison.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;
using test_support::run_cli;

namespace {

using ::stokesian::test_support::expect_one_line_exit_two;

using ::stokesian::test_support::tetrahedron_toml;

// Every regular file below `dir` with its bytes: "touches nothing" means this stays the same.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) {
            if (entry.is_directory()) files[entry.path().string()] = "<directory>";
            continue;
        }
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        files[entry.path().string()] = s.str();
    }
    return files;
}

class BadInputs : public stokesian::test_support::cli_scratch_test {
protected:
    BadInputs() : cli_scratch_test("stokesian_bad_inputs") {}
};

}  // namespace

TEST_F(BadInputs, EveryBrokenHdf5FileIsOneLineExitTwoAndTouchesNothing) {
    const auto cases = test_inputs::write_bad_hdf5_corpus(work());
    EXPECT_GE(cases.size(), 50u);
    // The resume of the intact interrupted run, for cases whose damage turns out harmless.
    const fs::path intact = dir_ / "intact";
    fs::create_directories(intact);
    fs::copy_file(work() / "base" / "interrupted.h5", intact / "out.h5");
    fs::copy_file(work() / "base" / "interrupted.h5.checkpoint", intact / "out.h5.checkpoint");
    fs::copy_file(work() / "base" / "interrupted.h5.frames", intact / "out.h5.frames");
    ASSERT_EQ(run_cli({"run", "--resume", (intact / "out.h5").string()}, capture()).exit_code, 0);
    std::size_t read_anyway = 0;
    for (const auto& c : cases) {
        const fs::path case_dir = work() / c.name, out = case_dir / "out.h5";
        const auto before = snapshot(case_dir);
        const std::vector<std::string> args = c.role == test_inputs::bad_file_role::analyzed
                                                  ? std::vector<std::string>{"analyze", out.string()}
                                                  : std::vector<std::string>{"run", "--resume", out.string()};
        const cli_outcome o = run_cli(args, capture());
        std::cout << c.name << " -> exit " << o.exit_code << ": " << o.err;
        if (c.role == test_inputs::bad_file_role::partial) {
            // A kill's partial output, whatever its state, is not what a resume reads (issue #18.5).
            EXPECT_EQ(o.exit_code, 0) << c.name << ": " << o.err;
            EXPECT_EQ(test_support::first_difference((intact / "out.h5").string(), out.string()), "") << c.name;
            continue;
        }
        if (c.may_succeed && o.exit_code == 0) {
            ++read_anyway;  // harmless or undetectable damage, but no crash
            if (c.role != test_inputs::bad_file_role::analyzed)
                EXPECT_EQ(test_support::first_difference((intact / "out.h5").string(), out.string()), "")
                    << c.name << ": a resume from a damaged file that succeeds must be the intact one's";
            continue;
        }
        expect_one_line_exit_two(o, c.expected, c.name);
        EXPECT_TRUE(snapshot(case_dir) == before) << c.name << ": a refused input must leave every file as it was";
    }
    std::cout << cases.size() << " broken HDF5 inputs, " << read_anyway
              << " with flipped bytes read without error (unused space, or H5MD raw data without checksums)\n";
}

TEST_F(BadInputs, EveryBrokenScenarioIsOneLineExitTwoThroughTheCli) {
    const auto corpus = stokesian::test_support::bad_scenarios();
    for (const auto& [path, expected] : corpus) {
        ASSERT_FALSE(expected.empty()) << path << ": first line must be '# expect: ...'";
        const cli_outcome o = run_cli({"run", path.string(), "-o", (work() / "out.h5").string()}, capture());
        expect_one_line_exit_two(o, expected, path.filename().string());
        EXPECT_TRUE(fs::is_empty(work())) << path.filename() << ": nothing may be written";
    }
    EXPECT_GE(corpus.size(), 130u);
}

TEST_F(BadInputs, UnusableOutputPathsAreOneLineExitTwoAndNothingIsOverwritten) {
    const fs::path existing = work() / "existing.h5";
    std::ofstream(existing) << "precious";
    const fs::path checkpoint_directory = work() / "blocked.h5";
    fs::create_directories(io::checkpoint_path_for(checkpoint_directory));
    const fs::path stale = work() / "stale.h5";
    std::ofstream(io::checkpoint_path_for(stale)) << "an interrupted run's checkpoint";
    const fs::path a_file = work() / "plain_file";
    std::ofstream(a_file) << "x";
    struct path_case {
        std::string output, expected;
    };
    const std::vector<path_case> cases{
        {existing.string(), "output file exists; use --force to replace it"},
        {work().string(), "is a directory, expected an output file name"},
        {(work() / "missing" / "t.h5").string(), "does not exist"},
        {(a_file / "t.h5").string(), "is not a directory"},
        // The run's lock file is the first file a run creates (io/file_lock.hpp).
        {"/proc/stokesian_test_output.h5", "cannot create the lock file '/proc/stokesian_test_output.h5.lock'"},
        {checkpoint_directory.string(), "is a directory"},
        {stale.string(), "an interrupted run left this checkpoint: continue it with `stokesian run --resume"},
    };
    const auto before = snapshot(work());
    for (const auto& c : cases) {
        const cli_outcome o = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", c.output}, capture());
        expect_one_line_exit_two(o, c.expected, c.output);
    }
    EXPECT_TRUE(snapshot(work()) == before) << "nothing may be written or removed";
}

// Counts no run can reach (issue #18.7): each is refused at once with one line, where it used to
// run for ever (llround past 2^63, CLI11 reading -1 as 2^64 - 1) or to sample or checkpoint every
// step (an infinite ratio passed the "multiple of dt" test). 20 s bounds a refusal that does not
// come (it takes ~10 ms).
TEST_F(BadInputs, CountsPastTheMaximumAreOneLineExitTwo) {
    const std::string out = (work() / "out.h5").string();
    const std::string most = "from 1 to 2^53 = 9007199254740992";
    struct count_case {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::vector<count_case> cases{
        {{"run", tetrahedron_toml, "--steps", "-1", "-o", out},
         "key '--steps' = -1: expected a whole number of steps " + most},
        {{"run", tetrahedron_toml, "--steps", "1e23", "-o", out}, "key '--steps' = 1e23"},
        {{"run", tetrahedron_toml, "--steps", "18446744073709551615", "-o", out},
         "key '--steps' = 18446744073709551615"},
        {{"run", tetrahedron_toml, "--time", "1e300", "-o", out},
         "key 'run.time' = 1.0000000000000001e+300: expected an "
         "integer multiple of run.dt = 0.01 of at most 2^53 = "
         "9007199254740992 steps (run.time / run.dt = 1e+302)"},
        {{"run", tetrahedron_toml, "--dt", "1e-300", "--time", "1", "-o", out},
         "key 'run.time' = 1: expected an integer "
         "multiple of run.dt = 1e-300 of at most"},
        {{"run", tetrahedron_toml, "--dt", "1e-320", "-o", out}, "key 'run.time' = 5170"},
        {{"run", tetrahedron_toml, "--time", "1", "--sample-every", "1e308", "-o", out},
         "key 'run.sample_every' = 1e+308"},
        {{"run", tetrahedron_toml, "--time", "1", "--checkpoint-every", "1e308", "-o", out},
         "key 'run.checkpoint_every' = 1e+308"},
        {{"port-check", "record", out, "--steps", "18446744073709551615"}, "key '--steps' = 18446744073709551615"},
        {{"port-check", "record", out, "--steps", "10", "--dt", "inf"},
         "key '--dt' = inf: expected a positive, finite"},
        {{"study", "timestep", tetrahedron_toml, "--dt", "1e-300", "--output-dir", (work() / "study").string()},
         "of at most 2^53"},
    };
    for (const auto& c : cases) {
        const cli_outcome o = test_support::run_cli_at_most(20.0, c.args, capture());
        expect_one_line_exit_two(o, c.expected, c.args[2] + " " + c.args[3]);
        EXPECT_TRUE(fs::is_empty(work())) << c.args[3] << ": nothing may be written";
    }
}

// Environments and values that cannot work (issue #18.11, #17.7): one line naming what and why,
// exit code 2.
TEST_F(BadInputs, UnusableEnvironmentsAndHugeValuesAreOneLineExitTwo) {
    const fs::path result = dir_ / "result" / "t.h5";
    fs::create_directories(result.parent_path());
    ASSERT_EQ(run_cli({"run", tetrahedron_toml, "--time", "1", "-o", result.string()}, capture()).exit_code, 0);
    const fs::path empty = work() / "empty";
    fs::create_directories(empty);
    const fs::path a_file = work() / "a_file";
    std::ofstream(a_file) << "x";
    const std::string huge(100000, 'x');
    const std::string checks =
        std::string(::stokesian::test_support::project_source_dir) + "/reference_data/checks.toml";
    struct environment_case {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::vector<environment_case> cases{
        {{"reference", "check", result.string(), "--reference-dir", (work() / "missing").string()},
         "the reference directory (--reference-dir) does not exist"},
        {{"reference", "check", result.string(), "--reference-dir", empty.string()},
         "tetrahedron.h5: missing: no reference file for scenario 'tetrahedron'"},
        {{"reference", "record", result.string(), "--reference-dir", "/proc", "--checks", checks},
         "cannot create the lock file '/proc/tetrahedron.h5.lock'"},  // the lock is taken before the temporary
        {{"suite", "run",
          std::string(::stokesian::test_support::project_source_dir) + "/reference_data/suites/nightly.toml",
          "--output-dir", a_file.string(), "--only", "tetrahedron_f64-f64_dt0.01", "--scale", "0.0001"},
         "a_file: cannot create directories (Not a directory)"},
        {{"bench", "fcc", "--sizes-cells", "4,1000"},
         "key '--sizes-cells' = 1000: expected whole numbers of unit "
         "cells from 1 to 100"},
        {{"bench", "fcc", "--sizes-cells", "2000000"}, "key '--sizes-cells' = 2000000"},
        {{"run", tetrahedron_toml, "--precision", huge, "-o", (work() / "out.h5").string()}, "... (100000 bytes)"},
        {{"run", tetrahedron_toml, "--time", "1", "-o", (work() / (std::string(300, 'n') + ".h5")).string()},
         "the file name is 303 bytes; with '.partial.rebuild' it exceeds the 255 bytes (NAME_MAX)"},
    };
    const auto before = snapshot(work());
    for (const auto& c : cases) {
        const cli_outcome o = test_support::run_cli_at_most(60.0, c.args, capture());
        expect_one_line_exit_two(o, c.expected, c.args[0] + " " + c.args[1]);
        EXPECT_LT(o.err.size(), 600u) << c.args[1] << ": a message of one screen line or two";
    }
    EXPECT_TRUE(snapshot(work()) == before) << "nothing may be written or removed";
}

// A directory that exists but whose path is longer than PATH_MAX: named as too long, not as
// missing. Built with mkdirat, one name at a time (no single call can take the whole path).
TEST_F(BadInputs, AnOverlongPathIsSaidToBeTooLong) {
    std::string path = work().string();
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_GE(fd, 0);
    const std::string name(200, 'd');
    while (path.size() <= PATH_MAX) {
        ASSERT_EQ(::mkdirat(fd, name.c_str(), 0700), 0);
        const int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
        ::close(fd);
        ASSERT_GE(next, 0);
        fd = next;
        path += "/" + name;
    }
    ::close(fd);
    const cli_outcome o = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", path + "/t.h5"}, capture());
    expect_one_line_exit_two(o, "bytes (PATH_MAX) a path may have", "overlong path");
    EXPECT_EQ(o.err.find("does not exist"), std::string::npos) << o.err;
    // std::filesystem::remove_all cannot take these paths; rm works name by name.
    ASSERT_EQ(std::system(("rm -rf '" + (work() / name).string() + "'").c_str()), 0);
}

// A write that fails for want of space: one line with the file, why, and what is kept; exit 2.
// The process's file size limit (RLIMIT_FSIZE, EFBIG) stands in for a full device (ENOSPC, which
// needs a small file system: tests/settings/hostile_input_test.cpp translates HDF5's report of it);
// both take the same path. The child inherits the limit and SIGXFSZ ignored.
TEST_F(BadInputs, RunningOutOfSpaceIsOneLineSayingWhatIsKept) {
    const fs::path out = work() / "t.h5";
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit limited = saved;
    limited.rlim_cur = 1 << 20;  // 1 MiB: the run writes ~60 MB of trajectory
    const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    const cli_outcome o = test_support::run_cli_at_most(
        60.0, {"run", tetrahedron_toml, "--time", "2000", "--sample-every", "0.01", "-o", out.string()}, capture());
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous_handler);
    // The trajectory reaches the limit in the partial output or in its frame journal, whichever grows past it first.
    expect_one_line_exit_two(o, "file too large: " + out.string() + ".", "file size limit");
    EXPECT_NE(o.err.find("; kept '" + out.string() + ".partial' (unfinished), no checkpoint: free space and run again"),
              std::string::npos)
        << o.err;
}

// A full and a read-only file system, where the test may mount them (root; skipped otherwise):
// a full device is one line naming the file and what is kept, a read-only one is "cannot create"
// (not "cannot remove stale": unlink fails there even without a file), for runs and for
// `reference record` alike. Exit code 2.
TEST_F(BadInputs, FullAndReadOnlyFileSystemsAreOneLineExitTwo) {
    const fs::path full = dir_ / "full", read_only = dir_ / "read_only";
    fs::create_directories(full);
    fs::create_directories(read_only);
    if (::mount("stokesian_test", full.c_str(), "tmpfs", 0, "size=256k") != 0)
        GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << "): needs root";
    const bool read_only_mounted = ::mount("stokesian_test", read_only.c_str(), "tmpfs", MS_RDONLY, "size=64k") == 0;
    const fs::path result = dir_ / "t.h5";
    const cli_outcome ran = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", result.string()}, capture());

    const fs::path out = full / "t.h5";
    const cli_outcome o = test_support::run_cli_at_most(
        60.0, {"run", tetrahedron_toml, "--time", "2000", "--sample-every", "0.01", "-o", out.string()}, capture());
    cli_outcome refused, recorded;
    if (read_only_mounted) {
        refused = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", (read_only / "t.h5").string()}, capture());
        recorded = run_cli({"reference", "record", result.string(), "--reference-dir", read_only.string(), "--checks",
                            std::string(::stokesian::test_support::project_source_dir) + "/reference_data/checks.toml"},
                           capture());
    }
    // Unmounted before any assertion can end the test.
    ::umount2(full.c_str(), MNT_DETACH);
    if (read_only_mounted) ::umount2(read_only.c_str(), MNT_DETACH);

    // The partial output or its frame journal, whichever meets the full device first.
    expect_one_line_exit_two(o, "no space left on device: " + out.string() + ".", "full device");
    EXPECT_NE(o.err.find("; kept '" + out.string() + ".partial' (unfinished), no checkpoint"), std::string::npos)
        << o.err;
    ASSERT_TRUE(read_only_mounted);
    // The run's lock file is the first file it creates (core/run_output_claim.hpp).
    expect_one_line_exit_two(
        refused, "cannot create the lock file '" + (read_only / "t.h5.lock").string() + "': Read-only file system",
        "read-only run output");
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    expect_one_line_exit_two(
        recorded,
        "cannot create the lock file '" + (read_only / "tetrahedron.h5.lock").string() + "': Read-only file system",
        "read-only reference directory");
}
