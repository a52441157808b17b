#pragma once
// The tetrahedron runs of the batched-run tests (tests/cli/batched_runs_conformance.hpp, on every
// backend that batches runs).
#include <exception>
#include <filesystem>
#include <string>

#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/run/batched_runs.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

namespace stokesian::test_support {

// scenarios/tetrahedron.toml on `backend` in `mode`, with this dt, length in tau_s, sampling and trajectory.
inline scenario tetrahedron_run(const std::string& backend, precision_mode mode, double dt, double time,
                                double sample_every, bool trajectory) {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml", "");
    s.run.backend = backend;
    s.run.precision = mode;
    s.run.dt = dt;
    s.run.time = time;
    s.run.steps.reset();
    s.run.sample_every = sample_every;
    s.run.write_trajectory = trajectory;
    return s;
}

// A run of `s` into `out` (replacing a file there: a resume sets force back), one CPU thread, no
// checkpoints by the clock (so that every run of a test writes the same checkpoints).
inline run_request run_into(const scenario& s, const std::filesystem::path& out) {
    run_request r;
    r.scenario_ = s;
    r.output.path = out;
    r.output.force = true;
    r.threads = 1;
    r.checkpoint_wall_seconds = 0.0;
    return r;
}

// A batched member's result, or its failure rethrown.
inline const run_result& result_of(const batched_outcome& o) {
    if (o.error) std::rethrow_exception(o.error);
    return *o.result;
}

}  // namespace stokesian::test_support
