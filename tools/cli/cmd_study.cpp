// `stokesian study precision|timestep SCENARIO`: a matrix of precision modes x time steps x
// integrators of one periodic scenario, run concurrently by the regression suite's runner, then a
// study folder with the data, a Markdown summary with fitted drifts and convergence orders, and
// the paper's figures, rendered from study.json by tools/report. engine/docs/studies.md.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "commands.hpp"
#include "made_folders.hpp"
#include "option_values.hpp"
#include "options_common.hpp"
#include "options_devices.hpp"
#include "options_precision.hpp"
#include "options_run.hpp"
#include "report_renderer.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/file_lock.hpp"
#include "stokesian/io/output_target.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/study/study.hpp"
#include "suite_progress.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

namespace fs = std::filesystem;
using regression::suite_run_status;

struct study_cli_options {
    std::string kind, scenario, case_name, output_dir, gpus, batch;
    std::vector<precision_mode> modes;  // empty: the kind's default
    std::vector<std::string> dts, integrators;
    // --time, --sample-every, --backend (the [run] table's options) of each kind's subcommand
    std::map<std::string, std::shared_ptr<const run_key_options>> run_keys;
    double trajectory_time = -1.0;
    unsigned jobs = 0;
    std::size_t fit_cycles = 10;
    double heartbeat_seconds = default_heartbeat_seconds;
    bool force = false, no_plots = false;
};

std::vector<double> parse_dts(const std::vector<std::string>& given) {
    std::vector<double> out;
    for (const std::string& group : given)
        for (const std::string& text : split_list(group, ",; ")) {
            char* end = nullptr;
            const double dt = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !std::isfinite(dt) || dt <= 0.0)
                throw input_error("command line", "--dt", text, "expected numbers > 0 (a list, e.g. 0.04,0.02,0.01)");
            for (const double d : out)
                if (d == dt) throw input_error("command line", "--dt", text, "listed twice");
            out.push_back(dt);
        }
    return out;
}

std::vector<integrator_kind> parse_integrators(const std::vector<std::string>& given) {
    std::vector<integrator_kind> out;
    for (const std::string& group : given)
        for (const std::string& text : split_list(group, ",; ")) {
            if (text == "all") {
                for (const auto k :
                     {integrator_kind::euler, integrator_kind::heun, integrator_kind::rk4, integrator_kind::ab2})
                    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
                continue;
            }
            run_settings one;  // each item read by run.integrator's parser, as --integrator reads it
            try {
                settings::set_run_key(one, "integrator", text);
            } catch (const std::invalid_argument& e) {
                throw input_error("command line", "--integrators", text, e.what());
            }
            const integrator_kind k = one.integrator;
            if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
        }
    return out;
}

// --backend, else auto: every run's backend (a suite's default).
std::string backend_of(const study_cli_options& o) { return o.run_keys.at(o.kind)->text("backend").value_or("auto"); }

// The study's settings: the command line over the scenario's own run settings.
study::study_settings settings_from(const study_cli_options& o) {
    const scenario sc = load_scenario(o.scenario, o.case_name);  // input_error for a bad scenario
    if (!sc.observables.cycle)
        throw input_error(o.scenario, "observables.cycle", "",
                          "a study needs a periodic motion: the scenario has no cycle observable");
    study::study_settings s;
    s.kind = o.kind;
    s.scenario = fs::absolute(o.scenario).lexically_normal();
    s.case_name = o.case_name;
    s.backend = backend_of(o);
    s.fit_cycles = o.fit_cycles;
    s.modes = !o.modes.empty()        ? o.modes
              : o.kind == "precision" ? parse_precision_list("paper", "--precision")
                                      : std::vector<precision_mode>{sc.run.precision};
    const double dt = sc.run.dt;
    s.dts = !o.dts.empty()          ? parse_dts(o.dts)
            : o.kind == "precision" ? std::vector<double>{dt}
                                    : std::vector<double>{4 * dt, 2 * dt, dt, dt / 2};
    s.integrators = !o.integrators.empty()  ? parse_integrators(o.integrators)
                    : o.kind == "precision" ? std::vector<integrator_kind>{sc.run.integrator}
                                            : parse_integrators({"all"});
    if (s.modes.empty() || s.dts.empty() || s.integrators.empty())
        throw input_error("command line", "--precision/--dt/--integrators", "", "empty list");
    // The length and sampling of every run, whatever its dt: checked here, and against each dt when
    // the suite is prepared (not through the scenario's own dt, as `run` does).
    const run_key_options& given = *o.run_keys.at(o.kind);
    const auto positive = [](std::optional<double> x, const char* option) {
        if (x && !(*x > 0.0 && std::isfinite(*x)))
            throw input_error("command line", option, regression::dt_text(*x), "expected a number > 0 (tau_s)");
        return x;
    };
    const std::optional<double> time = positive(given.number("time"), "--time");
    const std::optional<double> sample_every = positive(given.number("sample_every"), "--sample-every");
    s.time = time ? *time : sc.run.time ? *sc.run.time : double(*sc.run.steps) * dt;
    s.sample_every = sample_every ? *sample_every : sc.run.sample_every;
    s.trajectory_time = o.trajectory_time >= 0.0 ? o.trajectory_time : std::min(s.time, 1100.0);
    return s;
}

