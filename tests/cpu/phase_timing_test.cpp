// The benchmark loop of core/phase_timing.hpp: the phase statistics, warm-up, resets and timed
// chunks, the resets that come sooner where a state blew up, whole-step timing, and the CPU engine
// timed phase by phase (cpu/cpu_engine.hpp, cpu/phase_clock.hpp: an engine with the phase timer set
// steps as one without). No timings are asserted.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/support/bench_inputs.hpp"
#include "cpu/cpu_engine.hpp"
#include "cpu/phase_clock.hpp"
#include "stokesian/core/phase_timing.hpp"
#include "stokesian/cpu/phase_benchmark.hpp"

using namespace stokesian;

TEST(PhaseTiming, StatisticsOfTheSteps) {
    const duration_statistics odd = summarise_durations({3.0, 1.0, 2.0});
    EXPECT_DOUBLE_EQ(odd.mean_ms, 2.0);
    EXPECT_DOUBLE_EQ(odd.median_ms, 2.0);
    EXPECT_DOUBLE_EQ(odd.min_ms, 1.0);
    EXPECT_DOUBLE_EQ(odd.max_ms, 3.0);
    EXPECT_DOUBLE_EQ(summarise_durations({4.0, 1.0, 2.0, 3.0}).median_ms, 2.5);
    const phase_timing t = summarise_phases({{1.0, 2.0, 3.0}, {1.0, 4.0, 5.0}});
    EXPECT_EQ(t.steps, 2u);
    EXPECT_DOUBLE_EQ(t.of(step_phase::forces).mean_ms, 3.0);
    EXPECT_DOUBLE_EQ(t.of(step_phase::hi).max_ms, 5.0);
    EXPECT_DOUBLE_EQ(t.step.mean_ms, 8.0);  // the means of the phases add up to the step's
}

namespace {

// An engine that counts what the benchmark loop does to it. Its one particle's velocity is infinite
// in the two steps after the first `sane_steps` since the last reset (a blow-up), finite before and
// after them (a torn-apart lattice can look sane again).
struct counting_engine {
    struct clock {
        std::vector<phase_durations> steps;
        std::vector<phase_durations> take() { return std::exchange(steps, {}); }
    };
    std::uint64_t restores = 0, advanced = 0, timed = 0, since_reset = 0, frames_read = 0;
    std::uint64_t sane_steps = ~std::uint64_t{0};
    std::vector<std::uint64_t> timed_since_reset;  // since_reset after each timed step
    clock* timer = nullptr;
    void save_state(engine_state&) const {}
    void restore_state(const engine_state&) {
        ++restores;
        since_reset = 0;
    }
    void set_phase_timer(clock* t) { timer = t; }
    void advance(std::uint64_t steps) {
        advanced += steps;
        for (std::uint64_t s = 0; s < steps; ++s) {
            ++since_reset;
            if (!timer) continue;
            timer->steps.push_back({0.1, 0.2, 0.3});
            timed_since_reset.push_back(since_reset);
            ++timed;
        }
    }
    void read_frame(frame& f) {
        ++frames_read;
        const bool blown = since_reset > sane_steps && since_reset - sane_steps <= 2;
        const double v = blown ? std::numeric_limits<double>::infinity() : 1.0;
        f.velocity = {{v, 0.0, 0.0}};
    }
    engine_description description() const { return {"test", "", {}}; }
};

// A clock for the whole-step runs of a counting engine: records each timed chunk's length in
// `chunks` and gives a chunk of k steps k + launch_ms milliseconds.
auto chunk_clock(counting_engine& e, std::vector<std::uint64_t>& chunks, double launch_ms = 0.0) {
    return [&e, &chunks, launch_ms](auto&& advance) {
        const std::uint64_t before = e.advanced;
        advance();
        chunks.push_back(e.advanced - before);
        return double(chunks.back()) + launch_ms;
    };
}

}  // namespace

TEST(PhaseTiming, BenchmarkLoopWarmsUpResetsAndTimes) {
    counting_engine e;
    counting_engine::clock c;
    phase_run run;
    run.warmup = 3;
    run.steps = 12;
    run.reset_every = 5;
    const phase_timing t = run_phase_benchmark(e, c, run);
    EXPECT_EQ(e.advanced, 15u);
    EXPECT_EQ(e.timed, 12u);
    EXPECT_EQ(t.steps, 12u);
    EXPECT_EQ(e.restores, 1u + 3u);  // warm-up: one chunk; timed: chunks of 5, 5, 2
    EXPECT_EQ(e.timer, nullptr);     // switched off afterwards
    EXPECT_NEAR(t.step.median_ms, 0.6, 1e-15);
    EXPECT_EQ(t.description.at("backend"), "test");

    counting_engine never;
    run.reset_every = 0;
    run_phase_benchmark(never, c, run);
    EXPECT_EQ(never.restores, 0u);
}

