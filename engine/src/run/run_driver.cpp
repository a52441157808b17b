// The run loop (core/run.hpp): engine, sampling, observables, H5MD output, checkpoints, resume,
// stops on signals and numerical blow-up.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <sstream>

#include "io/frame_journal.hpp"
#include "run/blow_up.hpp"
#include "run/completed_run.hpp"
#include "run/run_files.hpp"
#include "run/run_output_claim.hpp"
#include "run/run_record.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian {

std::string state_digest(const frame& f, digest_algorithm algorithm) {
    digest_builder h(algorithm);
    h.bytes(f.position.data(), f.position.size() * sizeof(f.position[0]));
    h.bytes(f.image.data(), f.image.size() * sizeof(f.image[0]));
    h.bytes(f.velocity.data(), f.velocity.size() * sizeof(f.velocity[0]));
    return h.hex();
}

namespace {

using clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// The run's settings as /parameters/run holds them.
std::map<std::string, std::string> run_settings(const scenario& s) {
    return {{"precision", to_string(s.run.precision)},
            {"hi_precision", std::string(to_string(s.run.precision.hi))},
            {"integration_precision", std::string(to_string(s.run.precision.integration))},
            {"integrator", std::string(to_string(s.run.integrator))},
            {"dt", exact_number(s.run.dt)},
            {"planned_steps", std::to_string(s.run.total_steps())},
            {"sample_interval_steps", std::to_string(s.run.sample_interval_steps())}};
}

// What identifies the run (scenario, settings, build, command line), written when the output is
// created and flushed with it, so even a killed run's partial output says what it was.
void write_identity(io::h5md_writer& out, const run_request& req) {
    const scenario& s = req.scenario_;
    out.write_parameters("scenario", {{"name", s.name},
                                      {"case", s.case_name},
                                      {"description", s.description},
                                      {"source_path", s.source_path.string()},
                                      {"source_text", s.source_text},
                                      {"resolved_configuration", resolved_configuration(s)}});
    std::map<std::string, std::string> run = run_settings(s);
    run["status"] = "running";
    out.write_parameters("run", run);
    out.write_parameters("build", io::build_provenance());
    out.write_parameters("invocation", req.invocation);
}

// The outcome, at the end of the run (over the identity's "running" status).
void write_provenance(io::h5md_writer& out, const run_request& req, const engine& eng, const run_result& r) {
    std::map<std::string, std::string> run = run_settings(req.scenario_);
    run.insert({{"steps", std::to_string(r.steps)},
                {"status", r.status},
                {"wall_seconds", exact_number(r.wall_seconds)},
                {"final_state_digest", r.final_state_digest},
                {digest_algorithm_key, digest_tag(current_digest_algorithm)},
                {"final_state_digest_legacy", r.legacy_final_state_digest}});
    if (r.resumed_from_step > 0) run["resumed_from_step"] = std::to_string(r.resumed_from_step);
    out.write_parameters("run", run);
    out.write_parameters("engine", eng.description());
}

std::vector<double> flat_positions(const frame& f) {
    std::vector<double> flat;
    flat.reserve(3 * f.position.size());
    for (const auto& r : f.position) flat.insert(flat.end(), {r.x, r.y, r.z});
    return flat;
}

// A state with a non-finite word is never checkpointed: resuming it could only blow up again.
bool finite_state(const engine_state& s) {
    auto finite = [](const std::vector<vec3<double>>& values) {
        return std::all_of(values.begin(), values.end(), [](const vec3<double>& v) {
            return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
        });
    };
    return finite(s.position_hi) && finite(s.position_lo) && finite(s.velocity_hi) && finite(s.velocity_lo) &&
           finite(s.force);
}

// Restores the observables of a checkpoint, in run order; a list or state that does not fit this
// run's observables is one input_error naming the checkpoint group.
void restore_observables(std::vector<std::unique_ptr<observable>>& observables, const io::run_checkpoint& c,
                         const fs::path& path) {
    if (c.observables.size() != observables.size())
        throw input_error(path.string(), "/checkpoint/observables", "",
                          "holds " + std::to_string(c.observables.size()) + " observables, the run has " +
                              std::to_string(observables.size()));
    for (std::size_t k = 0; k < observables.size(); ++k) {
        char group[48];
        std::snprintf(group, sizeof group, "/checkpoint/observables/%03zu", k);
        const auto& [kind, state] = c.observables[k];
        if (kind != observables[k]->kind())
            throw input_error(path.string(), group, kind, "expected the observable '" + observables[k]->kind() + "'");
        try {
            observables[k]->restore(state);
        } catch (const std::invalid_argument& e) {
            throw input_error(path.string(), group, kind, e.what());
        }
    }
}

}  // namespace

