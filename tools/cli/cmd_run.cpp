// `stokesian run SCENARIO`: run a scenario file and write an H5MD file; `stokesian run --resume
// OUTPUT` continues an interrupted run from its checkpoint (run/run.hpp).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "heartbeat.hpp"
#include "option_values.hpp"
#include "options_common.hpp"
#include "options_run.hpp"
#include "process_ranks.hpp"
#include "result_analysis.hpp"
#include "run_size_guard.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/file_lock.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/run_overrides.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

struct run_options {
    std::string scenario_path;
    std::string case_name;
    std::string output;
    std::string resume;
    std::optional<std::string> author;
    std::optional<double> checkpoint_wall;
    double first_step_limit = default_first_step_limit_seconds;
    double heartbeat_seconds = default_heartbeat_seconds;
    std::optional<std::string> stop_at_step;  // checked by step_count_option
    std::optional<unsigned> threads;
    bool force = false, json = false;
    bool output_given = false;                        // -o '' is an error, not the default name
    std::shared_ptr<const run_key_options> run_keys;  // --dt, --backend, --precision, ...: the [run] table's
};

// Command-line values override the scenario's [run] keys through its field table (every key has
// its option there); the result is validated like a scenario file.
void apply_overrides(scenario& s, const run_options& o) {
    settings::apply_run_overrides(s.run, o.run_keys->overrides());
}

std::string default_output(const scenario& s) {
    return s.name + (s.case_name.empty() ? "" : "_" + s.case_name) + ".h5";
}

// --resume accepts the output, its .partial or its .checkpoint; all name the same run.
std::filesystem::path output_of_resume(const std::string& argument) {
    for (const std::string suffix : {".checkpoint", ".partial"})
        if (argument.size() > suffix.size() && argument.ends_with(suffix))
            return argument.substr(0, argument.size() - suffix.size());
    return argument;
}

// The scenario to resume: the file given again (checked against the checkpoint by the run), or
// the one the checkpoint stored, with the run settings it ran with.
scenario scenario_to_resume(const run_options& o, const std::filesystem::path& output) {
    if (!o.output.empty() && std::filesystem::path(o.output) != output)
        throw input_error("command line", "--output", o.output, "--resume " + o.resume + " names the output already");
    if (!o.scenario_path.empty()) return load_scenario(o.scenario_path, o.case_name);
    if (!o.case_name.empty())
        throw input_error("command line", "--case", o.case_name, "--case needs the SCENARIO file");
    io::lock_run_output(output);  // a live run's output: say so, not that its checkpoint is missing
    const std::filesystem::path checkpoint = io::checkpoint_path_for(output);
    if (!std::filesystem::exists(checkpoint))
        throw input_error(checkpoint.string(), "", "",
                          "no checkpoint to resume from (the run completed, or stopped "
                          "before its first checkpoint: start it again)");
    return scenario_from_checkpoint(io::read_checkpoint(checkpoint), checkpoint);
}

// The run; a full device (or quota, or file size limit) stops it with one line that says what
// is kept and how to go on (exit code 2: the environment's to fix).
run_result run_or_say_what_is_kept(const run_request& req, progress_line& progress) {
    try {
        run_result r = run_scenario(req);
        progress.finish();
        return r;
    } catch (const no_space_error& e) {
        progress.finish();
        const std::filesystem::path partial = std::filesystem::path(req.output.path) += ".partial";
        const std::filesystem::path checkpoint = io::checkpoint_path_for(req.output.path);
        std::error_code error;
        const bool have_partial = std::filesystem::exists(partial, error);
        std::string kept = have_partial ? "kept '" + partial.string() + "' (unfinished)" : "nothing kept";
        if (std::filesystem::exists(checkpoint, error))
            kept += " and the checkpoint '" + checkpoint.string() + "': free space, then `stokesian run --resume " +
                    req.output.path.string() + "`";
        else kept += ", no checkpoint: free space and run again";
        throw input_error(std::string(e.what()) + "; " + kept);
    }
}

// The exit code of a run's outcome (the summary, printed by the caller, aside).
int exit_code(const run_result& r) {
    if (r.failed) return 1;
    return r.signal ? 128 + r.signal : 0;
}