// A state check that finds the state after the b-th step from the initial state blown up makes the
// loop reset every b steps: no timed step then starts from a blown-up state. Every state of the
// probe is checked, so a blow-up that looks sane again by the fifth step is found too. The probing
// steps count as warm-up.
TEST(PhaseTiming, ResetsComeSoonerWhereTheStateBlewUpWithinThem) {
    phase_run run;
    run.warmup = 3;
    run.steps = 12;
    run.reset_every = 5;
    run.blow_up = [](const frame& f) { return std::isfinite(f.velocity.at(0).x) ? "" : "infinite velocity"; };
    counting_engine::clock c;
    for (const std::uint64_t sane : {100u, 5u, 4u, 2u, 1u, 0u}) {
        counting_engine e;
        e.sane_steps = sane;
        // The state after step sane + 1 is the first blown up; the fifth may be, not the fourth.
        const std::uint64_t expected = std::min<std::uint64_t>(sane + 1, 5);
        const phase_timing t = run_phase_benchmark(e, c, run);
        EXPECT_EQ(t.reset_every, expected) << "sane for " << sane << " steps";
        EXPECT_EQ(t.blown_up_by, sane + 1 < 5 ? "infinite velocity" : "") << sane;
        EXPECT_EQ(t.steps, 12u) << sane;
        // No timed step starts from a state after more than `sane` steps.
        for (const std::uint64_t k : e.timed_since_reset) EXPECT_LE(k - 1, std::min<std::uint64_t>(sane, 4)) << sane;
        // The probe: one frame a step up to the first blown-up one, at most five; then what is left
        // of the three warm-up steps, then the twelve timed ones.
        const std::uint64_t probed = expected;
        EXPECT_EQ(e.frames_read, probed) << sane;
        EXPECT_EQ(e.advanced, probed + (3 - std::min<std::uint64_t>(probed, 3)) + 12u) << sane;
    }
    // Phases, then whole steps: the second run takes the resets the first found, without probing.
    counting_engine twice;
    twice.sane_steps = 2;
    std::vector<std::uint64_t> chunks;
    const phase_timing both = run_phase_and_whole_step_benchmark(twice, c, chunk_clock(twice, chunks), run);
    EXPECT_EQ(both.reset_every, 3u);
    EXPECT_EQ(chunks, std::vector<std::uint64_t>(4, 3u));
    EXPECT_EQ(twice.frames_read, 3u);  // three steps, in the first run only
    // Without resets, or without a check, nothing is probed.
    run.reset_every = 0;
    counting_engine unreset;
    unreset.sane_steps = 0;
    EXPECT_EQ(run_phase_benchmark(unreset, c, run).reset_every, 0u);
    EXPECT_EQ(unreset.frames_read, 0u);
    run.reset_every = 5;
    run.blow_up = nullptr;
    counting_engine unchecked;
    unchecked.sane_steps = 0;
    EXPECT_EQ(run_phase_benchmark(unchecked, c, run).reset_every, 5u);
    EXPECT_EQ(unchecked.frames_read, 0u);
}

// A whole-step benchmark of a counting engine with a clock that records each timed chunk's length
// and gives a chunk of k steps k + launch_ms milliseconds.
struct clocked_run {
    counting_engine engine;
    std::vector<std::uint64_t> chunks;
    phase_timing timing;
    clocked_run(const phase_run& run, double launch_ms) {
        timing = run_whole_step_benchmark(engine, chunk_clock(engine, chunks, launch_ms), run);
    }
};

// The fused engine's benchmark: whole chunks timed by a clock, each chunk's time shared by its
// steps. With 1 ms a step and 2 ms a launch, a step of a chunk of k steps takes 1 + 2 / k ms; the
// expected statistics follow from the chunks' lengths.
TEST(PhaseTiming, WholeStepLoopTimesChunksAndSharesTheirTimeByTheirSteps) {
    phase_run run;
    run.warmup = 3;
    run.steps = 12;
    run.reset_every = 5;
    const clocked_run r(run, 2.0);
    EXPECT_EQ(r.chunks, (std::vector<std::uint64_t>{5, 5, 2}));  // the warm-up is not timed
    EXPECT_EQ(r.engine.advanced, 15u);
    EXPECT_EQ(r.engine.restores, 1u + 3u);
    const phase_timing& t = r.timing;
    EXPECT_EQ(t.steps, 12u);
    EXPECT_FALSE(t.phases_timed);
    for (step_phase p : step_phases) EXPECT_TRUE(std::isnan(t.of(p).median_ms)) << to_string(p);
    // Ten steps of 1.4 ms (chunks of 5), two of 2 ms (the chunk of 2).
    EXPECT_DOUBLE_EQ(t.step.min_ms, 1.4);
    EXPECT_DOUBLE_EQ(t.step.max_ms, 2.0);
    EXPECT_DOUBLE_EQ(t.step.median_ms, 1.4);
    EXPECT_DOUBLE_EQ(t.step.mean_ms, (10 * 1.4 + 2 * 2.0) / 12);
    EXPECT_EQ(t.description.at("backend"), "test");

    // No resets and no time budget: one chunk of all the timed steps (12 + 12 ms).
    run.reset_every = 0;
    run.max_seconds = 0.0;
    const clocked_run whole(run, 12.0);
    EXPECT_EQ(whole.chunks, (std::vector<std::uint64_t>{12}));
    EXPECT_EQ(whole.engine.restores, 0u);
    EXPECT_DOUBLE_EQ(whole.timing.step.median_ms, 2.0);

    // No resets and a time budget (here never spent): chunks of --min-steps.
    run.max_seconds = 1e9;
    run.min_steps = 4;
    EXPECT_EQ(clocked_run(run, 0.0).chunks, (std::vector<std::uint64_t>{4, 4, 4}));
}

