// `stokesian suite run SUITE.toml [MORE.toml ...]`: the runs of regression suites
// (reference_data/suites/*.toml), concurrently in one pool, one output file per run, then
// suite-summary.json in each manifest's folder. One line per finished run; on a terminal a status
// line, elsewhere (CI logs) a heartbeat line every --heartbeat seconds. Several manifests share one
// process (on a GPU one CUDA context: two processes would time-slice the device); each writes into
// DIR/<suite name>/ or the folder --output-dirs gives it.

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "made_folders.hpp"
#include "options_common.hpp"
#include "options_devices.hpp"
#include "options_run.hpp"
#include "secondary_output.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/io/output_target.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "suite_progress.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

using regression::suite_run_status;

struct suite_cli_options {
    std::vector<std::string> manifests, output_dirs;
    std::shared_ptr<const run_key_options> run_keys;  // --backend: the [run] table's
    std::string output_dir = ".", gpus, batch, reference_dir, verify = "segments";
    unsigned jobs = 0;
    double scale = 1.0;
    double heartbeat_seconds = default_heartbeat_seconds;
    bool force = false;
    std::vector<std::string> only;
};

std::string summary_json(const regression::suite_manifest& m, const suite_cli_options& o,
                         const std::vector<suite_run_status>& runs, double elapsed) {
    io::json list = io::json::array();
    for (const auto& r : runs)
        list.push_back({{"name", r.name},
                        {"file", r.output.string()},
                        {"backend", r.backend},
                        {"devices", r.devices},
                        {"state", r.state},
                        {"message", r.message},
                        {"verification", r.verification},
                        {"steps", r.steps},
                        {"wall_seconds", r.wall_seconds}});
    return io::json_text({{"suite", m.name},
                          {"manifest", m.source.string()},
                          {"scale", o.scale},
                          {"wall_seconds", elapsed},
                          {"runs", std::move(list)}});
}

// Each manifest's output folder: --output-dir itself for one manifest, DIR/<suite name> for several,
// or the --output-dirs entry in the manifests' order.
std::vector<std::filesystem::path> output_dirs(const std::vector<regression::suite_manifest>& manifests,
                                               const suite_cli_options& o) {
    std::vector<std::filesystem::path> dirs;
    if (!o.output_dirs.empty()) {
        if (o.output_dirs.size() != manifests.size())
            throw input_error("command line", "--output-dirs", "",
                              "expected one folder per manifest (" + std::to_string(manifests.size()) + "), got " +
                                  std::to_string(o.output_dirs.size()));
        for (const std::string& d : o.output_dirs) dirs.emplace_back(d);
    } else if (manifests.size() == 1) {
        dirs.emplace_back(o.output_dir);
    } else {
        for (const auto& m : manifests) dirs.push_back(std::filesystem::path(o.output_dir) / m.name);
    }
    for (std::size_t i = 0; i < dirs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (io::same_file(dirs[i], dirs[j]))  // "o" and "o/", a link to "o": one folder
                throw input_error("command line", o.output_dirs.empty() ? "manifest" : "--output-dirs",
                                  dirs[i].string(),
                                  "two manifests would write into the same folder (each needs its own: distinct "
                                  "suite names, or --output-dirs)");
    return dirs;
}

int execute(const suite_cli_options& o) {
    (void)io::h5md_author(std::nullopt);  // a bad $STOKESIAN_AUTHOR is bad input once, before any run
    std::vector<regression::suite_manifest> manifests;
    for (const std::string& m : o.manifests) manifests.push_back(regression::load_suite_manifest(m));
    const std::vector<std::filesystem::path> dirs = output_dirs(manifests, o);
    regression::suite_options options;
    options.backend = o.run_keys->text("backend").value_or("");  // none: each run's manifest entry
    options.output_dir = dirs.front();
    options.jobs = o.jobs;
    options.scale = o.scale;
    options.force = o.force;
    options.only = o.only;
    if (!o.gpus.empty()) options.gpus = parse_device_selection(o.gpus);
    if (!o.batch.empty()) options.batch = regression::parse_batch_mode(o.batch);
    try {
        options.verify = regression::parse_verify_mode(o.verify);
    } catch (const std::invalid_argument& e) {
        throw input_error("command line", "--verify", o.verify, e.what());
    }
    if (!o.reference_dir.empty()) {
        if (!std::filesystem::is_directory(o.reference_dir))
            throw input_error("command line", "--reference-dir", o.reference_dir, "a directory of reference files");
        options.reference_dir = o.reference_dir;
    }
    options.invocation = io::run_provenance(invocation_argc(), invocation_argv());
    std::vector<regression::suite_part> parts;
    std::vector<secondary_output> summaries;
    const std::vector<std::filesystem::path> inputs(o.manifests.begin(), o.manifests.end());
    made_folders folders;
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        folders.make(dirs[i]);
        // Checked with the runs' outputs, before the first run (secondary_output.hpp).
        summaries.emplace_back(dirs[i] / "suite-summary.json", o.force, inputs,
                               o.output_dirs.empty() ? "--output-dir" : "--output-dirs");
        parts.push_back({manifests[i], dirs[i]});
    }
    std::vector<regression::prepared_run> runs = regression::prepare_suites(parts, options);
    folders.keep();
    options.stop_signal = &install_stop_handlers();

    regression::suite_execution suite(std::move(runs), options);
    std::string names, where;
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        names += (i ? " + " : "") + manifests[i].name;
        where += (i ? ", " : "") + dirs[i].string();
    }
    const std::string batched = suite.batches() == 0 ? std::string()
                                                     : " (" + std::to_string(suite.batched_runs()) + " of them in " +
                                                           std::to_string(suite.batches()) +
                                                           (suite.batches() == 1 ? " batch)" : " batches)");
    std::printf("suite %s: %zu runs, %u at once%s, output in %s%s\n", names.c_str(), suite.size(), suite.jobs(),
                batched.c_str(), where.c_str(),
                o.scale != 1.0 ? (", run lengths x " + regression::dt_text(o.scale)).c_str() : "");
    std::fflush(stdout);

    const auto print_finished = [](const suite_run_status& r, std::size_t n, std::size_t total) {
        const double rate = r.wall_seconds > 0.0 ? double(r.steps) / r.wall_seconds : 0.0;
        const std::string placed = r.devices.empty() ? r.backend : r.backend + " gpu " + r.devices;
        std::printf("[%2zu/%zu] %-28s %-11s %s %llu steps in %s (%.3g steps/s) -> %s%s%s%s%s\n", n, total,
                    regression::run_label(r).c_str(), r.state.c_str(), placed.c_str(),
                    static_cast<unsigned long long>(r.steps), format_duration(r.wall_seconds).c_str(), rate,
                    r.output.string().c_str(), r.state == "completed" ? "" : ": ",
                    r.state == "completed" ? "" : r.message.c_str(), r.verification.empty() ? "" : "; ",
                    r.verification.c_str());
    };
    heartbeat pulse(o.heartbeat_seconds, "suite " + names);
    const double wall = run_suite_with_progress(suite, pulse, print_finished);
    const std::vector<suite_run_status> result = suite.snapshot();
    std::size_t failed_total = 0, interrupted_total = 0;
    // One summary and one closing line per manifest (ci/gpu-nightly reads each suite's line).
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        std::vector<suite_run_status> mine;
        for (const auto& r : result)
            if (manifests.size() == 1 || r.suite == manifests[i].name) mine.push_back(r);
        summaries[i].write(summary_json(manifests[i], o, mine, wall));
        std::size_t failed = 0, interrupted = 0;
        for (const auto& r : mine) {
            failed += r.state == "failed" ? 1 : 0;
            interrupted += r.state == "interrupted" ? 1 : 0;
        }
        failed_total += failed;
        interrupted_total += interrupted;
        std::printf("suite %s: %zu completed, %zu failed, %zu interrupted in %s; summary in %s\n",
                    manifests[i].name.c_str(), mine.size() - failed - interrupted, failed, interrupted,
                    format_duration(wall).c_str(), summaries[i].path().string().c_str());
    }
    if (const int signal = options.stop_signal->load(); signal != 0) return 128 + signal;
    return failed_total > 0 || interrupted_total > 0 ? 1 : 0;
}

}  // namespace