std::vector<std::string> figures_in(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code e;
    if (!fs::is_directory(dir / "figures", e)) return out;
    for (const auto& entry : fs::directory_iterator(dir / "figures"))
        if (entry.path().extension() == ".png") out.push_back("figures/" + entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Where and with what the study ran: this binary's build, the invocation (host, date, command) and
// the device, driver and runtime of its first run (all runs of a study share them).
std::map<std::string, std::string> study_provenance(const fs::path& run_dir) {
    std::map<std::string, std::string> p = io::build_provenance();
    p["git_commit"] = p["version"];
    for (const auto& [k, v] : io::run_provenance(invocation_argc(), invocation_argv())) p[k] = v;
    std::error_code e;
    std::vector<fs::path> runs;
    for (const auto& entry : fs::directory_iterator(run_dir, e))
        if (entry.path().extension() == ".h5") runs.push_back(entry.path());
    std::sort(runs.begin(), runs.end());
    if (!runs.empty()) try {
            const auto run = regression::read_observed_run(runs.front()).provenance;
            for (const char* k :
                 {"backend", "device_name", "compute_capability", "driver_version", "runtime_version", "cuda_fp_flags",
                  "cuda_fp_profile", "cuda_architectures", "device_code", "hi_kernel", "threads"})
                if (const auto it = run.find(k); it != run.end()) p[k] = it->second;
        } catch (const std::exception&) {
            // a damaged run file: the study's analysis said so already; its provenance is left out
        }
    return p;
}

// The study's own files, in a folder checked empty (or replaced with --force) before it started.
void write_text(const fs::path& path, const std::string& text) { io::write_file_atomically(path, text); }

// Whether the folder holds anything but the study's lock file.
bool holds_files(const fs::path& dir, const fs::path& lock_file) {
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().filename() != lock_file.filename()) return true;
    return false;
}

// What an earlier study wrote (only its own names: the folder may hold other files). Each old run's
// files go under that run's lock (io/file_lock.hpp): a run another process still writes there
// refuses the study before anything is removed, its lock file and partial output kept.
void remove_earlier_study(const fs::path& dir, const fs::path& run_dir) {
    std::error_code e;
    std::map<fs::path, std::vector<fs::path>> old_runs;  // an output and its files (.partial, .checkpoint, ...)
    for (const auto& entry : fs::directory_iterator(run_dir, e)) {
        const std::string name = entry.path().filename().string();
        const std::size_t h5 = name.find(".h5");
        for (const char* prefix : {"euler_", "heun_", "rk4_", "ab2_", "trajectory_"})
            if (name.rfind(prefix, 0) == 0 && h5 != std::string::npos)
                old_runs[run_dir / name.substr(0, h5 + 3)].push_back(entry.path());
    }
    std::vector<io::file_lock> locks;
    for (const auto& run : old_runs) locks.push_back(io::lock_run_output(run.first));
    for (const char* stale : {"study.json", "summary.md", "summary.html", "manifest.toml"}) fs::remove(dir / stale, e);
    fs::remove_all(dir / "figures", e);
    for (const auto& [output, files] : old_runs)
        for (const fs::path& file : files)
            if (file != io::file_lock::lock_path_for(output)) fs::remove(file, e);
}

int execute(const study_cli_options& o) {
    study::study_settings s = settings_from(o);
    const fs::path dir = o.output_dir.empty() ? fs::path("study_" + o.kind + "_" + fs::path(o.scenario).stem().string())
                                              : fs::path(o.output_dir);
    std::error_code e;
    if (fs::exists(dir, e) && !fs::is_directory(dir, e))
        throw input_error(dir.string(), "", "", "exists and is not a directory");

    // The matrix as a suite manifest, checked (and every scenario override validated) before
    // anything is written.
    const std::string manifest_text = study::study_manifest_text(s);
    regression::suite_manifest manifest = regression::parse_suite_manifest(manifest_text, dir / "manifest.toml");
    regression::suite_options options;
    const std::string backend = backend_of(o);
    options.backend = backend == "auto" ? "" : backend;
    options.output_dir = dir / "runs";
    options.jobs = o.jobs;
    options.force = true;  // the folder was checked above
    if (!o.gpus.empty()) options.gpus = parse_device_selection(o.gpus);
    if (!o.batch.empty()) options.batch = regression::parse_batch_mode(o.batch);
    options.invocation = io::run_provenance(invocation_argc(), invocation_argv());
    // The folder is this study's alone until it ends: a second study on it, started at the same
    // moment or with --force, is refused, and its emptiness cannot change behind this check.
    made_folders made;  // declared before the lock: the lock file goes first
    made.make(dir);
    const io::file_lock folder_lock = io::lock_study_folder(dir);
    if (!o.force && holds_files(dir, io::file_lock::lock_path_for(dir / "study")))
        throw input_error(dir.string(), "", "", "exists and is not empty (use --force to replace the study)");
    made.make(options.output_dir);
    std::vector<regression::prepared_run> runs = regression::prepare_suite(manifest, options);
    s.backend = runs.front().scenario_.run.backend;
    if (backend == "auto") {
        bool mixed = false;
        for (const auto& p : runs) mixed = mixed || p.scenario_.run.backend != s.backend;
        if (mixed) s.backend = "mixed";
    }

    if (o.force) remove_earlier_study(dir, options.output_dir);
    write_text(dir / "manifest.toml", manifest_text);
    made.keep();
    options.stop_signal = &install_stop_handlers();

    regression::suite_execution suite(std::move(runs), options);
    std::printf("study %s of %s: %s (%s x %s x %s%s), %u at once, %s backend, output in %s\n", s.kind.c_str(),
                fs::path(o.scenario).filename().c_str(), count_of(suite.size(), "run").c_str(),
                count_of(s.modes.size(), "mode").c_str(), count_of(s.dts.size(), "time step").c_str(),
                count_of(s.integrators.size(), "integrator").c_str(),
                s.trajectory_time > 0.0 ? " + 1 trajectory run" : "", suite.jobs(), s.backend.c_str(),
                dir.string().c_str());
    std::fflush(stdout);
    const auto print_finished = [](const suite_run_status& r, std::size_t n, std::size_t total) {
        std::printf("[%2zu/%zu] %-32s %-11s %llu steps in %s%s%s\n", n, total, r.name.c_str(), r.state.c_str(),
                    static_cast<unsigned long long>(r.steps), format_duration(r.wall_seconds).c_str(),
                    r.state == "completed" ? "" : ": ", r.state == "completed" ? "" : r.message.c_str());
    };
    heartbeat pulse(o.heartbeat_seconds, "study " + s.kind + " " + fs::path(o.scenario).filename().string());
    const double wall = run_suite_with_progress(suite, pulse, print_finished);
    std::size_t failed = 0;
    for (const auto& r : suite.snapshot()) failed += r.state == "completed" ? 0 : 1;
    if (const int signal = options.stop_signal->load(); signal != 0) {
        std::printf("study interrupted; the runs written so far are in %s\n", options.output_dir.string().c_str());
        return 128 + signal;
    }

    study::study_report report = study::analyse_study(s, options.output_dir);
    report.wall_seconds = wall;
    const std::map<std::string, std::string> provenance = study_provenance(options.output_dir);
    write_text(dir / "study.json", study::study_json(report, {}, provenance));

    // The documents and figures: tools/report renders them from study.json (--no-plots: no figures).
    std::vector<std::string> args{"study", dir.string()};
    if (o.no_plots) args.emplace_back("--no-figures");
    const render_outcome rendered = render_report(python_interpreter(), args);
    if (!rendered.note.empty())
        std::fprintf(stderr, "stokesian: warning: summary and figures %s; the data is complete in %s\n",
                     rendered.note.c_str(), (dir / "study.json").string().c_str());
    if (const std::vector<std::string> figures = figures_in(dir); !figures.empty())
        write_text(dir / "study.json", study::study_json(report, figures, provenance));

    for (const study::convergence_series& c : report.convergence) {
        char order[160];
        if (std::isfinite(c.fit.order) && std::isfinite(c.fit.order_ci95))
            std::snprintf(order, sizeof order, "p = %.3f +- %.3f", c.fit.order, c.fit.order_ci95);
        else if (std::isfinite(c.fit.order)) std::snprintf(order, sizeof order, "p = %.3f (no interval)", c.fit.order);
        else std::snprintf(order, sizeof order, "not fitted");
        std::printf("  order in dt: %-5s %-15s %-12s %s%s%s\n", std::string(to_string(c.integrator)).c_str(),
                    to_string(c.mode).c_str(), c.quantity.c_str(), order, c.fit.note.empty() ? "" : "; ",
                    c.fit.note.c_str());
    }
    std::printf("study %s: %zu runs, %zu failed, in %s; summary in %s\n", s.kind.c_str(), suite.size(), failed,
                format_duration(wall).c_str(),
                (dir / (rendered.note.empty() ? "summary.md" : "study.json")).string().c_str());
    return failed > 0 ? 1 : 0;
}

void add_common(CLI::App* cmd, const std::shared_ptr<study_cli_options>& o, const std::string& kind) {
    cmd->add_option("scenario", o->scenario, "scenario file (TOML) with a cycle observable")->required();
    add_case_option(*cmd, o->case_name);
    add_precision_list_option(*cmd, o->modes,
                              "default: paper for a precision study, the scenario's for a time-step study");
    cmd->add_option("--dt", o->dts, "time steps, e.g. 0.04,0.02,0.01,0.005 (tau_s)");
    cmd->add_option("--integrators", o->integrators, "euler, heun, rk4, ab2 or all (comma-separated)");
    o->run_keys[kind] = add_run_key_options(
        *cmd, "The length and sampling interval of every run (default: the scenario's) and its backend (default auto)",
        {"time", "sample_every", "backend"});
    cmd->add_option(
        "--trajectory-time", o->trajectory_time,
        "length of the extra run that stores positions for the trajectory figure (default min(time, 1100); 0: none)");
    cmd->add_option("--fit-cycles", o->fit_cycles,
                    "cycles (from the first) over which the convergence in dt is fitted (default 10)")
        ->check(CLI::Range(std::size_t{3}, std::size_t{1000000}));
    add_jobs_option(*cmd, o->jobs);
    add_gpus_option(*cmd, o->gpus);
    add_batch_option(*cmd, o->batch);
    cmd->add_option("--output-dir", o->output_dir, "study folder (default study_<kind>_<scenario>)");
    cmd->add_flag("--force", o->force, "replace an existing study folder's contents");
    cmd->add_flag("--no-plots", o->no_plots, "render the summary without figures (tools/report)");
    add_heartbeat_option(*cmd, o->heartbeat_seconds);
}

}  // namespace

action register_study(CLI::App& app) {
    auto o = std::make_shared<study_cli_options>();
    auto* study =
        app.add_subcommand("study", "Precision and time-step studies of a periodic scenario (engine/docs/studies.md)");
    study->require_subcommand(1);
    auto* precision = study->add_subcommand(
        "precision", "Every precision mode (default the paper's four and f64) at the scenario's dt: drifts, Figs. 3-5");
    auto* timestep = study->add_subcommand(
        "timestep", "Time steps x integrators (default 4,2,1,1/2 x dt, all four): convergence orders, drift per cost");
    add_common(precision, o, "precision");
    add_common(timestep, o, "timestep");
    precision->callback([o] { o->kind = "precision"; });
    timestep->callback([o] { o->kind = "timestep"; });
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