// An engine whose phase timer costs time of its own (CUDA events): the phases from a phase run, the
// whole step from a second run without the timer, begun at the same state. The counting engine's
// phases take 0.1 + 0.2 + 0.3 ms a step; the clock gives a chunk of k steps k ms (1 ms a step).
TEST(PhaseTiming, PhasesAndWholeStepsAreTwoRunsFromTheSameState) {
    phase_run run;
    run.warmup = 3;
    run.steps = 12;
    run.reset_every = 5;
    counting_engine e;
    counting_engine::clock c;
    std::vector<std::uint64_t> chunks;
    const phase_timing t = run_phase_and_whole_step_benchmark(e, c, chunk_clock(e, chunks), run);
    EXPECT_TRUE(t.phases_timed);
    EXPECT_EQ(t.steps, 12u);
    EXPECT_NEAR(t.step.median_ms, 0.6, 1e-15);  // the phases' sum
    EXPECT_NEAR(t.of(step_phase::hi).median_ms, 0.3, 1e-15);
    EXPECT_DOUBLE_EQ(t.whole_step.median_ms, 1.0);  // the clock's
    EXPECT_DOUBLE_EQ(t.whole_step.max_ms, 1.0);
    EXPECT_EQ(e.timed, 12u);                                   // only the first run's steps were timed by phase
    EXPECT_EQ(chunks, (std::vector<std::uint64_t>{5, 5, 2}));  // the second run's timed chunks
    EXPECT_EQ(e.advanced, 2u * 15u);                           // each run: 3 warm-up steps and 12 timed
    EXPECT_EQ(e.restores, (1u + 3u) + 1u + (1u + 3u));         // each run's resets and one between them
    EXPECT_EQ(e.timer, nullptr);

    // One run each: the whole step is the step where the timer costs nothing measurable or there are
    // no phases.
    counting_engine once;
    const phase_timing phases = run_phase_benchmark(once, c, run);
    EXPECT_DOUBLE_EQ(phases.whole_step.median_ms, phases.step.median_ms);
    EXPECT_DOUBLE_EQ(phases.whole_step.mean_ms, phases.step.mean_ms);
    const clocked_run whole(run, 2.0);
    EXPECT_DOUBLE_EQ(whole.timing.whole_step.median_ms, whole.timing.step.median_ms);
    EXPECT_DOUBLE_EQ(whole.timing.whole_step.max_ms, whole.timing.step.max_ms);
}

TEST(PhaseTiming, CpuEngineIsTimedPhaseByPhase) {
    const bench::benchmark_system s = bench::fcc_system(2, 0.1, true, true);
    engine_config c;
    c.system = s.system;
    c.precision = {precision::f32, precision::f32};
    c.dt = 0.001;
    c.threads = 1;
    phase_run run;
    run.warmup = 1;
    run.steps = 4;
    const phase_timing t = cpu::time_phases(c, s.state, run);
    EXPECT_EQ(t.steps, 4u);
    for (step_phase p : step_phases) {
        EXPECT_GE(t.of(p).min_ms, 0.0);
        EXPECT_LE(t.of(p).min_ms, t.of(p).median_ms);
        EXPECT_LE(t.of(p).median_ms, t.of(p).max_ms);
    }
    EXPECT_NEAR(t.step.mean_ms,
                t.of(step_phase::drift).mean_ms + t.of(step_phase::forces).mean_ms + t.of(step_phase::hi).mean_ms,
                1e-9);
    EXPECT_EQ(t.description.at("threads"), "1");
}

TEST(PhaseTiming, TimedStepsComputeWhatUntimedStepsDo) {
    // The timer wraps the same primitives in the same order: bit for bit the same state.
    const bench::benchmark_system s = bench::fcc_system(3, 0.1, true, true);
    engine_config c;
    c.system = s.system;
    c.dt = 0.001;
    c.threads = 1;
    using policy = precision_policy<precision::ds, precision::f32>;
    cpu::cpu_engine<policy> timed(c, s.state), untimed(c, s.state);
    cpu::phase_clock clock;
    timed.set_phase_timer(&clock);
    timed.advance(3);
    untimed.advance(3);
    EXPECT_EQ(clock.take().size(), 3u);
    timed.set_phase_timer(nullptr);
    timed.advance(1);
    untimed.advance(1);
    EXPECT_TRUE(clock.take().empty());
    frame a, b;
    timed.read_frame(a);
    untimed.read_frame(b);
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(a.velocity, b.velocity);
    EXPECT_EQ(a.force, b.force);
    EXPECT_EQ(timed.step(), 4u);
}
