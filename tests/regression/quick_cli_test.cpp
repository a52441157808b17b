// `stokesian run` as a user meets it: a real child process, its exit code, its output file.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "stokesian/io/h5md.hpp"

namespace fs = std::filesystem;
using stokesian::io::h5md_file;

namespace {

const std::string cli = STOKESIAN_CLI;
const std::string tetrahedron = std::string(STOKESIAN_SOURCE_DIR) + "/scenarios/tetrahedron.toml";

struct outcome {
    int exit_code;
    std::string out, err;
};

// Runs the CLI with `args`, capturing stdout and stderr; `after_start` may signal the child.
outcome run_cli(const std::vector<std::string>& args, const std::function<void(pid_t)>& after_start = {}) {
    const fs::path dir = fs::temp_directory_path();
    const std::string tag = std::to_string(::getpid()) + "_" + std::to_string(std::rand());
    const fs::path out_path = dir / ("stokesian_cli_out_" + tag), err_path = dir / ("stokesian_cli_err_" + tag);
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::freopen(out_path.c_str(), "w", stdout);
        std::freopen(err_path.c_str(), "w", stderr);
        std::vector<char*> argv{const_cast<char*>(cli.c_str())};
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(cli.c_str(), argv.data());
        ::_exit(127);
    }
    if (after_start) after_start(pid);
    int status = 0;
    ::waitpid(pid, &status, 0);
    auto slurp = [](const fs::path& p) {
        std::ifstream in(p);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    };
    outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out_path), slurp(err_path)};
    fs::remove(out_path);
    fs::remove(err_path);
    return o;
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("stokesian_cli_" + std::to_string(::getpid()) + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
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
    const outcome o = run_cli({"run", tetrahedron, "--time", "1000000", "-o", out.string(), "--no-trajectory"},
                              [&](pid_t pid) {
                                  // Wait until the run has begun (the .partial file exists).
                                  for (int i = 0; i < 200 && !fs::exists(dir_ / "t.h5.partial"); ++i)
                                      std::this_thread::sleep_for(std::chrono::milliseconds(10));
                                  std::this_thread::sleep_for(std::chrono::milliseconds(300));
                                  ::kill(pid, SIGINT);
                              });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(o.exit_code, 128 + SIGINT) << o.err;
    EXPECT_LT(seconds, 10.0);
    ASSERT_TRUE(fs::exists(out));
    const h5md_file f(out);
    const std::string status = f.string_attribute("/parameters/run", "status").value_or("");
    EXPECT_EQ(status.rfind("interrupted by signal 2 at step", 0), 0u) << status;
    EXPECT_TRUE(f.exists("/observables/centre_of_mass/z/value"));
}
