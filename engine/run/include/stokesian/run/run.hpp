#pragma once
// Runs a scenario from start to finish: engine, sampling, observables, H5MD output. Used by
// `stokesian run` and by every tool that needs a complete run (studies, regression tests).
//
// Checkpoints and resume (engine/docs/reliability.md): a run writes <output>.checkpoint (the
// engine's state bit for bit, the observables' state, where the output stands) every
// run.checkpoint_every of simulated time, at least every checkpoint_wall_seconds of wall time,
// and when a signal or stop_after_step stops it early. A run resumed from its checkpoint
// (resume = true) ends bitwise identical to the uninterrupted run: final state, every trajectory
// frame, every observable and analysis result. A completed run removes its checkpoint.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "stokesian/core/communicator.hpp"
#include "stokesian/core/digest.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"

namespace stokesian {

struct run_progress {
    std::uint64_t step;
    std::uint64_t total_steps;
    double simulated_time;
    double wall_seconds;           // of this process's run so far
    std::uint64_t first_step = 0;  // where this process started (a resumed run's checkpoint step)
};

// The events of a run (run_session, engine/README.md "The run layer"), in the order they come:
// start once the engine stands at the run's first step (fresh, or resumed from the checkpoint);
// sample after every chunk of steps the run advances (about 0.2 s of wall time, at least one step;
// its samples recorded and fed to the observables); checkpoint after each checkpoint written;
// interrupt when a signal or stop_after_step stops the run (its checkpoint follows); blow_up when
// a numerical blow-up or a failed lubrication solve ends it; finish once the output is closed.
// A resume of a run that had already completed hears none.
enum class run_event { start, sample, checkpoint, interrupt, blow_up, finish };
std::string_view to_string(run_event event);

struct run_request {
    scenario scenario_;  // with command-line overrides applied
    io::h5md_options output;
    std::map<std::string, std::string> invocation;         // host, user, date, command (provenance)
    std::function<void(const run_progress&)> on_progress;  // called a few times a second
    const std::atomic<int>* stop_signal = nullptr;         // non-zero: stop after the current step
    unsigned threads = 0;                                  // CPU worker threads (0: all cores)
    double checkpoint_wall_seconds = 600.0;                // wall-clock checkpoint interval (0: none by the clock)
    bool resume = false;                                   // continue output.path's interrupted run from its checkpoint
    std::optional<std::uint64_t> stop_after_step;          // stop there as if interrupted (tests; splitting long runs)
    // Steps (ascending) at which the run keeps the engine's complete state (stokesian/run/segments.hpp,
    // segment_boundaries); a run that passed every one of them stores them in its result. A resumed
    // run keeps none from before its checkpoint, so it stores none.
    std::vector<std::uint64_t> boundary_steps;
    // The MPI ranks of a run across processes (`mpirun -n R stokesian run`; engine/README.md, "Runs
    // across MPI ranks"): rank 0 runs run_scenario and leads, every other rank runs follow_run. Null
    // or one rank: this process alone. Not owned.
    communicator* ranks = nullptr;

    // Hears every run_event with the progress at that moment (where observers subscribe, e.g. a
    // heartbeat on the sample event). Called on the run's thread; it must not throw.
    std::function<void(run_event, const run_progress&)> on_event;
};

struct run_result {
    std::filesystem::path output;
    std::string status;      // "completed", "interrupted by signal N ...", "numerical blow-up ..."
    bool failed = false;     // a numerical blow-up stopped the run (the file is still valid)
    bool resumable = false;  // stopped early with a checkpoint: resume = true continues it
    int signal = 0;
    std::filesystem::path checkpoint;              // the checkpoint of this run ("" when it has none)
    std::optional<std::uint64_t> checkpoint_step;  // the step of the last checkpoint written or resumed from
    std::uint64_t resumed_from_step = 0;
    std::uint64_t steps = 0;
    double simulated_time = 0.0;
    double wall_seconds = 0.0;
    std::map<std::string, double> summary;  // observables' headline numbers
    std::map<std::string, std::string> engine;
    std::string final_state_digest;  // state_digest of the final frame (hex)
};

run_result run_scenario(const run_request& request);

// On every rank but 0 of a run across MPI ranks: takes part in the run rank 0 leads with
// run_scenario -- the same engine, the same steps, its share of each HI sum -- reading and writing
// nothing, and returns rank 0's outcome (status, failed, signal, resumable; nothing else is set).
run_result follow_run(communicator& ranks, unsigned threads);

// The identity and settings of a run as text, as its checkpoints record them (io::run_checkpoint::run);
// the scenario text's digest under `algorithm` (a checkpoint's own, to compare with it).
std::map<std::string, std::string> run_record(const scenario& s);
// The scenario of a checkpointed run: its stored scenario text parsed again, with the stored run
// settings (command-line overrides included). Throws input_error naming the checkpoint file.
scenario scenario_from_checkpoint(const io::run_checkpoint& c, const std::filesystem::path& checkpoint_path);

// Digest of a frame's positions, images and velocities, bit for bit (core/digest.hpp, hex).
std::string state_digest(const frame& f);

// The engine of a fresh run alone in this process (not resumed, not across MPI ranks), as
// run_session builds it: the backend and kernel `requested` resolves to, on run.devices (bench
// steps times what a run would run).
std::unique_ptr<engine> build_run_engine(const engine_config& requested, const scenario& s);

}  // namespace stokesian