action register_suite(CLI::App& app) {
    auto o = std::make_shared<suite_cli_options>();
    auto* suite = app.add_subcommand("suite", "Regression suites (reference_data/suites/*.toml)");
    suite->require_subcommand(1);
    auto* run = suite->add_subcommand("run", "Run every run of one or more suite manifests concurrently, in one pool");
    run->add_option("manifest", o->manifests, "suite manifests (TOML); several share one process and one pool")
        ->required();
    o->run_keys = add_run_key_options(*run, "The backend of every run (default: each run's in the manifest, else auto)",
                                      {"backend"});
    auto* dir = run->add_option("--output-dir", o->output_dir,
                                "directory for <run name>.h5 and suite-summary.json (default .); with several "
                                "manifests each writes into DIR/<suite name>/");
    run->add_option("--output-dirs", o->output_dirs,
                    "one output directory per manifest, in the manifests' order (instead of --output-dir)")
        ->delimiter(',')
        ->excludes(dir);
    add_jobs_option(*run, o->jobs);
    add_gpus_option(*run, o->gpus);
    add_batch_option(*run, o->batch);
    run->add_option("--scale", o->scale,
                    "multiply the run lengths by this fraction (0 < F <= 1), e.g. 0.01 for a smoke run");
    run->add_flag("--force", o->force, "replace existing output files (suite-summary.json included)");
    run->add_option("--only", o->only, "run only the runs whose names match these glob patterns (e.g. 'tetrahedron_*')")
        ->delimiter(',');
    run->add_option("--reference-dir", o->reference_dir,
                    "the references the runs are checked against: a run whose entry stores segment boundaries "
                    "verifies in segments (engine/docs/segmented-verification.md)");
    run->add_option("--verify", o->verify,
                    "segments (default: where the reference stores boundaries, each segment must end bit for bit "
                    "at its boundary, else the run runs continuously) or continuous");
    add_heartbeat_option(*run, o->heartbeat_seconds);
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
