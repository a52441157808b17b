// The events of a running run after its start (run_session.hpp): sample, interrupt, checkpoint,
// blow-up, finish.
#include "run_session.hpp"

#include <algorithm>

#include "checkpoint_contents.hpp"
#include "completion_order.hpp"
#include "run_files.hpp"
#include "run_provenance.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/run/blow_up.hpp"

namespace stokesian {

namespace {

std::vector<double> flat_positions(const frame& f) {
    std::vector<double> flat;
    flat.reserve(3 * f.position.size());
    for (const auto& r : f.position) flat.insert(flat.end(), {r.x, r.y, r.z});
    return flat;
}

double seconds_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace

run_phase run_session::phase() const {
    if (!blow_up_.empty() || !solver_failure_.empty()) return run_phase::failed;
    return done_ < total_ ? run_phase::running : run_phase::completed;
}

run_phase run_session::sample() {
    // Advance in chunks of about 0.2 s so progress and Ctrl-C stay responsive, never past the
    // next sample, checkpoint or requested stop.
    std::uint64_t chunk = steps_per_second_ > 0.0 ? std::uint64_t(std::max(1.0, 0.2 * steps_per_second_)) : 1;
    chunk = std::min(chunk, steps_to_event());
    // Whole sample intervals go to advance_sampled: the fused CUDA engine records them on the
    // device and copies them back once per launch (a transfer per sample would cost more than
    // the steps of a four-sphere system, and serialises concurrent suite runs). Otherwise the
    // chunk ends at the next sample.
    const std::uint64_t samples = done_ % interval_ == 0 ? chunk / interval_ : 0;
    if (samples == 0) chunk = std::min(chunk, interval_ - done_ % interval_);
    else chunk = samples * interval_;
    const auto t0 = clock::now();
    bool abandoned = false;  // a signal inside a step: the engine went back to a complete step
    batch_.clear();
    try {
        if (samples > 0) eng_->advance_sampled(samples, interval_, batch_);
        else eng_->advance(chunk);
    } catch (const lubrication_solver_error& e) {
        settle_cut_chunk(samples > 0);
        solver_failure_ = e.what();
        notify(run_event::sample);
        return phase();
    } catch (const step_interrupted&) {
        settle_cut_chunk(samples > 0);
        abandoned = true;
    }
    if (!abandoned) {
        const double dt_wall = seconds_between(t0, clock::now());
        if (dt_wall > 0.0) steps_per_second_ = double(chunk) / dt_wall;
        record_chunk(chunk);
    }
    return chunk_done();
}

// The engine moved `steps` steps, batch_ holding its frames at this run's sample steps within them
// (in order): they are recorded, then, where the steps end off them, the sample that is due (a
// sample step, or the last step). The state at a last frame that ends the steps is read before any
// of the frames counts (a device that fails here leaves the run at the previous sample).
void run_session::record_chunk(std::uint64_t steps) {
    const std::uint64_t target = done_ + steps;
    const bool ends_on_sample = !batch_.empty() && batch_.back().step == target;
    engine_state last;
    if (hold_states_ && ends_on_sample) eng_->save_state(last);
    consume_batch();
    if (blow_up_.empty() && done_ != target) {
        done_ = target;
        if (done_ % interval_ == 0 || done_ == total_) take_sample();
    } else if (hold_states_ && blow_up_.empty() && ends_on_sample) {
        hold_state(std::move(last));
    }
    if (blow_up_.empty()) capture_boundary();
}

void run_session::capture_boundary() {
    if (next_boundary_ >= req_.boundary_steps.size() || req_.boundary_steps[next_boundary_] != done_) return;
    ++next_boundary_;
    engine_state state;
    eng_->save_state(state);
    boundaries_.precision = to_string(state.precision);
    boundaries_.steps.push_back(done_);
    boundaries_.words.push_back(state_words(state));
    boundaries_.digests.push_back(boundary_digest(done_, boundaries_.words.back()));
}

run_phase run_session::chunk_done() {
    sampled_at_ = clock::now();
    if (req_.on_progress && (sampled_at_ - last_report_ > std::chrono::milliseconds(250) || done_ == total_)) {
        last_report_ = sampled_at_;
        req_.on_progress(progress(sampled_at_));
    }
    notify(run_event::sample);
    return phase();
}

std::uint64_t run_session::steps_to_event() const {
    std::uint64_t steps = total_ - done_;
    if (checkpoint_interval_ > 0) steps = std::min(steps, checkpoint_interval_ - done_ % checkpoint_interval_);
    if (req_.stop_after_step && *req_.stop_after_step > done_) steps = std::min(steps, *req_.stop_after_step - done_);
    if (next_boundary_ < req_.boundary_steps.size() && req_.boundary_steps[next_boundary_] > done_)
        steps = std::min(steps, req_.boundary_steps[next_boundary_] - done_);
    return steps;
}

// The samples are recorded as sample() records them (record_chunk).
run_phase run_session::advanced(std::uint64_t steps, std::vector<frame>&& samples, double steps_per_second) {
    batch_ = std::move(samples);
    record_chunk(steps);
    steps_per_second_ = steps_per_second;
    return chunk_done();
}

// A chunk cut short: the samples recorded before the stop count, the run stands where the engine
// stands (mid-step after a failed solve, not sampled; a complete step after a signal).
void run_session::settle_cut_chunk(bool sampled) {
    if (sampled) consume_batch();
    if (blow_up_.empty()) done_ = eng_->step();
}

void run_session::consume_batch() {
    for (const frame& sample : batch_) {
        record_sample(sample);
        done_ = sample.step;
        if (!blow_up_.empty()) {
            if (done_ != eng_->step()) blown_up_frame_ = sample;
            return;
        }
    }
}

void run_session::take_sample() {
    eng_->read_frame(f_);
    engine_state state;
    if (hold_states_) eng_->save_state(state);
    record_sample(f_);
    if (hold_states_ && blow_up_.empty()) hold_state(std::move(state));
}

void run_session::hold_state(engine_state&& state) {
    if (!finite_state(state)) return;
    held_ = std::move(state);
    held_at_sample_ = samples_recorded_;
}

void run_session::record_sample(const frame& sample) {
    ++samples_recorded_;
    if (s_.run.write_trajectory) {
        out_->append_frame(sample);
        journal_->append(sample);
        last_frame_digest_ =
            io::trajectory_digest(static_cast<std::int64_t>(sample.step), sample.time, flat_positions(sample));
    }
    blow_up_ = blow_up_in(sample, s_);
    if (!blow_up_.empty()) return;
    last_good_step_ = sample.step;
    have_good_sample_ = true;
    for (auto& o : observables_) o->sample(sample);
}

bool run_session::goes_on() {
    if (stop_requested()) {
        interrupt();
        return false;
    }
    if (checkpoint_due()) checkpoint();
    return true;
}

run_result run_session::conclude() {
    if (phase() == run_phase::failed) blow_up();
    return finish();
}

bool run_session::stop_requested() {
    if (req_.stop_signal) signal_ = req_.stop_signal->load();
    return signal_ != 0 || (req_.stop_after_step && done_ >= *req_.stop_after_step);
}

void run_session::interrupt() {
    notify(run_event::interrupt);
    // Resumable: the checkpoint holds the state at `done_` and the output up to it; the extra
    // sample below only serves the interrupted file and is cut off on resume.
    checkpoint();
    if (done_ % interval_ != 0) take_sample();
    stopped_ = true;
}

bool run_session::checkpoint_due() const {
    const bool simulated_due = checkpoint_interval_ > 0 && done_ % checkpoint_interval_ == 0;
    const bool wall_due = req_.checkpoint_wall_seconds > 0.0 &&
                          seconds_between(last_checkpoint_wall_, sampled_at_) >= req_.checkpoint_wall_seconds;
    return simulated_due || wall_due;
}

void run_session::checkpoint() {
    io::run_checkpoint c;
    eng_->save_state(c.engine);
    if (!finite_state(c.engine)) return;
    // Particles closer than the floor between two samples: the next sample stops the run;
    // this state is not a good one to go back to.
    eng_->read_frame(f_);
    if (!blow_up_in(f_, s_).empty()) return;
    write_checkpoint(c);
}

void run_session::write_checkpoint(io::run_checkpoint& c) {
    c.run = record_;
    c.frames_written = out_->frames();
    c.last_good_step = last_good_step_;
    c.wall_seconds = earlier_wall_seconds_ + seconds_between(start_, clock::now());
    c.last_frame_digest = last_frame_digest_;
    save_observables(observables_, c);
    // The frames first: the checkpoint may only count frames that are on disk. Resume reads
    // them from the journal; the partial output is flushed for readers of a running run.
    if (journal_) journal_->sync();
    out_->flush();
    io::write_checkpoint(checkpoint_path_, c);
    result_.checkpoint = checkpoint_path_;
    result_.checkpoint_step = c.engine.step;
    last_checkpoint_wall_ = clock::now();
    notify(run_event::checkpoint);
}

void run_session::device_failed(const device_error& e) {
    std::string kept;
    if (held_ && held_at_sample_ == samples_recorded_ && out_) {
        io::run_checkpoint c;
        c.engine = std::move(*held_);
        held_.reset();
        write_checkpoint(c);
        kept = "the run stopped with a checkpoint at step " + std::to_string(c.engine.step) +
               " (its last good sample): continue with `stokesian run --resume " + opts_.path.string() + "`";
    } else if (result_.checkpoint_step || resumed_) {
        const std::uint64_t step = result_.checkpoint_step ? *result_.checkpoint_step : resumed_->engine.step;
        kept = "the checkpoint at step " + std::to_string(step) + " stands: continue with `stokesian run --resume " +
               opts_.path.string() + "`";
    } else {
        kept = "no checkpoint was written: start the run again";
    }
    throw device_error(e.ordinal(), e.device_name(),
                       e.detail() + " (after step " + std::to_string(done_) + "); " + kept);
}

void run_session::blow_up() {
    result_.failed = true;
    const std::string checkpoint_note = result_.checkpoint_step
                                            ? "; last good checkpoint: " + checkpoint_path_.string() + " at step " +
                                                  std::to_string(*result_.checkpoint_step)
                                            : "; no checkpoint";
    const std::string what =
        !blow_up_.empty() ? "numerical blow-up at step " + std::to_string(done_) + ": " + blow_up_
                          : "lubrication solve failed in step " + std::to_string(done_ + 1) + ": " + solver_failure_;
    result_.status = what +
                     (have_good_sample_ ? "; last good sample at step " + std::to_string(last_good_step_)
                                        : std::string("; no good sample")) +
                     checkpoint_note;
    notify(run_event::blow_up);
}

run_result run_session::finish() {
    result_.wall_seconds = earlier_wall_seconds_ + seconds_between(start_, clock::now());
    result_.steps = done_;
    result_.simulated_time = double(done_) * s_.run.dt;
    result_.signal = signal_;
    if (!result_.failed && stopped_) {
        const std::string resume_hint = result_.checkpoint_step
                                            ? "; checkpoint at step " + std::to_string(*result_.checkpoint_step) +
                                                  ": continue with `stokesian run --resume " + opts_.path.string() + "`"
                                            : "; no checkpoint";
        result_.resumable = result_.checkpoint_step.has_value() && *result_.checkpoint_step == done_;
        result_.status = (signal_ ? "interrupted by signal " + std::to_string(signal_) : std::string("stopped")) +
                         " at step " + std::to_string(done_) + resume_hint;
    } else if (!result_.failed) {
        result_.status = "completed";
    }
    if (blown_up_frame_) f_ = *blown_up_frame_;
    else eng_->read_frame(f_);
    result_.final_state_digest = state_digest(f_);
    for (auto& o : observables_) {
        o->write(*out_);
        o->summarise(result_.summary);
    }
    if (!result_.failed && !stopped_ && boundaries_.steps.size() == req_.boundary_steps.size())
        write_boundary_states(*out_, boundaries_);
    write_provenance(*out_, req_, *eng_, result_);
    // result_.checkpoint_step: this run wrote a checkpoint, or resumed from one; either is on disk.
    const bool completed = !result_.failed && !stopped_;
    for (const completion_action action : completion_order(completed, result_.checkpoint_step.has_value())) {
        switch (action) {
            case completion_action::remove_journal:
                journal_.reset();
                io::remove_frame_journal(journal_path_);
                break;
            case completion_action::rename_output: out_->finish(); break;
            case completion_action::remove_checkpoint:
                remove_checkpoint(checkpoint_path_);
                result_.checkpoint.clear();
                break;
        }
    }
    notify(run_event::finish);
    release();
    return result_;
}

// In the order of the members' destruction, as after an error: the lock last.
void run_session::release() {
    resumed_.reset();
    observables_.clear();
    eng_.reset();
    out_.reset();
    journal_.reset();
    output_lock_.reset();
}

run_progress run_session::progress(clock::time_point now) const {
    return {done_, total_, double(done_) * s_.run.dt, seconds_between(start_, now),
            resumed_ ? resumed_->engine.step : 0};
}

void run_session::notify(run_event event) {
    if (req_.on_event) req_.on_event(event, progress(clock::now()));
}

}  // namespace stokesian
