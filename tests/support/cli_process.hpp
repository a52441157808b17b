#pragma once
// The built CLI (test_support::built_cli) as a real child process: fork/exec with stdout and stderr
// captured to files, so tests see exit codes, signals and output files as a user does.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#include "support/build_paths.hpp"

namespace stokesian::test_support {

// The whole content of a text file ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The CLI beside the running test binary (build/bin, or a GPU bundle's .gpu-build/bin, which
// travels without build/), else the one the tests were built with (built_cli).
inline const std::string& cli_program() {
    static const std::string path = [] {
        std::error_code error;
        const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
        if (!error) {
            const std::filesystem::path sibling = self.parent_path() / "stokesian";
            if (std::filesystem::is_regular_file(sibling, error)) return sibling.string();
        }
        return std::string(::stokesian::test_support::built_cli);
    }();
    return path;
}

struct cli_outcome {
    int exit_code = -1;  // 128 + signal when the child was killed
    std::string out, err;
};

class cli_process {
public:
    // Starts `cli_program() args...` (or `program args...`: mpirun) with stdout/stderr redirected
    // to files in `capture_dir`.
    cli_process(const std::vector<std::string>& args, const std::filesystem::path& capture_dir,
                const std::string& program = cli_program()) {
        static std::atomic<int> counter{0};  // tests may start processes from several threads
        const std::string tag = std::to_string(::getpid()) + "_" + std::to_string(++counter);
        out_path_ = capture_dir / ("cli_stdout_" + tag);
        err_path_ = capture_dir / ("cli_stderr_" + tag);
        const std::string& cli = program;
        std::fflush(nullptr);  // the child must not inherit (and write out again) buffered output
        pid_ = ::fork();
        if (pid_ == 0) {
            if (!std::freopen(out_path_.c_str(), "w", stdout) || !std::freopen(err_path_.c_str(), "w", stderr))
                ::_exit(126);
            std::vector<char*> argv{const_cast<char*>(cli.c_str())};
            for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(cli.c_str(), argv.data());
            ::_exit(127);
        }
    }
    cli_process(const cli_process&) = delete;
    cli_process& operator=(const cli_process&) = delete;
    ~cli_process() {
        if (pid_ > 0 && !waited_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }

    pid_t pid() const { return pid_; }
    void signal(int sig) const { ::kill(pid_, sig); }

    cli_outcome wait() {
        int status = 0;
        ::waitpid(pid_, &status, 0);
        return collect(status);
    }

    // As wait(), but SIGKILLs the child after `seconds` (exit code 128 + 9): for commands that
    // must be refused at once and would otherwise run for hours.
    cli_outcome wait_at_most(double seconds) {
        int status = 0;
        for (double waited = 0.0; ::waitpid(pid_, &status, WNOHANG) == 0; waited += 0.01) {
            if (waited >= seconds) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, &status, 0);
                break;
            }
            ::usleep(10000);
        }
        return collect(status);
    }

private:
    cli_outcome collect(int status) {
        waited_ = true;
        cli_outcome o;
        o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        o.out = read_text(out_path_);
        o.err = read_text(err_path_);
        std::error_code ignored;
        std::filesystem::remove(out_path_, ignored);
        std::filesystem::remove(err_path_, ignored);
        return o;
    }

    pid_t pid_ = -1;
    bool waited_ = false;
    std::filesystem::path out_path_, err_path_;
};

// Runs for at most `seconds` (then SIGKILL: exit code 137).
inline cli_outcome run_cli_at_most(double seconds, const std::vector<std::string>& args,
                                   const std::filesystem::path& capture_dir = std::filesystem::temp_directory_path()) {
    cli_process p(args, capture_dir);
    return p.wait_at_most(seconds);
}

// Runs to completion (stdout and stderr captured in `capture_dir`, removed afterwards).
inline cli_outcome run_cli(const std::vector<std::string>& args,
                           const std::filesystem::path& capture_dir = std::filesystem::temp_directory_path()) {
    cli_process p(args, capture_dir);
    return p.wait();
}

// Waits until `path` exists (a child's output appearing); false after `limit`.
inline bool wait_for_file(const std::filesystem::path& path, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!std::filesystem::exists(path)) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

}  // namespace stokesian::test_support
