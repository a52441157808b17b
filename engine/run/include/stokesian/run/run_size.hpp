#pragma once
// What a run will cost before it starts: the wall time of a velocity evaluation, measured on a
// subset of the system and scaled by N^2, and the memory, counted. `stokesian run` states it for
// large systems and refuses a run whose first step would take too long (engine/docs/reliability.md).
#include <cstddef>
#include <string>

#include "stokesian/core/engine.hpp"

namespace stokesian {

struct run_size_estimate {
    std::size_t particles = 0;
    bool measured = false;                // false: a small system (<= run_size_min_particles), nothing estimated
    std::string backend;                  // the backend that ran the measurement (auto resolved)
    std::size_t measured_particles = 0;   // the subset timed: the first M particles
    double seconds_per_evaluation = 0.0;  // one velocity evaluation of all N particles
    int evaluations_per_step = 1;         // of the integrator
    bool implicit_lubrication = false;    // a step adds one evaluation per conjugate-gradient iteration
    double seconds_to_first_step = 0.0;   // the initial evaluation and the first step
    double bytes = 0.0;                   // host memory of the run
    double available_bytes = 0.0;         // MemAvailable of /proc/meminfo (0: unknown)
};

// Below this many particles a velocity evaluation is at most 1.7e7 pair terms, well under a second
// at any measured rate (engine/docs/reliability.md), and nothing is estimated.
inline constexpr std::size_t run_size_min_particles = 4096;

// Builds an engine of the first particles of `state` with `config` (lubrication off, so one step
// of the Euler integrator is one evaluation), times its steps for about 50 ms and scales the time
// per step by (N / M)^2; counts the memory per particle of the CPU engine and the run loop.
run_size_estimate estimate_run_size(const engine_config& config, const initial_state& state);

}  // namespace stokesian