run_result run_scenario(const run_request& req) {
    const scenario& s = req.scenario_;
    validate_run_settings(s.run, s.source_path.string());
    engine_config config = make_engine_config(s);
    config.threads = req.threads;
    config.interrupt = req.stop_signal;  // a signal abandons a long step (engine/docs/reliability.md)
    io::h5md_options opts = req.output;
    if (!s.run.write_trajectory) opts.write_velocity = opts.write_force = false;
    const io::box_description box{s.system.box.periodic, s.system.box.edges};
    const fs::path checkpoint_path = io::checkpoint_path_for(opts.path);
    // Held to the end: no other run touches this output, its partial or its checkpoint.
    const io::file_lock output_lock = claim_run_output(opts.path, opts.force, req.resume);
    const fs::path journal_path = io::frame_journal_path_for(opts.path);
    const io::journal_layout layout{s.particles.size(), box.periodic && opts.write_image, opts.write_velocity,
                                    opts.write_force};
    std::optional<io::frame_journal> journal;  // with a trajectory: the crash-consistent copy of its frames

    std::unique_ptr<io::h5md_writer> out;
    std::unique_ptr<engine> eng;
    auto observables = make_observables(s);
    std::optional<io::run_checkpoint> resumed;
    if (req.resume) {
        // Everything that can be checked is checked before the output is touched.
        require_checkpoint(opts.path, checkpoint_path);
        resumed = io::read_checkpoint(checkpoint_path);
        check_same_run(s, *resumed, checkpoint_path);
        // Killed between the output's final rename and the checkpoint's removal: the run is done.
        if (std::optional<run_result> done = completed_run_at(opts.path, s)) {
            io::remove_frame_journal(journal_path);
            remove_checkpoint(checkpoint_path);
            return *done;
        }
        eng = make_engine(config, s.particles);
        check_same_engine(eng->description(), *resumed, checkpoint_path);
        try {
            eng->restore_state(resumed->engine);
        } catch (const std::invalid_argument& e) {
            throw input_error(checkpoint_path.string(), "/checkpoint/engine", "", e.what());
        }
        restore_observables(observables, *resumed, checkpoint_path);
        // The output is rebuilt from the checkpoint and the frame journal, never reopened: the
        // interrupted run's partial file is replaced only once the rebuilt one is complete.
        const bool moved = reclaim_output_for_resume(opts.path);
        try {
            if (s.run.write_trajectory) {
                journal.emplace(journal_path, layout, resumed->frames_written, resumed->last_frame_digest,
                                resumed->digests);
                journal->cut_to_frames();
            }
            out = std::make_unique<io::h5md_writer>(opts, s.particles.size(), box, io::rebuild_tag{});
            write_identity(*out, req);
            out->write_parameters("engine", eng->description());
            frame durable;
            for (std::uint64_t k = 0; journal && k < journal->frames(); ++k) {
                journal->read(k, durable);
                out->append_frame(durable);
            }
            out->replace_partial();
        } catch (...) {
            if (out) out->abandon();
            if (moved) undo_reclaim(opts.path);
            throw;
        }
    } else {
        // Open the output before the (possibly long) set-up so a bad path fails at once.
        if (!opts.force && fs::exists(checkpoint_path) && completed_run_at(opts.path, s))
            throw input_error(opts.path.string(), "", "", completed_run_note);
        refuse_stale_checkpoint(opts.path, checkpoint_path, opts.force);
        out = std::make_unique<io::h5md_writer>(opts, s.particles.size(), box);
        remove_checkpoint(checkpoint_path);  // a stale one, replaced with --force
        io::remove_frame_journal(journal_path);
        try {
            write_identity(*out, req);
            out->flush();
            eng = make_engine(config, s.particles);
            out->write_parameters("engine", eng->description());
            out->flush();
            if (s.run.write_trajectory) journal.emplace(journal_path, layout);
        } catch (...) {
            out->abandon();  // the run never started: no partial output to keep
            throw;
        }
    }

    run_result result;
    result.output = opts.path;
    result.engine = eng->description();
    std::map<std::string, std::string> record = run_record(s);
    record_engine(record, result.engine);
    const std::uint64_t total = s.run.total_steps();
    const std::uint64_t interval = s.run.sample_interval_steps();
    const std::uint64_t checkpoint_interval = s.run.checkpoint_interval_steps();

    frame f;
    std::string blow_up;
    std::string solver_failure;  // the implicit lubrication solve failed in step `done` + 1
    std::uint64_t last_good_step = resumed ? resumed->last_good_step : 0;
    bool have_good_sample = resumed.has_value();
    std::string last_frame_digest = resumed ? out->last_frame_digest() : "";
    const double earlier_wall_seconds = resumed ? resumed->wall_seconds : 0.0;
    if (resumed) {
        result.checkpoint = checkpoint_path;
        result.checkpoint_step = resumed->engine.step;
        result.resumed_from_step = resumed->engine.step;
    }
    auto process_sample = [&](const frame& sample) {
        if (s.run.write_trajectory) {
            out->append_frame(sample);
            journal->append(sample);
            last_frame_digest =
                io::trajectory_digest(static_cast<std::int64_t>(sample.step), sample.time, flat_positions(sample));
        }
        blow_up = blow_up_in(sample, s);
        if (!blow_up.empty()) return;
        last_good_step = sample.step;
        have_good_sample = true;
        for (auto& o : observables) o->sample(sample);
    };
    auto take_sample = [&] {
        eng->read_frame(f);
        process_sample(f);
    };
    std::vector<frame> batch;             // samples of one advance_sampled call
    std::optional<frame> blown_up_frame;  // a blow-up inside a batch: the engine has run past it

    const auto start = clock::now();
    auto last_checkpoint_wall = start;
    auto write_checkpoint_now = [&] {
        io::run_checkpoint c;
        eng->save_state(c.engine);
        if (!finite_state(c.engine)) return;
        // Particles closer than the floor between two samples: the next sample stops the run;
        // this state is not a good one to go back to.
        eng->read_frame(f);
        if (!blow_up_in(f, s).empty()) return;
        c.run = record;
        c.frames_written = out->frames();
        c.last_good_step = last_good_step;
        c.wall_seconds = earlier_wall_seconds + std::chrono::duration<double>(clock::now() - start).count();
        c.last_frame_digest = last_frame_digest;
        for (const auto& o : observables) {
            saved_state state;
            o->save(state);
            c.observables.emplace_back(o->kind(), std::move(state));
        }
        // The frames first: the checkpoint may only count frames that are on disk. Resume reads
        // them from the journal; the partial output is flushed for readers of a running run.
        if (journal) journal->sync();
        out->flush();
        io::write_checkpoint(checkpoint_path, c);
        result.checkpoint = checkpoint_path;
        result.checkpoint_step = c.engine.step;
        last_checkpoint_wall = clock::now();
    };

    std::uint64_t done = resumed ? resumed->engine.step : 0;
    auto consume_batch = [&] {
        for (const frame& sample : batch) {
            process_sample(sample);
            done = sample.step;
            if (!blow_up.empty()) {
                if (done != eng->step()) blown_up_frame = sample;
                return;
            }
        }
    };
    if (!resumed) take_sample();
    auto last_report = start;
    double steps_per_second = 0.0;
    int signal = 0;
    bool stopped = false;
    while (blow_up.empty() && done < total) {
        // Advance in chunks of about 0.2 s so progress and Ctrl-C stay responsive, never past the
        // next sample, checkpoint or requested stop.
        std::uint64_t chunk = steps_per_second > 0.0 ? std::uint64_t(std::max(1.0, 0.2 * steps_per_second)) : 1;
        chunk = std::min(chunk, total - done);
        if (checkpoint_interval > 0) chunk = std::min(chunk, checkpoint_interval - done % checkpoint_interval);
        if (req.stop_after_step && *req.stop_after_step > done) chunk = std::min(chunk, *req.stop_after_step - done);
        // Whole sample intervals go to advance_sampled: the fused CUDA engine records them on the
        // device and copies them back once per launch (a transfer per sample would cost more than
        // the steps of a four-sphere system, and serialises concurrent suite runs). Otherwise the
        // chunk ends at the next sample.
        const std::uint64_t samples = done % interval == 0 ? chunk / interval : 0;
        if (samples == 0) chunk = std::min(chunk, interval - done % interval);
        else chunk = samples * interval;
        const auto t0 = clock::now();
        bool abandoned = false;  // a signal inside a step: the engine went back to a complete step
        // A chunk cut short: the samples recorded before the stop count, the run stands where the
        // engine stands (mid-step after a failed solve, not sampled; a complete step after a signal).
        auto settle_cut_chunk = [&] {
            if (samples > 0) consume_batch();
            if (blow_up.empty()) done = eng->step();
        };
        try {
            if (samples > 0) eng->advance_sampled(samples, interval, batch);
            else eng->advance(chunk);
        } catch (const lubrication_solver_error& e) {
            settle_cut_chunk();
            solver_failure = e.what();
            break;
        } catch (const step_interrupted&) {
            settle_cut_chunk();
            abandoned = true;
        }
        if (!abandoned) {
            const double dt_wall = std::chrono::duration<double>(clock::now() - t0).count();
            if (dt_wall > 0.0) steps_per_second = double(chunk) / dt_wall;
            if (samples > 0) {
                consume_batch();
            } else {
                done += chunk;
                if (done % interval == 0 || done == total) take_sample();
            }
        }
        const auto now = clock::now();
        if (req.on_progress && (now - last_report > std::chrono::milliseconds(250) || done == total)) {
            last_report = now;
            req.on_progress({done, total, double(done) * s.run.dt, std::chrono::duration<double>(now - start).count(),
                             resumed ? resumed->engine.step : 0});
        }
        if (!blow_up.empty() || done == total) break;
        if (req.stop_signal) signal = req.stop_signal->load();
        if (signal != 0 || (req.stop_after_step && done >= *req.stop_after_step)) {
            // Resumable: the checkpoint holds the state at `done` and the output up to it; the
            // extra sample below only serves the interrupted file and is cut off on resume.
            write_checkpoint_now();
            if (done % interval != 0) take_sample();
            stopped = true;
            break;
        }
        const bool simulated_due = checkpoint_interval > 0 && done % checkpoint_interval == 0;
        const bool wall_due =
            req.checkpoint_wall_seconds > 0.0 &&
            std::chrono::duration<double>(now - last_checkpoint_wall).count() >= req.checkpoint_wall_seconds;
        if (simulated_due || wall_due) write_checkpoint_now();
    }

    result.wall_seconds = earlier_wall_seconds + std::chrono::duration<double>(clock::now() - start).count();
    result.steps = done;
    result.simulated_time = double(done) * s.run.dt;
    result.signal = signal;
    const std::string resume_hint = result.checkpoint_step
                                        ? "; checkpoint at step " + std::to_string(*result.checkpoint_step) +
                                              ": continue with `stokesian run --resume " + opts.path.string() + "`"
                                        : "; no checkpoint";
    if (!blow_up.empty() || !solver_failure.empty()) {
        result.failed = true;
        const std::string checkpoint_note = result.checkpoint_step
                                                ? "; last good checkpoint: " + checkpoint_path.string() + " at step " +
                                                      std::to_string(*result.checkpoint_step)
                                                : "; no checkpoint";
        const std::string what =
            !blow_up.empty() ? "numerical blow-up at step " + std::to_string(done) + ": " + blow_up
                             : "lubrication solve failed in step " + std::to_string(done + 1) + ": " + solver_failure;
        result.status = what +
                        (have_good_sample ? "; last good sample at step " + std::to_string(last_good_step)
                                          : std::string("; no good sample")) +
                        checkpoint_note;
    } else if (stopped) {
        result.resumable = result.checkpoint_step.has_value() && *result.checkpoint_step == done;
        result.status = (signal ? "interrupted by signal " + std::to_string(signal) : std::string("stopped")) +
                        " at step " + std::to_string(done) + resume_hint;
    } else {
        result.status = "completed";
    }
    if (blown_up_frame) f = *blown_up_frame;
    else eng->read_frame(f);
    result.final_state_digest = state_digest(f);
    result.legacy_final_state_digest = state_digest(f, digest_algorithm::legacy_fnv1a64);
    for (auto& o : observables) {
        o->write(*out);
        o->summarise(result.summary);
    }
    write_provenance(*out, req, *eng, result);
    out->finish();
    if (!result.failed && !stopped) {
        // The journal before the checkpoint: a kill in between leaves the state --resume reports
        // completed and cleans up (completed_run.hpp), never a journal without its checkpoint.
        journal.reset();
        io::remove_frame_journal(journal_path);
        remove_checkpoint(checkpoint_path);
        result.checkpoint.clear();
    }
    return result;
}

}  // namespace stokesian
