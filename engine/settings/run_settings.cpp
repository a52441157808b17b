// The step counts of run settings and the engine configuration of a scenario.
#include "stokesian/core/scenario.hpp"
#include "stokesian/core/step_count.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

// Counts of validated settings (validate_run_settings); unvalidated ones give 0 steps and
// intervals of 1, never an overflowed count.
std::uint64_t run_settings::total_steps() const {
    if (steps) return *steps;
    if (time) return whole_steps(*time, dt).value_or(0);
    return 0;
}

std::uint64_t run_settings::checkpoint_interval_steps() const {
    if (!checkpoint_every) return 0;
    return whole_steps(*checkpoint_every, dt).value_or(1);
}

std::uint64_t run_settings::sample_interval_steps() const { return whole_steps(sample_every, dt).value_or(1); }

engine_config make_engine_config(const scenario& s) {
    engine_config config;
    config.system = s.system;
    config.precision = s.run.precision;
    config.integrator = s.run.integrator;
    config.backend = s.run.backend;
    config.hi_kernel = s.run.hi_kernel;
    config.dt = s.run.dt;
    config.threads = 0;
    return config;
}

}  // namespace stokesian
