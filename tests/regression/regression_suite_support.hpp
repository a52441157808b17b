#pragma once
// Shared by the regression-suite tests (quick_, long_ and nightly_ files): running the built CLI
// as a child process, and reading what `reference check --json` wrote.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace regression_suite {

namespace fs = std::filesystem;

inline const std::string cli = STOKESIAN_CLI;
inline const fs::path source_dir = STOKESIAN_SOURCE_DIR;
inline const fs::path nightly_manifest = source_dir / "reference_data/suites/nightly.toml";
inline const fs::path negative_manifest = source_dir / "reference_data/suites/negative_control.toml";

struct outcome {
    int exit_code = -1;
    std::string out, err;
};

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs the CLI with `args`, stdout and stderr captured.
inline outcome run_cli(const std::vector<std::string>& args) {
    const fs::path base = fs::temp_directory_path() / ("stokesian_suite_" + std::to_string(::getpid()) + "_" +
                                                       std::to_string(std::rand()));
    const fs::path out_path = base.string() + ".out", err_path = base.string() + ".err";
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (std::freopen(out_path.c_str(), "w", stdout) == nullptr || std::freopen(err_path.c_str(), "w", stderr) == nullptr)
            ::_exit(126);
        std::vector<char*> argv{const_cast<char*>(cli.c_str())};
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(cli.c_str(), argv.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out_path), slurp(err_path)};
    fs::remove(out_path);
    fs::remove(err_path);
    return o;
}

inline std::vector<std::string> results_in(const fs::path& dir) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".h5") files.push_back(e.path().string());
    return files;
}

// "suite run" + "reference check" of a manifest: the check's outcome, its JSON in `json`.
inline outcome run_and_check(const fs::path& manifest, const fs::path& dir, const std::vector<std::string>& suite_args,
                             const fs::path& reference_dir, std::string& json) {
    std::vector<std::string> args{"suite", "run", manifest.string(), "--output-dir", (dir / "results").string(), "--force"};
    args.insert(args.end(), suite_args.begin(), suite_args.end());
    const outcome suite = run_cli(args);
    if (suite.exit_code != 0) return suite;
    std::vector<std::string> check{"reference", "check"};
    for (const auto& f : results_in(dir / "results")) check.push_back(f);
    check.insert(check.end(), {"--reference-dir", reference_dir.string(), "--json", (dir / "check.json").string(),
                               "--junit", (dir / "junit.xml").string()});
    const outcome o = run_cli(check);
    json = slurp(dir / "check.json");
    return o;
}

// The failing observables per run, read from the table `reference check` prints: rows end in
// "FAIL", the run name first, the observable second.
inline std::map<std::string, std::set<std::string>> failures_in_table(const std::string& table) {
    std::map<std::string, std::set<std::string>> failed;
    std::istringstream lines(table);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.size() < 4 || line.compare(line.size() - 4, 4, "FAIL") != 0) continue;
        std::istringstream fields(line);
        std::string run, observable;
        fields >> run >> observable;
        failed[run].insert(observable);
    }
    return failed;
}

}  // namespace regression_suite
