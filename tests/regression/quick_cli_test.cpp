// `stokesian run` as a user meets it: a real child process, its exit code, its output file.
#include <gtest/gtest.h>
#include <signal.h>
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

#include "stokesian/io/h5md.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::io::h5md_file;
using outcome = stokesian::test_support::cli_outcome;
using stokesian::test_support::cli_process;
using stokesian::test_support::run_cli;

namespace {

const std::string tetrahedron = std::string(STOKESIAN_SOURCE_DIR) + "/scenarios/tetrahedron.toml";

class Cli : public stokesian::test_support::scratch_directory_test {
protected:
    Cli() : scratch_directory_test("stokesian_cli") {}
};

}  // namespace

TEST_F(Cli, RunWritesAValidH5mdFileAndAJsonSummary) {
    const fs::path out = dir_ / "t.h5";
    const outcome o = run_cli({"run", tetrahedron, "--time", "20", "--output", out.string(), "--json"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("\"status\":\"completed\""), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("\"steps\":2000"), std::string::npos) << o.out;
    EXPECT_EQ(o.err, "");  // not a terminal: no progress line
    ASSERT_TRUE(fs::exists(out));
    EXPECT_FALSE(fs::exists(dir_ / "t.h5.partial"));
    const h5md_file f(out);
    EXPECT_EQ(f.shape("/particles/all/position/value"), (std::vector<std::size_t>{21, 4, 3}));
    EXPECT_TRUE(f.exists("/h5md/creator"));
    EXPECT_EQ(f.shape("/particles/all/box/edges/value"), (std::vector<std::size_t>{21, 3}));
    EXPECT_EQ(f.string_attribute("/parameters/run", "precision"), "hi=f64,int=f64");
    EXPECT_EQ(f.string_attribute("/parameters/run", "status"), "completed");
    EXPECT_EQ(f.string_attribute("/parameters/engine", "backend"), "cpu");
    EXPECT_TRUE(f.string_attribute("/parameters/scenario", "source_text")->find("[particles]") != std::string::npos);
    EXPECT_TRUE(f.string_attribute("/parameters/invocation", "command")->find("--json") != std::string::npos);
    EXPECT_TRUE(f.exists("/observables/symmetry/y1/value"));
}

TEST_F(Cli, OverridesAreRecordedAndPrecisionIsSelectable) {
    const fs::path out = dir_ / "t.h5";
    const outcome o = run_cli({"run", tetrahedron, "--steps", "50", "--dt", "0.02", "--sample-every", "0.1",
                               "--precision", "hi=ds,int=f32", "-o", out.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const h5md_file f(out);
    EXPECT_EQ(f.string_attribute("/parameters/run", "precision"), "hi=ds,int=f32");
    EXPECT_EQ(f.string_attribute("/parameters/run", "dt"), "0.02");
    EXPECT_EQ(f.shape("/particles/all/position/value"), (std::vector<std::size_t>{11, 4, 3}));
}

TEST_F(Cli, ExistingOutputIsKeptWithoutForceAndReplacedWithIt) {
    const fs::path out = dir_ / "t.h5";
    { std::ofstream(out) << "precious"; }
    const outcome refused = run_cli({"run", tetrahedron, "--time", "1", "-o", out.string()});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("output file exists; use --force"), std::string::npos) << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << "one line: " << refused.err;
    std::ifstream in(out);
    std::string content;
    in >> content;
    EXPECT_EQ(content, "precious");
    const outcome forced = run_cli({"run", tetrahedron, "--time", "1", "-o", out.string(), "--force"});
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_NO_THROW(h5md_file{out});
}

TEST_F(Cli, BadInputIsOneLineAndExitCodeTwo) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", (dir_ / "missing.toml").string()},
          std::vector<std::string>{"run", tetrahedron, "--precision", "hi=f16,int=f32"},
          std::vector<std::string>{"run", tetrahedron, "--dt", "-1"},
          std::vector<std::string>{"run", tetrahedron, "--dt", "0.01", "--time", "0.015"},
          std::vector<std::string>{"run", tetrahedron, "--backend", "quantum"},
          std::vector<std::string>{"run", tetrahedron, "-o", (dir_ / "no" / "such" / "dir.h5").string()},
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
    cli_process run({"run", tetrahedron, "--time", "1000000", "-o", out.string(), "--no-trajectory"},
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
    EXPECT_TRUE(f.exists("/observables/centre_of_mass/z/value"));
}
