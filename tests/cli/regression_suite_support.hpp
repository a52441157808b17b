#pragma once
// Shared by the regression-suite tests (quick_, long_ and nightly_ files): running the built CLI
// as a child process, and reading what `reference check --json` wrote.
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/build_paths.hpp"
#include "support/cli_process.hpp"

namespace regression_suite {

namespace fs = std::filesystem;

inline const fs::path source_dir = ::stokesian::test_support::project_source_dir;
inline const fs::path nightly_manifest = source_dir / "reference_data/suites/nightly.toml";
inline const fs::path negative_manifest = source_dir / "reference_data/suites/negative_control.toml";
// The references of the nightly at scale 0.01 (the quick label\'s runs).
inline const fs::path scaled_references = source_dir / "reference_data/scale-0.01";

// The CLI as a child process (tests/support/cli_process.hpp), output captured in the temp directory.
using outcome = stokesian::test_support::cli_outcome;
using stokesian::test_support::read_text;
using stokesian::test_support::run_cli;

inline std::vector<std::string> results_in(const fs::path& dir) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".h5") files.push_back(e.path().string());
    return files;
}

// "suite run" + "reference check" of a manifest: the check's outcome, its JSON in `json`.
inline outcome run_and_check(const fs::path& manifest, const fs::path& dir, const std::vector<std::string>& suite_args,
                             const fs::path& reference_dir, std::string& json) {
    std::vector<std::string> args{"suite",  "run", manifest.string(), "--output-dir", (dir / "results").string(),
                                  "--force"};
    args.insert(args.end(), suite_args.begin(), suite_args.end());
    outcome suite = run_cli(args);
    if (suite.exit_code != 0) return suite;
    std::vector<std::string> check{"reference", "check"};
    for (const auto& f : results_in(dir / "results")) check.push_back(f);
    check.insert(check.end(), {"--reference-dir", reference_dir.string(), "--json", (dir / "check.json").string(),
                               "--junit", (dir / "junit.xml").string()});
    outcome o = run_cli(check);
    json = read_text(dir / "check.json");
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
