#include <cmath>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/core/step_count.hpp"

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

}  // namespace stokesian
