#pragma once
// Per-phase timing of the engines' steps for the benchmarks (`stokesian bench fcc`; paper,
// Fig. 2b): how long each step spends in drift (integration), update_forces (external forces, the
// neighbour list, pair forces and lubrication) and update_velocities (the hydrodynamic
// interactions). The CPU engine times with std::chrono, the CUDA engine with CUDA events
// (stokesian/cpu/phase_benchmark.hpp, cuda_phase_benchmark.hpp); both engines see the timer only as a
// step_observer (core/step_observer.hpp), an optional pointer that is null unless a benchmark sets
// it, so a normal run pays one pointer test per step. The fused CUDA engine runs many steps in one
// launch: it is timed by whole steps (run_whole_step_benchmark).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/step_observer.hpp"

namespace stokesian {

// Milliseconds spent in each phase during one step (a phase called twice in a step counts twice).
using phase_durations = std::array<double, step_phase_count>;

// How a phase benchmark runs: `warmup` untimed steps, then up to `steps` timed ones. With a
// wall-time budget (max_seconds > 0) the timed run stops early, at a reset, once the budget is
// spent and at least `min_steps` steps are done: large systems get fewer steps, small ones the
// paper's 100 (the per-step times are stationary, so this changes the spread, not the median).
// Every `reset_every` steps (0: never) the engine goes back to its initial state, outside the
// timed region: the paper's explicit lubrication scheme amplifies velocity differences about
// 5-fold per step on the fcc lattice at n = 0.1 a^-3 (scenarios/fcc_sedimentation.toml), so without
// resets a 100-step run would time arithmetic on inf and NaN and particles thrown out of the box.
// The arithmetic of a step does not depend on the state as long as the neighbour lists stay the
// same, which they do over a few steps from the initial state. Where the rounding that seeds the
// instability is large, five steps are already too many (f32 at N ~ 2e5: |v| ~ 5e6 in the fourth
// step, and a step of the torn-apart lattice costs up to 0.3 s in its forces phase;
// engine/docs/performance.md, "Where five steps are already too many"): with `blow_up` set, fewer
// steps are taken between resets there (sane_resets_for).
struct phase_run {
    std::uint64_t steps = 100;
    std::uint64_t min_steps = 10;
    double max_seconds = 0.0;
    std::uint64_t warmup = 10;
    std::uint64_t reset_every = 5;
    // The first sign of a numerical blow-up in a frame, "" when it is sane (a benchmark sets
    // stokesian/run/blow_up.hpp's); empty: the states are not checked.
    std::function<std::string(const frame&)> blow_up;
};

struct duration_statistics {
    double mean_ms = 0.0;  // total / steps: the means of the phases add up to the step's
    double median_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
};

struct phase_timing {
    std::uint64_t steps = 0;
    std::array<duration_statistics, step_phase_count> phase{};  // indexed by step_phase
    duration_statistics step;  // per step: the sum of the phases, or the whole step timed (phases_timed false)
    // Per step, whole steps timed with no phase timer: what a run's step costs. The step's own
    // statistics where its timer costs nothing measurable (steady_clock reads, or no phases); for an
    // engine whose phase timer does (CUDA events: ~1.3 us a phase on an H200,
    // engine/docs/gpu-runs/2026-11-30-h200-whole-steps.txt), a second timed run
    // (run_phase_and_whole_step_benchmark).
    duration_statistics whole_step;
    std::map<std::string, std::string> description;  // engine::description().provenance()
    // false: whole steps timed only (run_whole_step_benchmark), the phases' statistics NaN.
    bool phases_timed = true;
    // The steps between resets the timed chunks took: phase_run::reset_every, or fewer where the
    // state blew up within them (sane_resets_for); blown_up_by: that blow-up, "" where none.
    std::uint64_t reset_every = 0;
    std::string blown_up_by;

