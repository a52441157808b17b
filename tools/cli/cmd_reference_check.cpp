// `stokesian reference check RESULT.h5... --reference-dir DIR [--json FILE] [--junit FILE] [--force]`:
// every result against its reference entry. Exit status 0 when every check passes, 1 when any
// fails (a missing entry included), 2 for bad input (an unreadable result or reference file, a
// --json/--junit file that exists without --force or is one of the files read, a failed write, a
// reference directory or file that does not exist) and when a run's reference does not apply to it
// (another run length or scenario: a wrong --reference-dir or --scale is the job's to fix, not a
// regression; the table, --json and --junit are written then, each such run one row naming why).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "check_report.hpp"
#include "reference_commands.hpp"
#include "secondary_output.hpp"
#include "stokesian/core/digest.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/regression/reference_check.hpp"

namespace stokesian::cli {

namespace {

struct check_options {
    std::vector<std::string> results;
    std::string reference_dir = "reference_data";
    std::string json, junit;
    bool force = false;
};

// A reference directory or file that is not there is the user's to fix (exit 2), not a regression:
// one line naming it and the command that records it.
void require_reference_files(const std::vector<regression::observed_run>& runs,
                             regression::reference_library& references) {
    const std::filesystem::path& dir = references.directory();
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error))
        throw input_error(dir.string(), "", "",
                          std::filesystem::exists(dir, error)
                              ? "--reference-dir is not a directory"
                              : "the reference directory (--reference-dir) does not exist");
    for (const auto& run : runs)
        if (references.file_for(run.key.scenario) == nullptr)
            throw input_error((dir / run.key.file_name()).string(), "", "",
                              "missing: no reference file for scenario '" + run.key.scenario + "' of " +
                                  run.file.string() + " (record one: stokesian reference record " + run.file.string() +
                                  " --reference-dir " + dir.string() + ")");
}

// The check's own provenance: this binary's build, where and when it ran, and the reference set
// (the directory, each reference file read with the digest of its bytes).
io::json check_provenance(const check_options& o, const std::vector<regression::run_check>& checks) {
    io::json p = io::json_object(io::build_provenance());
    for (const auto& [k, v] : io::run_provenance(invocation_argc(), invocation_argv())) p[k] = v;
    p["reference_dir"] = o.reference_dir;
    std::set<std::string> files;
    for (const auto& c : checks) files.insert(c.reference_file);
    io::json list = io::json::array();
    for (const std::string& file : files) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        list.push_back({{"file", file},
                        {"bytes", bytes.str().size()},
                        {"digest", text_digest(bytes.str())},
                        {digest_algorithm_key, digest_algorithm_tag}});
    }
    p["reference_files"] = std::move(list);
    return p;
}

int execute(const check_options& o) {
    // Read everything first: a bad result or reference file stops with exit status 2 before any table.
    std::vector<regression::observed_run> runs;
    for (const std::string& path : o.results) runs.push_back(regression::read_observed_run(path));
    // Neither report may replace a file this command reads, a result or a reference file.
    std::vector<std::filesystem::path> inputs(o.results.begin(), o.results.end());
    for (const auto& run : runs) inputs.push_back(std::filesystem::path(o.reference_dir) / run.key.file_name());
    const secondary_output json(o.json, o.force, inputs, "--json"), junit(o.junit, o.force, inputs, "--junit");
    require_distinct({&json, &junit});
    regression::reference_library references(o.reference_dir);
    require_reference_files(runs, references);
    std::vector<regression::run_check> checks;
    checks.reserve(runs.size());
    for (const auto& run : runs) checks.push_back(regression::check_run(run, references));

    print_check_table(std::cout, checks);
    if (json) json.write(check_json(checks, check_provenance(o, checks)));
    if (junit) junit.write(check_junit(checks));
    for (const auto& c : checks)
        if (!c.checked()) return 2;
    for (const auto& c : checks)
        if (!c.passed()) return 1;
    return 0;
}

}  // namespace

action register_reference_check(CLI::App& reference) {
    auto o = std::make_shared<check_options>();
    auto* cmd = reference.add_subcommand("check", "Compare results with their reference entries");
    cmd->add_option("results", o->results, "result files (H5MD, from stokesian run or suite run)")->required();
    cmd->add_option("--reference-dir", o->reference_dir,
                    "directory of <scenario>.h5 reference files (default reference_data)");
    cmd->add_option("--json", o->json, "also write the checks as JSON to this file");
    cmd->add_option("--junit", o->junit, "also write JUnit XML (one testcase per run and observable) to this file");
    cmd->add_flag("--force", o->force, "replace existing --json/--junit files");
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
