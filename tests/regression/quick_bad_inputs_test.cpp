// Broken inputs through the built CLI: every one gives ONE line on stderr naming the file (and
// key, value, what is expected) and exit code 2; nothing is overwritten or left behind; no crash
// (under the sanitize preset: no sanitizer report either). The inputs: the scenario corpus
// (tests/inputs/bad), the HDF5 corpus (checkpoints, interrupted outputs and H5MD files derived
// from valid ones by tests/inputs/hdf5/bad_hdf5_corpus.cpp), and unusable output paths.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "inputs/hdf5/bad_hdf5_corpus.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "support/cli_process.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;
using test_support::run_cli;

namespace {

const std::string tetrahedron = std::string(STOKESIAN_SOURCE_DIR) + "/scenarios/tetrahedron.toml";

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

std::string first_line(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

void expect_one_line_exit_two(const cli_outcome& o, const std::string& expected, const std::string& what) {
    EXPECT_EQ(o.exit_code, 2) << what << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": not one line: " << o.err;
    EXPECT_EQ(o.err.rfind("stokesian: ", 0), 0u) << what << ": " << o.err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << what << ": expected '" << expected << "' in: " << o.err;
    EXPECT_EQ(o.err.find("HDF5-DIAG"), std::string::npos) << what << ": HDF5's error stack leaked: " << o.err;
}

class BadInputs : public stokesian::test_support::scratch_directory_test {
protected:
    BadInputs() : scratch_directory_test("stokesian_bad_inputs") {}
    void SetUp() override {
        scratch_directory_test::SetUp();
        fs::create_directories(dir_ / "capture");
        fs::create_directories(dir_ / "work");
    }
    fs::path capture() const { return dir_ / "capture"; }
    fs::path work() const { return dir_ / "work"; }
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
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(STOKESIAN_TEST_DATA_DIR) / "inputs" / "bad")) {
        if (entry.path().extension() != ".toml") continue;
        ++count;
        const std::string header = first_line(entry.path());
        const std::string expected = header.substr(std::string("# expect: ").size());
        const cli_outcome o = run_cli({"run", entry.path().string(), "-o", (work() / "out.h5").string()}, capture());
        expect_one_line_exit_two(o, expected, entry.path().filename().string());
        EXPECT_TRUE(fs::is_empty(work())) << entry.path().filename() << ": nothing may be written";
    }
    EXPECT_GE(count, 130u);
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
        const cli_outcome o = run_cli({"run", tetrahedron, "--time", "1", "-o", c.output}, capture());
        expect_one_line_exit_two(o, c.expected, c.output);
    }
    EXPECT_TRUE(snapshot(work()) == before) << "nothing may be written or removed";
}
