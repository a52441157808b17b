#pragma once
// What a result file (an H5MD file written by run_scenario) says about a run, in the form the
// reference store records and the checker compares: the reference key, the run's length and
// status, its provenance, and the regression observables by name ("cycle.period_drift", ...;
// the catalogue is in observable_catalogue.cpp, the meaning of each in reference_data/README.md).
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "stokesian/core/digest.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/run/segments.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian::regression {

inline constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

struct observed_value {
    std::vector<double> values;  // one element for a scalar
    bool scalar = true;
    std::vector<double> coordinate;         // arrays over windows: the end time of each window
    double window_length = not_a_number;    // arrays over windows: tau_s per window
    double ci95_half_width = not_a_number;  // slopes: half-width of the 95% confidence interval
    std::string unit;                       // "tau_s", "a", "mu0 F", "" ...
};

struct observed_run {
    std::filesystem::path file;
    std::string name;  // the file's stem (the suite's run name)
    reference_key key;
    std::uint64_t planned_steps = 0, steps = 0, sample_interval_steps = 0;
    std::string status;                             // "completed", "interrupted ...", "numerical blow-up ..."
    std::string final_state_digest;                 // as the result stores it (core/digest.hpp)
    std::string cuda_fp_profile;                    // "ieee" or "paper-fast" on CUDA, empty on the CPU
    bool short_range_forces = false;                // lubrication or a pair force (CPU and CUDA differ by libm)
    std::string scenario_fingerprint;               // of the resolved physics, box, particles, observables
    std::string negative_control;                   // non-empty: a deliberately perturbed run (what was done)
    bool relabelled = false;                        // a negative control labelled as another precision mode
    std::map<std::string, std::string> provenance;  // recorded on reference entries (reference_data/README.md)
    std::map<std::string, observed_value> observables;
    boundary_states boundaries;  // the states the run passed at its segment boundaries (run/segments.hpp)

    double planned_time() const { return double(planned_steps) * key.dt; }
};

// Reads a result file. Throws input_error (one line naming the file) when it is not a readable
// result of `stokesian run` / `suite run`.
observed_run read_observed_run(const std::filesystem::path& result);

// The scenario fingerprint of a resolved configuration (the [physics], [box], [particles] and
// [observables] tables, hashed; keys added later are left out while they hold the default that
// reproduces the earlier behaviour).
std::string scenario_fingerprint(const std::string& resolved_configuration);

}  // namespace stokesian::regression
