#pragma once
// What a run wrote, read back from its H5MD file: the provenance, the headline numbers of every
// observable and every result under /analysis. The one source of `stokesian analyze --json` and of
// the shared part of `stokesian run --json` (docs/reference/json.md): both print result_json of the
// same file, so the two commands name the same quantities the same way with the same values.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "stokesian/io/json_text.hpp"

namespace stokesian::cli {

// One dataset under /analysis.
struct analysis_result {
    std::string name;  // path below /analysis, e.g. "cycle/period"
    std::vector<double> values;
    bool scalar = true;
};

// A headline number: its key (in `observables`), the /analysis result it comes from, and how the
// terminal shows it. A path "P#count" is the length of the 1-D result P, "P#last" its last value;
// "P*S" the largest of the scalars whose names start with P and end with S.
struct headline {
    const char* group;
    const char* key;
    const char* path;
    const char* label;
    const char* unit;
    const char* when_nan;  // what NaN means here ("none", "not computed"...)
};
std::span<const headline> headlines();

struct result_file {
    std::string path;
    std::map<std::string, std::string> scenario, run, engine;  // the /parameters groups
    std::vector<std::string> flags;                            // findings that make the numbers suspect
    std::vector<analysis_result> results;
};

// The file at `path` (one-line input_error, exit 2, if missing or not H5MD).
result_file read_result_file(const std::string& path);

std::optional<double> headline_value(const result_file& file, const headline& h);

// The JSON document of a result file: provenance, "flags", "observables" (the headline numbers),
// "analysis" (scalars as values, arrays as count/first/last/min/max/mean).
io::json result_json(const result_file& file);

struct array_summary {
    double minimum, maximum, mean, first, last;
};
array_summary summarise_array(const std::vector<double>& v);

}  // namespace stokesian::cli