// A rank other than 0 of `mpirun -n R stokesian run ...`: it reads and writes nothing, prints
// nothing, takes part in rank 0's run (follow_run) and exits as rank 0 does. A signal (mpirun
// passes Ctrl-C on as SIGTERM) stops it only through rank 0, which checkpoints first.
int follow(const run_options& o) {
    (void)install_stop_handlers();
    return exit_code(follow_run(process_ranks(), o.threads.value_or(0)));
}

int execute(const run_options& o, int argc, char** argv) {
    if (!process_ranks().leads()) return follow(o);
    if (o.scenario_path.empty() && o.resume.empty())
        throw input_error("command line", "", "", "expected a SCENARIO file, or --resume OUTPUT");
    const std::filesystem::path resume_output = output_of_resume(o.resume);
    scenario s = o.resume.empty() ? load_scenario(o.scenario_path, o.case_name) : scenario_to_resume(o, resume_output);
    apply_overrides(s, o);

    run_request req;
    req.scenario_ = s;
    req.output.path = !o.resume.empty() ? resume_output
                      : !o.output_given ? std::filesystem::path(default_output(s))
                                        : std::filesystem::path(o.output);
    req.output.force = o.force;
    if (o.author) req.output.author = io::h5md_author(o.author);  // checked before anything runs
    req.resume = !o.resume.empty();
    if (o.checkpoint_wall) req.checkpoint_wall_seconds = *o.checkpoint_wall;
    req.invocation = io::run_provenance(argc, argv);
    req.stop_signal = &install_stop_handlers();
    if (o.threads) req.threads = *o.threads;
    if (o.stop_at_step) req.stop_after_step = step_count_option(*o.stop_at_step, "--stop-at-step");
    if (process_ranks().size() > 1) req.ranks = &process_ranks();
    progress_line progress;
    req.on_progress = [&](const run_progress& p) { progress.update(p); };
    // In a CI log (stderr not a terminal) a line every --heartbeat seconds, from the run's events.
    heartbeat pulse(o.heartbeat_seconds, "run " + req.output.path.filename().string());
    if (pulse.enabled())
        req.on_event = [&pulse](run_event event, const run_progress& p) {
            if (event == run_event::sample) pulse.beat(progress_text(p));
        };

    run_result r;
    try {
        guard_run_size(s, req.threads, req.stop_signal, o.first_step_limit, o.force);
        r = run_or_say_what_is_kept(req, progress);
    } catch (const step_interrupted& e) {
        // Only before the first step (the initial velocities): later the run stops at its last
        // complete step and writes a checkpoint.
        std::fprintf(stderr, "stokesian: interrupted by signal %d before the first step; %s\n", e.signal(),
                     req.resume ? "the checkpoint and the partial output are unchanged" : "no output written");
        // The other ranks still wait for the run (the size guard runs before it): end them too.
        if (process_ranks().size() > 1) process_ranks().abort(128 + e.signal());
        return 128 + e.signal();
    }

    if (o.json) {
        // What the file says, as `stokesian analyze --json` prints it, then what only the run knows.
        io::json summary = result_json(read_result_file(r.output.string()));
        // The machine code that ran on the device (CUDA: "SASS (sm_90)" or "PTX JIT (compute_90)").
        // Why auto chose the backend (backends/registry.hpp); the HI kernel that ran, and why when a
        // request (auto, fast) chose it (backends/hi_kernel_choice.hpp).
        for (const char* key : {"device_code", "backend_choice", "hi_kernel", "hi_kernel_choice"})
            if (r.engine.count(key)) summary[key] = r.engine.at(key);
        summary["simulated_time"] = r.simulated_time;
        summary["steps_per_second"] = r.wall_seconds > 0 ? double(r.steps) / r.wall_seconds : 0.0;
        summary["final_state_digest"] = r.final_state_digest;
        summary["resumable"] = r.resumable;
        summary["checkpoint"] = r.checkpoint.string();
        std::cout << io::json_text(summary);
    } else {
        std::printf("wrote %s: %s, %llu steps (%.6g tau_s) in %s, %.3g steps/s [%s, %s]\n", r.output.string().c_str(),
                    r.status.c_str(), static_cast<unsigned long long>(r.steps), r.simulated_time,
                    format_duration(r.wall_seconds).c_str(),
                    r.wall_seconds > 0 ? double(r.steps) / r.wall_seconds : 0.0, to_string(s.run.precision).c_str(),
                    r.engine.count("backend") ? r.engine.at("backend").c_str() : "");
        if (r.summary.count("cycles")) {
            const auto mean = [&](const char* key) { return r.summary.count(key) ? r.summary.at(key) : NAN; };
            if (std::isnan(mean("period_mean")) || std::isnan(mean("amplitude_mean")))
                std::printf("  cycles: %.0f, no complete cycle: no mean period or amplitude\n", r.summary.at("cycles"));
            else
                std::printf("  cycles: %.0f, mean period %.6g tau_s, mean amplitude %.6g a\n", r.summary.at("cycles"),
                            mean("period_mean"), mean("amplitude_mean"));
        }
        if (r.summary.count("max_abs_y1"))
            std::printf("  symmetry: max |y1| = %.3g a, largest residual %.3g a\n", r.summary.at("max_abs_y1"),
                        r.summary.at("max_abs_symmetry_residual"));
        if (r.summary.count("lubrication_solver_mean_iterations"))  // implicit lubrication (engine/docs/lubrication.md)
            std::printf(
                "  lubrication solve: %.4g conjugate-gradient iterations per sampled solve (most %.0f), largest "
                "relative residual %.3g (tolerance %.3g)\n",
                r.summary.at("lubrication_solver_mean_iterations"), r.summary.at("lubrication_solver_most_iterations"),
                r.summary.at("lubrication_solver_largest_relative_residual"),
                r.summary.at("lubrication_solver_tolerance"));
    }
    if (r.failed)
        std::fprintf(stderr, "stokesian: %s (output written to %s)\n", r.status.c_str(), r.output.string().c_str());
    else if (r.resumable || r.signal) std::fprintf(stderr, "stokesian: %s\n", r.status.c_str());
    return exit_code(r);
}

}  // namespace

