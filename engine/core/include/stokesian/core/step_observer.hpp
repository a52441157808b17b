#pragma once
// What an engine tells an observer of its steps: the phase each step primitive belongs to, when it
// begins and ends, and when a step is done. The benchmarks' timers (cpu/phase_clock.hpp,
// cuda/phase_event_timer.cuh; statistics in core/phase_timing.hpp) are observers: the engines know
// this interface only, and a normal run, without an observer, pays one pointer test per step.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stokesian/core/integrator.hpp"

namespace stokesian {

enum class step_phase : std::uint8_t { drift, forces, hi };
inline constexpr std::size_t step_phase_count = 3;
inline constexpr std::array<step_phase, step_phase_count> step_phases{step_phase::drift, step_phase::forces,
                                                                      step_phase::hi};

constexpr std::string_view to_string(step_phase p) noexcept {
    switch (p) {
        case step_phase::drift: return "drift";
        case step_phase::forces: return "forces";
        case step_phase::hi: return "hi";
    }
    return "?";
}

class step_observer {
public:
    virtual ~step_observer() = default;
    virtual void begin(step_phase p) = 0;
    virtual void end(step_phase p) = 0;
    virtual void step_done() = 0;
};

// The integrator's step primitives with a timer around each: the integrators (core/integrator.hpp)
// run on this adapter exactly as on the engine, so the timed step is the real step.
// Timer: begin(step_phase) before, end(step_phase) after a primitive.
template <class Engine, class Timer>
struct timed_step_ops {
    Engine& engine;
    Timer& timer;
    void drift() {
        timer.begin(step_phase::drift);
        engine.drift();
        timer.end(step_phase::drift);
    }
    void update_forces() {
        timer.begin(step_phase::forces);
        engine.update_forces();
        timer.end(step_phase::forces);
    }
    void update_velocities() {
        timer.begin(step_phase::hi);
        engine.update_velocities();
        timer.end(step_phase::hi);
    }
    // The bookkeeping of multi-stage integrators counts as integration.
    void begin_step() {
        timer.begin(step_phase::drift);
        engine.begin_step();
        timer.end(step_phase::drift);
    }
    void store_stage(int s) {
        timer.begin(step_phase::drift);
        engine.store_stage(s);
        timer.end(step_phase::drift);
    }
    void drift_from_start(const double* c, int m) {
        timer.begin(step_phase::drift);
        engine.drift_from_start(c, m);
        timer.end(step_phase::drift);
    }
    void drift_with_history(double c0, double c1) {
        timer.begin(step_phase::drift);
        engine.drift_with_history(c0, c1);
        timer.end(step_phase::drift);
    }
    void remember_velocity() {
        timer.begin(step_phase::drift);
        engine.remember_velocity();
        timer.end(step_phase::drift);
    }
    bool has_history() const { return engine.has_history(); }
};

// One step of `integrator` on `engine`, every primitive timed by `observer` where one is set;
// without one the integrator runs on the engine itself (one pointer test a step).
template <class Engine>
void integrate_observed_step(integrator_kind integrator, Engine& engine, step_observer* observer) {
    if (observer) {
        timed_step_ops<Engine, step_observer> timed{engine, *observer};
        integrate_step(integrator, timed);
        observer->step_done();
    } else {
        integrate_step(integrator, engine);
    }
}

}  // namespace stokesian
