#pragma once
// Reference files (reference_data/<scenario>.h5; schema in reference_data/README.md): one group
// per reference key holding the recorded observables, each with the tolerance rule it is checked
// by, and the provenance of the run that produced it.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "stokesian/regression/check_rules.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/segments.hpp"

namespace stokesian::regression {

inline constexpr const char* reference_schema_name = "stokesian-reference";
// An entry may hold segment boundaries (absent: it verifies continuously); files of another
// version are refused with one line (re-recorded by ci/record-references).
inline constexpr int reference_schema_version = 2;
inline constexpr const char* boundaries_group = "segment_boundaries";

struct reference_value {
    observed_value value;
    check_rule rule;      // the rule copied from checks.toml when recorded
    std::string meaning;  // what the observable is (from the catalogue)
};

struct reference_entry {
    reference_key key;
    std::uint64_t planned_steps = 0, sample_interval_steps = 0;
    // Provenance of the recorded run and of the recording (reference_data/README.md).
    std::map<std::string, std::string> attributes;
    std::map<std::string, reference_value> observables;
    // The recorded run's complete states at its segment boundaries (stokesian/run/segments.hpp),
    // group segment_boundaries of the entry; empty: none stored.
    boundary_states boundaries;

    double planned_time() const { return double(planned_steps) * key.dt; }
};

struct reference_set {
    std::string scenario;
    std::map<std::string, reference_entry> entries;  // by group path
};

// Reads and validates a reference file. Throws input_error (one line naming the file) when it is
// missing, not HDF5, truncated, or does not follow the schema.
reference_set read_reference_file(const std::filesystem::path& path);

// Writes `set` to "<path>.tmp-<pid>" and renames it over `path`, so a crash leaves either the old
// file or the new one, never a half-written file.
void write_reference_file(const std::filesystem::path& path, const reference_set& set);

}  // namespace stokesian::regression
