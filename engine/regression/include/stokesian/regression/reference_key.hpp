#pragma once
// Which reference entry a result is compared with: one entry per (case, precision mode, dt,
// integrator, backend class) in the scenario's reference file (reference_data/<scenario>.h5,
// schema in reference_data/README.md). The run length is not part of the key: it is stored with
// the entry and checked, so a shortened run is never compared with a full-length reference.
#include <string>

namespace stokesian::regression {

struct reference_key {
    std::string scenario;       // scenario name: the reference file is <scenario>.h5
    std::string case_name;      // empty for scenarios without [cases]
    std::string precision;      // canonical "hi=X,int=Y"
    double dt = 0.0;            // tau_s
    std::string integrator;     // "euler"
    std::string backend_class;  // "cpu" or "gpu"

    // "/head_on/hi=f64,int=f64/dt=0.001/euler/cpu" (the case level only when there is a case).
    std::string group_path() const;
    std::string file_name() const { return scenario + ".h5"; }
    bool operator==(const reference_key&) const = default;
};

// The reference class of a registered backend's results: "gpu" for one that computes on a device
// (backends::computes_on_device: cuda), else "cpu"; throws std::invalid_argument for a
// name that is not registered.
std::string backend_class_of(const std::string& backend);

// dt as it appears in keys: the shortest decimal that reads back to the same double ("0.01").
std::string dt_text(double dt);

// Parses a group path written by group_path() (the inverse; throws std::invalid_argument).
reference_key parse_group_path(const std::string& scenario, const std::string& path);

}  // namespace stokesian::regression