action register_run(CLI::App& app) {
    auto o = std::make_shared<run_options>();
    auto* cmd = app.add_subcommand("run", "Run a scenario and write an H5MD file");
    cmd->add_option("scenario", o->scenario_path, "scenario file (TOML); optional with --resume");
    cmd->add_option("--resume", o->resume,
                    "continue the interrupted run of OUTPUT (or OUTPUT.checkpoint) bit for bit from its checkpoint");
    add_case_option(*cmd, o->case_name);
    o->run_keys = add_run_key_options(*cmd, "Override the scenario's [run] keys (docs/reference/scenario-file.md)");
    add_threads_option(*cmd, o->threads);
    cmd->add_option("--checkpoint-wall", o->checkpoint_wall,
                    "checkpoint at least every SECONDS of wall time (default 600; 0: only on signals)")
        ->check(seconds_check("no wall-clock checkpoints"));
    cmd->add_option("--stop-at-step", o->stop_at_step,
                    "stop at step N as if interrupted, with a checkpoint to --resume from (a run split in parts, "
                    "e.g. continued on another number of MPI ranks)");
    cmd->add_option("--first-step-limit", o->first_step_limit,
                    "refuse (without --force) a system above 4096 particles whose first step is estimated to end "
                    "after SECONDS (default 3600)")
        ->check(seconds_check());
    auto* output = cmd->add_option("--output,-o", o->output, "output file (default: <scenario name>[_<case>].h5)");
    cmd->add_flag("--force", o->force,
                  "replace an existing output file; run a system whose first step is estimated to exceed "
                  "--first-step-limit or the available memory");
    cmd->add_option("--author", o->author,
                    "H5MD author name (default: $STOKESIAN_AUTHOR, else the account name); UTF-8, one line, at most " +
                        std::to_string(io::max_author_bytes) + " bytes");
    cmd->add_flag("--json", o->json, "print a machine-readable summary on stdout");
    add_heartbeat_option(*cmd, o->heartbeat_seconds);
    // argc/argv for provenance are captured by main through the global below.
    return [o, output] {
        o->output_given = output->count() > 0;
        return execute(*o, invocation_argc(), invocation_argv());
    };
}

}  // namespace stokesian::cli