    const duration_statistics& of(step_phase p) const { return phase[static_cast<std::size_t>(p)]; }
};

inline duration_statistics summarise_durations(std::vector<double> ms) {
    duration_statistics s;
    if (ms.empty()) return s;
    double total = 0.0;
    for (double t : ms) total += t;
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    s.mean_ms = total / static_cast<double>(n);
    s.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    s.min_ms = ms.front();
    s.max_ms = ms.back();
    return s;
}

inline phase_timing summarise_phases(const std::vector<phase_durations>& per_step) {
    phase_timing t;
    t.steps = per_step.size();
    std::vector<double> column(per_step.size()), step(per_step.size(), 0.0);
    for (step_phase p : step_phases) {
        const auto k = static_cast<std::size_t>(p);
        for (std::size_t s = 0; s < per_step.size(); ++s) {
            column[s] = per_step[s][k];
            step[s] += per_step[s][k];
        }
        t.phase[k] = summarise_durations(column);
    }
    t.step = summarise_durations(step);
    return t;
}

// The steps between resets a benchmark takes, and how many it ran to find them. With resets every k
// steps every timed chunk starts at the initial state, so its states are those of the first k steps
// from it, the same in each chunk (the engines are deterministic). So where run.blow_up is set, up to
// k steps are run from the initial state one at a time, each resulting state checked; where the
// state after step b blew up, the chunks take b steps: no timed step starts from a blown-up state
// (a step that ends in one costs what any other does). Every state is checked, not only the k-th: a
// lattice torn apart can look sane again a few steps later (particles flung apart, velocities back
// to ~mu0 F). The engine starts at the initial state; the steps run count as warm-up.
struct sane_resets {
    std::uint64_t reset_every = 0;
    std::uint64_t steps_run = 0;
    std::string blown_up_by;  // the blow-up that made the chunks shorter, "" where none
};

template <class Engine>
sane_resets sane_resets_for(Engine& engine, const phase_run& run) {
    sane_resets r{run.reset_every, 0, {}};
    if (!run.blow_up || run.reset_every == 0) return r;
    frame f;
    while (r.steps_run < run.reset_every) {
        engine.advance(1);
        ++r.steps_run;
        engine.read_frame(f);
        if (std::string why = run.blow_up(f); !why.empty()) {
            if (r.steps_run < run.reset_every) {
                r.reset_every = r.steps_run;
                r.blown_up_by = std::move(why);
            }
            break;
        }
    }
    return r;
}

// The loop every benchmark of an engine's steps shares: the resets (sane_resets_for), run.warmup
// untimed steps (less those that found the resets), then up to run.steps timed ones (fewer once
// run.max_seconds is spent, at least run.min_steps), in chunks of at most chunk_size_for(resets)
// steps, the engine back at its initial state before each chunk when there are resets.
// before_timed() runs once between the two; timed_chunk(k) advances a timed chunk of k steps.
// Engine: save_state/restore_state/advance/read_frame.
template <class Engine, class ChunkSize, class BeforeTimed, class TimedChunk>
sane_resets run_benchmark_chunks(Engine& engine, const phase_run& run, ChunkSize&& chunk_size_for,
                                 BeforeTimed&& before_timed, TimedChunk&& timed_chunk) {
    engine_state initial;
    engine.save_state(initial);
    sane_resets resets = sane_resets_for(engine, run);
    const std::uint64_t chunk_size = chunk_size_for(resets.reset_every);
    // Runs up to `steps` steps in chunks (resetting before each when asked); `stop` is asked after
    // each chunk.
    auto advance_in_chunks = [&](std::uint64_t steps, auto&& advance, auto&& stop) {
        std::uint64_t done = 0;
        while (done < steps) {
            const std::uint64_t chunk = std::min(steps - done, chunk_size);
            if (resets.reset_every) engine.restore_state(initial);
            advance(chunk);
            done += chunk;
            if (stop(done)) break;
        }
    };
    advance_in_chunks(
        run.warmup - std::min(run.warmup, resets.steps_run), [&](std::uint64_t k) { engine.advance(k); },
        [](std::uint64_t) { return false; });
    before_timed();
    const auto start = std::chrono::steady_clock::now();
    advance_in_chunks(run.steps, timed_chunk, [&](std::uint64_t done) {
        if (run.max_seconds <= 0.0 || done < run.min_steps) return false;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= run.max_seconds;
    });
    return resets;
}

// Phase by phase, for the engines that run a step as separate primitives. Engine:
// save_state/restore_state/advance/read_frame and set_phase_timer(Timer*); Timer: take() ->
// std::vector<phase_durations> (and clears).
template <class Engine, class Timer>
phase_timing run_phase_benchmark(Engine& engine, Timer& timer, const phase_run& run) {
    const auto chunk_size = [&](std::uint64_t reset_every) {
        return reset_every ? reset_every : (run.max_seconds > 0.0 ? 1 : ~std::uint64_t{0});
    };
    const sane_resets resets = run_benchmark_chunks(
        engine, run, chunk_size,
        [&] {
            engine.set_phase_timer(&timer);
            timer.take();  // nothing timed yet; synchronises a device
        },
        [&](std::uint64_t k) { engine.advance(k); });
    engine.set_phase_timer(nullptr);
    phase_timing t = summarise_phases(timer.take());
    t.whole_step = t.step;
    t.description = engine.description().provenance();
    t.reset_every = resets.reset_every;
    t.blown_up_by = resets.blown_up_by;
    return t;
}

// Whole steps only, for an engine that runs many steps as one launch and has no phases to time
// (the fused CUDA engine): each timed chunk is one advance(), timed whole by time_ms(advance) ->
// milliseconds, and its time is shared evenly by its steps, so the statistics are over steps
// like the phase benchmark's. A chunk without resets is run.min_steps long (at least one step),
// or all of run.steps without a time budget. The phases' statistics are NaN (phases_timed false).
template <class Engine, class TimeMs>
phase_timing run_whole_step_benchmark(Engine& engine, TimeMs&& time_ms, const phase_run& run) {
    const auto chunk_size = [&](std::uint64_t reset_every) {
        return reset_every ? reset_every
                           : (run.max_seconds > 0.0 ? std::max<std::uint64_t>(1, run.min_steps) : ~std::uint64_t{0});
    };
    std::vector<double> per_step;
    const sane_resets resets = run_benchmark_chunks(
        engine, run, chunk_size, [] {},
        [&](std::uint64_t k) {
            const double ms = time_ms([&] { engine.advance(k); });
            per_step.insert(per_step.end(), k, ms / static_cast<double>(k));
        });
    phase_timing t;
    t.steps = per_step.size();
    t.phases_timed = false;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    t.phase.fill({nan, nan, nan, nan});
    t.step = summarise_durations(std::move(per_step));
    t.whole_step = t.step;
    t.description = engine.description().provenance();
    t.reset_every = resets.reset_every;
    t.blown_up_by = resets.blown_up_by;
    return t;
}

// Phase by phase, then whole steps without the timer from the same initial state, for an engine
// whose phase timer costs time of its own (whole_step above): the phases from the first run, the
// whole step from the second (each as run_phase_benchmark and run_whole_step_benchmark), with the
// resets the first found.
template <class Engine, class Timer, class TimeMs>
phase_timing run_phase_and_whole_step_benchmark(Engine& engine, Timer& timer, TimeMs&& time_ms, const phase_run& run) {
    engine_state initial;
    engine.save_state(initial);
    phase_timing t = run_phase_benchmark(engine, timer, run);
    engine.restore_state(initial);
    phase_run whole = run;
    whole.reset_every = t.reset_every;
    whole.blow_up = nullptr;
    t.whole_step = run_whole_step_benchmark(engine, time_ms, whole).step;
    return t;
}

}  // namespace stokesian
