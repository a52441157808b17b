#include <algorithm>
#include <cmath>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/core/step_count.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace {
// x / dt must be a whole number of steps (core/step_count.hpp): run lengths and sampling intervals
// are counted in whole steps, and a silent rounding would change the physics being compared.
void require_multiple_of_dt(double x, double dt, const std::string& origin, const std::string& key) {
    const std::string problem = whole_steps_problem(x, dt, key, "run.dt");
    if (!problem.empty()) throw input_error(origin, key, exact_number(x), problem);
}
}  // namespace

void validate_run_settings(const run_settings& run, const std::string& origin) {
    if (!(std::isfinite(run.dt) && run.dt > 0.0))
        throw input_error(origin, "run.dt", exact_number(run.dt), "expected a positive, finite number");
    if (run.time.has_value() == run.steps.has_value())
        throw input_error(origin, "run.time", "", "expected exactly one of run.time and run.steps");
    if (run.time) {
        if (!(std::isfinite(*run.time) && *run.time > 0.0))
            throw input_error(origin, "run.time", exact_number(*run.time), "expected a positive, finite number");
        require_multiple_of_dt(*run.time, run.dt, origin, "run.time");
    }
    if (run.steps && (*run.steps == 0 || *run.steps > max_step_count))
        throw input_error(origin, "run.steps", std::to_string(*run.steps),
                          std::string("expected a whole number of steps from 1 to ") + max_step_count_text);
    if (!(std::isfinite(run.sample_every) && run.sample_every > 0.0))
        throw input_error(origin, "run.sample_every", exact_number(run.sample_every),
                          "expected a positive, finite number");
    require_multiple_of_dt(run.sample_every, run.dt, origin, "run.sample_every");
    if (run.checkpoint_every) {
        if (!(std::isfinite(*run.checkpoint_every) && *run.checkpoint_every > 0.0))
            throw input_error(origin, "run.checkpoint_every", exact_number(*run.checkpoint_every),
                              "expected a positive, finite number");
        require_multiple_of_dt(*run.checkpoint_every, run.dt, origin, "run.checkpoint_every");
    }
    if (!(std::isfinite(run.min_separation) && run.min_separation >= 0.0))
        throw input_error(origin, "run.min_separation", exact_number(run.min_separation),
                          "expected a finite number >= 0 (in units of a; 0 switches the check off)");
}

// The shortest window is the longer of
// - one sample interval: periods and amplitudes are read off the extrema of the sampled coordinate,
//   about one per sample at most, so a shorter window holds one value or none, no average;
// - the run's length / 10^6: the analysis lays windows end to end over the run and keeps each (5e-324
//   tau_s asked for 10^327 of them, 1e-6 tau_s for 5e9: gigabytes, then out of memory at the run's
//   end). 10^6 windows (80 MB) are beyond any run meant: the suites' longest has 52.
// The window count is then at most the samples the run takes and 10^6.
std::string cycle_window_problem(double window, const run_settings& run) {
    const double run_length = double(run.total_steps()) * run.dt;
    const double shortest = std::max(run.sample_every, run_length / most_cycle_windows);
    if (window >= shortest) return "";
    return "expected a window of at least " + short_number(shortest) +
           " tau_s: one sample interval (run.sample_every = " + short_number(run.sample_every) +
           ") and at most 10^6 windows over the run's " + short_number(run_length) + " tau_s";
}

void validate_cycle_window(const scenario& s, const std::string& origin) {
    if (!s.observables.cycle) return;
    const double window = s.observables.cycle->window;
    if (const std::string problem = cycle_window_problem(window, s.run); !problem.empty())
        throw input_error(origin, "observables.cycle.window", short_number(window), problem);
}

}  // namespace stokesian
