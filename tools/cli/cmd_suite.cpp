// `stokesian suite run SUITE.toml`: the runs of a regression suite (reference_data/suites/*.toml),
// concurrently, one output file per run, then DIR/suite-summary.json. One line per finished run;
// on a terminal a status line, elsewhere (CI logs) a heartbeat line every --heartbeat seconds.

#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options_backend.hpp"
#include "options_common.hpp"
#include "secondary_output.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "suite_progress.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

using regression::suite_run_status;

struct suite_cli_options {
    std::string manifest, backend, output_dir = ".";
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
                        {"output", r.output.string()},
                        {"backend", r.backend},
                        {"state", r.state},
                        {"message", r.message},
                        {"steps", r.steps},
                        {"wall_seconds", r.wall_seconds}});
    return io::json_text({{"suite", m.name},
                          {"manifest", m.source.string()},
                          {"scale", o.scale},
                          {"wall_seconds", elapsed},
                          {"runs", std::move(list)}});
}

int execute(const suite_cli_options& o) {
    (void)io::h5md_author(std::nullopt);  // a bad $STOKESIAN_AUTHOR is bad input once, before any run
    const regression::suite_manifest manifest = regression::load_suite_manifest(o.manifest);
    regression::suite_options options;
    options.backend = o.backend;
    options.output_dir = o.output_dir;
    options.jobs = o.jobs;
    options.scale = o.scale;
    options.force = o.force;
    options.only = o.only;
    options.invocation = io::run_provenance(invocation_argc(), invocation_argv());
    std::filesystem::create_directories(options.output_dir);
    // Checked with the runs' outputs, before the first run (secondary_output.hpp).
    const secondary_output summary(options.output_dir / "suite-summary.json", o.force, {o.manifest}, "--output-dir");
    std::vector<regression::prepared_run> runs = regression::prepare_suite(manifest, options);
    options.stop_signal = &install_stop_handlers();

    regression::suite_execution suite(std::move(runs), options);
    std::printf("suite %s: %zu runs, %u at once, output in %s%s\n", manifest.name.c_str(), suite.size(), suite.jobs(),
                options.output_dir.string().c_str(),
                o.scale != 1.0 ? (", run lengths x " + regression::dt_text(o.scale)).c_str() : "");
    std::fflush(stdout);

    const auto print_finished = [](const suite_run_status& r, std::size_t n, std::size_t total) {
        const double rate = r.wall_seconds > 0.0 ? double(r.steps) / r.wall_seconds : 0.0;
        std::printf("[%2zu/%zu] %-28s %-11s %s %llu steps in %s (%.3g steps/s) -> %s%s%s\n", n, total, r.name.c_str(),
                    r.state.c_str(), r.backend.c_str(), static_cast<unsigned long long>(r.steps),
                    format_duration(r.wall_seconds).c_str(), rate, r.output.string().c_str(),
                    r.state == "completed" ? "" : ": ", r.state == "completed" ? "" : r.message.c_str());
    };
    heartbeat pulse(o.heartbeat_seconds, "suite " + manifest.name);
    const double wall = run_suite_with_progress(suite, pulse, print_finished);
    const std::vector<suite_run_status> result = suite.snapshot();
    summary.write(summary_json(manifest, o, result, wall));
    std::size_t failed = 0, interrupted = 0;
    for (const auto& r : result) {
        failed += r.state == "failed" ? 1 : 0;
        interrupted += r.state == "interrupted" ? 1 : 0;
    }
    std::printf("suite %s: %zu completed, %zu failed, %zu interrupted in %s; summary in %s\n", manifest.name.c_str(),
                suite.size() - failed - interrupted, failed, interrupted, format_duration(wall).c_str(),
                summary.path().string().c_str());
    if (const int signal = options.stop_signal->load(); signal != 0) return 128 + signal;
    return failed > 0 || interrupted > 0 ? 1 : 0;
}

}  // namespace

action register_suite(CLI::App& app) {
    auto o = std::make_shared<suite_cli_options>();
    auto* suite = app.add_subcommand("suite", "Regression suites (reference_data/suites/*.toml)");
    suite->require_subcommand(1);
    auto* run = suite->add_subcommand("run", "Run every run of a suite manifest concurrently");
    run->add_option("manifest", o->manifest, "suite manifest (TOML)")->required();
    add_backend_option(*run, o->backend, "overrides the runs' backend");
    run->add_option("--output-dir", o->output_dir, "directory for <run name>.h5 and suite-summary.json (default .)");
    add_jobs_option(*run, o->jobs);
    run->add_option("--scale", o->scale,
                    "multiply the run lengths by this fraction (0 < F <= 1), e.g. 0.01 for a smoke run");
    run->add_flag("--force", o->force, "replace existing output files (suite-summary.json included)");
    run->add_option("--only", o->only, "run only the runs whose names match these glob patterns (e.g. 'tetrahedron_*')")
        ->delimiter(',');
    add_heartbeat_option(*run, o->heartbeat_seconds);
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
