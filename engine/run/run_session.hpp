#pragma once
// One run of a scenario as a sequence of events (run.hpp's run_event); run_scenario is the loop
// that calls them (run_driver.cpp):
//
//   start()                      claim the output, resume or open it, build engine and observables
//   while phase() is running:
//     sample()                   advance one chunk of steps, record its samples, feed observables
//     goes_on()                  between chunks:
//       stop_requested()? interrupt()   a signal or stop_after_step: checkpoint, last frame, stop
//       checkpoint_due()? checkpoint()
//   conclude():
//     phase() failed? blow_up()  a numerical blow-up or a failed lubrication solve
//     finish()                   write results and provenance, close the output, release the files
//
// (A batched run, batched_runs.cpp, calls advanced() for its chunk instead of sample(), then the same.)
//
// A device_error from any of them (a device failed; its state is gone) ends the run through
// device_failed(): the last good state held on the host becomes the checkpoint.
//
// The guarantees each event keeps (checkpoint cadence, frame journal, resume) are those of
// engine/docs/reliability.md.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/core/device_error.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/file_lock.hpp"
#include "stokesian/io/frame_journal.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/run/segments.hpp"

namespace stokesian {

// Where a run stands between two events.
enum class run_phase {
    running,    // steps remain
    completed,  // every planned step done
    failed,     // a numerical blow-up or a failed lubrication solve stopped it
};

// Where a batched run's engine comes from (run/batch_members.hpp): a handle onto its member of a
// batch that its group advances (batched_runs.cpp). Empty: the session builds its own engine.
using engine_source = std::function<std::unique_ptr<engine>()>;

class run_session {
public:
    // `request` must outlive the session. With `source`, the engine is the one it gives.
    explicit run_session(const run_request& request, engine_source source = {});
    run_session(const run_session&) = delete;
    run_session& operator=(const run_session&) = delete;

    // Checks the settings, claims and locks the output, then resumes from the checkpoint and the
    // frame journal or opens a fresh output, builds the engine and observables and records the
    // first sample. Returns the stored result when a resumed run had already completed (nothing
    // else to do); input_error for what does not fit, before any file is touched.
    std::optional<run_result> start();
    run_phase phase() const;
    // Advances one chunk: about 0.2 s of steps, never past the next sample, checkpoint, requested
    // stop or the end; records its samples. Returns phase().
    run_phase sample();
    // Batched runs (run/batched_runs.hpp): the steps this run may take before its next event (its
    // end, a checkpoint boundary, stop_after_step), at least one while running; the batch advances
    // all its runs by the least of these. Then advanced() records what the group's batch did: this
    // run moved `steps` steps, `samples` being its frames at its own sample steps within them (in
    // order; one at a sample step missing from them is read from the engine). Returns phase().
    std::uint64_t steps_to_event() const;
    std::uint64_t sample_interval() const { return interval_; }
    run_phase advanced(std::uint64_t steps, std::vector<frame>&& samples, double steps_per_second);
    // Between two chunks of a running run: interrupts it if a stop was requested (false), else writes
    // a due checkpoint (true: the run goes on).
    bool goes_on();
    // The run's end once it no longer runs: blow_up() if it failed, then finish().
    run_result conclude();
    // A signal arrived or stop_after_step is reached (records the signal for the result).
    bool stop_requested();
    // Stops the run resumably: a checkpoint at this step, the state as a last frame.
    void interrupt();
    // run.checkpoint_every of simulated time, or checkpoint_wall_seconds of wall time, has passed.
    bool checkpoint_due() const;
    // Writes the checkpoint (the frames first), unless the state is not a good one to go back to.
    void checkpoint();
    // Ends a failed run: its status names the step, the reason, the last good sample and checkpoint.
    void blow_up();
    // The final state's digest, observables, provenance; closes the output under its final name; a
    // completed run removes its journal and checkpoint. Then releases engine, files and lock.
    run_result finish();
    // A device failed (core/device_error.hpp): writes the last good state the session holds on the
    // host (an engine on a device: the state of the latest good sample, kept after each chunk) as
    // the checkpoint, when no sample was recorded after it, and throws device_error again with the
    // step and what is kept. The output stays partial; --resume continues from the checkpoint.
    [[noreturn]] void device_failed(const device_error& e);

private:
    using clock = std::chrono::steady_clock;

    std::optional<run_result> resume_output();
    void open_fresh_output();
    void build_engine();
    void record_sample(const frame& sample);
    void take_sample();
    // The state of the sample just recorded, if it is a good one (device engines only).
    void hold_state(engine_state&& state);
    void write_checkpoint(io::run_checkpoint& c);
    void consume_batch();
    void settle_cut_chunk(bool sampled);
    void record_chunk(std::uint64_t steps);  // the samples of `steps` steps the engine took (batch_)
    void capture_boundary();                 // the engine's state, where done_ is the next boundary step
    run_phase chunk_done();                  // progress report and the sample event after a chunk
    run_progress progress(clock::time_point now) const;
    void notify(run_event event);
    void release();

    const run_request& req_;
    const scenario& s_;
    engine_source source_;
    engine_config config_;
    io::h5md_options opts_;
    io::box_description box_;
    io::journal_layout layout_;
    std::filesystem::path checkpoint_path_;
    std::filesystem::path journal_path_;
    // Declared first, released last: no other run touches this output, its partial or its checkpoint.
    std::optional<io::file_lock> output_lock_;
    std::optional<io::frame_journal> journal_;  // with a trajectory: the crash-consistent copy of its frames
    std::unique_ptr<io::h5md_writer> out_;
    std::unique_ptr<engine> eng_;
    std::vector<std::unique_ptr<observable>> observables_;
    std::optional<io::run_checkpoint> resumed_;

    run_result result_;
    std::map<std::string, std::string> record_;  // the run's identity as its checkpoints hold it
    std::uint64_t total_ = 0;
    std::uint64_t interval_ = 0;
    std::uint64_t checkpoint_interval_ = 0;

    frame f_;
    std::string blow_up_;
    std::string solver_failure_;  // the implicit lubrication solve failed in step `done_` + 1
    std::uint64_t last_good_step_ = 0;
    bool have_good_sample_ = false;
    std::string last_frame_digest_;
    double earlier_wall_seconds_ = 0.0;
    // An engine on a device: the state of the latest good sample, on the host, for device_failed();
    // valid while no sample has been recorded after it (held_at_sample_ == samples_recorded_).
    bool hold_states_ = false;
    std::optional<engine_state> held_;
    std::uint64_t samples_recorded_ = 0;
    std::uint64_t held_at_sample_ = 0;
    std::vector<frame> batch_;  // samples of one advance_sampled call
    // The states at request.boundary_steps passed so far (from the first one after the start).
    boundary_states boundaries_;
    std::size_t next_boundary_ = 0;
    std::optional<frame> blown_up_frame_;  // a blow-up inside a batch: the engine has run past it

    clock::time_point start_;
    clock::time_point last_checkpoint_wall_;
    clock::time_point last_report_;
    clock::time_point sampled_at_;  // the end of the latest chunk (when progress was reported)
    std::uint64_t done_ = 0;
    double steps_per_second_ = 0.0;
    int signal_ = 0;
    bool stopped_ = false;
};

}  // namespace stokesian
