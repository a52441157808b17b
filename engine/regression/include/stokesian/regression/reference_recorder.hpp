#pragma once
// `stokesian reference record`: results into a reference file. Each result's observables that a
// rule in checks.toml covers are stored with a copy of that rule and the run's provenance. An
// existing entry is replaced only with `force` (then the old and new values are reported); the
// file is rewritten atomically once everything has been read and checked. The reference file's
// lock (<file>.lock, io/file_lock.hpp) is held from the read to the rename, so concurrent records
// into one file each add their entries and none is lost.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/regression/check_rules.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/reference_store.hpp"

namespace stokesian::regression {

struct recorded_observable {
    std::string name;
    std::optional<reference_value> old_value;  // set when an entry was replaced
    reference_value new_value;
};

struct recorded_entry {
    std::string run;
    std::string entry;  // group path
    bool replaced = false;
    std::vector<recorded_observable> observables;
    std::vector<std::string> notes;  // e.g. an expected failure beyond this run's length
};

struct record_request {
    std::vector<observed_run> runs;
    std::filesystem::path reference_file;
    check_rules rules;
    bool force = false;
    std::string command;  // the recording command line (provenance)
    // Record negative controls, and only them: the boundary states their perturbed runs are
    // verified in segments against (a manifest's segment_references; never the nightly's folder).
    bool negative_controls = false;
    // How long to wait for another record into the same file; then an input_error.
    std::chrono::milliseconds lock_patience{60000};
};

// Thrown when an entry exists and `force` is not set; nothing has been written then.
class entry_exists_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws input_error for results that cannot be recorded (incomplete runs, another scenario,
// two results with one key, nothing a rule covers) and entry_exists_error; writes nothing then.
std::vector<recorded_entry> record_references(const record_request& request);

}  // namespace stokesian::regression
