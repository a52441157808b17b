#pragma once
// `stokesian reference check`: a result against its entry in a reference directory, one row per
// observable plus the run's length and status. A missing entry is a failed row, not an error;
// an unreadable or invalid reference file is input_error (exit status 2). An entry of another run
// length or scenario configuration does not apply to the run: one failed row names the cause
// (run_check::reference_mismatch) and nothing else is compared.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/reference_store.hpp"

namespace stokesian::regression {

struct check_row {
    std::string run, observable, kind;
    std::string observed, reference, tolerance;
    bool passed = false;
    bool skipped = false;  // nothing was compared (detail says why): neither passed nor failed
    double ratio = 0.0;    // deviation / allowed (NaN where not applicable)
    std::string detail;    // why it failed or was skipped, or which element was the worst
    bool failed() const { return !passed && !skipped; }
    const char* verdict() const { return passed ? "pass" : skipped ? "skip" : "fail"; }
};

struct run_check {
    std::string run;
    std::string result_file;
    std::string reference_file;
    std::string entry;  // group path used ("" if none)
    std::string note;   // e.g. a cpu entry standing in for a gpu result
    // Why the entry does not apply to the run ("" when it does): "reference recorded for 517000
    // tau_s, this run is 5170 tau_s: wrong --reference-dir or --scale?". Then `rows` is that one
    // cause: every observable would differ for it, so none is compared.
    std::string reference_mismatch;
    bool bitwise_identical = false;  // final state digest equal to the reference run's
    std::vector<check_row> rows;
    // Where the result came from (observed_run::provenance: commit, build flags, device, driver,
    // runtime, host, date, wall time) and how its reference entry was recorded (recorded_at,
    // recorded_with, git_commit, device_name, host, date of the reference run).
    std::map<std::string, std::string> provenance, reference_provenance;
    bool passed() const;  // no row failed (skipped rows neither pass nor fail)
    bool checked() const { return reference_mismatch.empty(); }
};

// Loads reference files from a directory on first use and keeps them.
class reference_library {
public:
    explicit reference_library(std::filesystem::path directory) : directory_(std::move(directory)) {}
    // nullptr when the file does not exist; throws input_error when it exists but is invalid.
    const reference_set* file_for(const std::string& scenario);
    const std::filesystem::path& directory() const { return directory_; }

private:
    std::filesystem::path directory_;
    std::map<std::string, std::optional<reference_set>> loaded_;
};

// The entry a result is compared with: its own key, or the other backend class's where both
// compute bit for bit the same (CPU and the IEEE CUDA build without short-range forces:
// engine/README.md). Sets `note` when it falls back.
const reference_entry* find_entry(const reference_set& set, const observed_run& run, std::string& note);

run_check check_run(const observed_run& run, reference_library& references);

}  // namespace stokesian::regression
