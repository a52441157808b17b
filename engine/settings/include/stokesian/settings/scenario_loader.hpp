#pragma once
// Reading, writing and checking scenarios (the struct is core's, stokesian/core/scenario.hpp): the
// settings layer's field tables do the work (engine/settings/*_table.cpp).
#include <filesystem>
#include <string>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"

namespace stokesian {

// Reads and validates a scenario file; `case_name` selects one of its [cases] (empty: the first).
// Throws input_error naming file, key, value and what is expected.
scenario load_scenario(const std::filesystem::path& path, const std::string& case_name = {});
// Same, from text (for tests and the fuzzer); `origin` names the text in messages.
scenario parse_scenario(const std::string& text, const std::string& origin, const std::string& case_name = {});

// The full resolved configuration as TOML text (stored in output files next to the source).
std::string resolved_configuration(const scenario& s);

engine_config make_engine_config(const scenario& s);

// Checks run settings after command-line overrides (the loader applies the same rules): dt, time,
// steps and sample_every positive and finite, exactly one of time/steps, time, sample_every and
// checkpoint_every integer multiples of dt (to 1e-9 relative), min_separation finite and >= 0.
// Throws input_error naming `origin` and the key.
void validate_run_settings(const run_settings& run, const std::string& origin);

// The most windows observables.cycle.window may lay over a run, and what is expected of the window
// with these (validated) run settings: "" when it is long enough (run_settings_validation.cpp says why).
inline constexpr double most_cycle_windows = 1e6;
std::string cycle_window_problem(double window, const run_settings& run);
// The same check after the run settings changed (command line, suite): throws input_error naming
// `origin` and the key.
void validate_cycle_window(const scenario& s, const std::string& origin);

}  // namespace stokesian
