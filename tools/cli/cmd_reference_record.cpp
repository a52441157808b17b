// `stokesian reference record RESULT.h5... (--reference FILE.h5 | --reference-dir DIR) [--checks
// FILE] [--force]`: stores results as reference entries with the tolerance rules of checks.toml.
// Never replaces an entry without --force; with it, prints the old and new value of every
// observable. Exit status 0 recorded, 1 an entry exists (nothing written), 2 bad input.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "reference_commands.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/regression/reference_recorder.hpp"
#include "stokesian/regression/value_comparison.hpp"

namespace stokesian::cli {

namespace {

namespace fs = std::filesystem;
using regression::format_number;

struct record_options {
    std::vector<std::string> results;
    std::string reference, reference_dir, checks;
    bool force = false;
    bool negative_controls = false;
};

// checks.toml next to the reference files, or one directory up (reference_data/scale-0.01/ uses
// reference_data/checks.toml).
fs::path default_rules(const fs::path& reference_dir) {
    for (const fs::path& candidate : {reference_dir / "checks.toml", reference_dir.parent_path() / "checks.toml"})
        if (fs::exists(candidate)) return candidate;
    throw input_error("command line", "--checks", "", "no checks.toml in " + reference_dir.string() + " or its parent");
}

std::string rule_text(const regression::check_rule& r) {
    return to_string(r.kind) + (r.kind == regression::tolerance_kind::exact ? "" : " " + format_number(r.tolerance));
}

std::string value_text(const regression::observed_value& v) {
    if (v.values.size() == 1 && v.scalar) return format_number(v.values[0]);
    return std::to_string(v.values.size()) + " values";
}

// "max |new - old|" of two arrays over their common length.
std::string difference_text(const regression::observed_value& old_value, const regression::observed_value& new_value) {
    const std::size_t n = std::min(old_value.values.size(), new_value.values.size());
    double largest = 0.0, relative = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        const double d = std::fabs(new_value.values[k] - old_value.values[k]);
        if (std::isnan(d) && std::isnan(old_value.values[k]) != std::isnan(new_value.values[k]))
            return "NaN <-> number";
        if (d > largest) {
            largest = d;
            relative = old_value.values[k] != 0.0 ? d / std::fabs(old_value.values[k]) : INFINITY;
        }
    }
    if (largest == 0.0) return old_value.values.size() == new_value.values.size() ? "unchanged" : "length changed";
    return "max |change| " + format_number(largest) + " (" + format_number(relative) + " rel)";
}

void report(const regression::recorded_entry& e, const fs::path& file) {
    std::printf("%s %s in %s from %s: %zu observables\n", e.replaced ? "replaced" : "recorded", e.entry.c_str(),
                file.string().c_str(), e.run.c_str(), e.observables.size());
    for (const std::string& note : e.notes) std::printf("  note: %s\n", note.c_str());
    if (!e.replaced) return;
    std::printf("  %-40s %-22s %-22s %s\n", "observable", "old", "new", "change");
    for (const auto& o : e.observables) {
        if (!o.old_value) {
            std::printf("  %-40s %-22s %-22s %s\n", o.name.c_str(), "(none)", value_text(o.new_value.value).c_str(),
                        "new");
            continue;
        }
        std::string change = difference_text(o.old_value->value, o.new_value.value);
        const std::string old_rule = rule_text(o.old_value->rule), new_rule = rule_text(o.new_value.rule);
        if (old_rule != new_rule) change += "; rule " + old_rule + " -> " + new_rule;
        std::printf("  %-40s %-22s %-22s %s\n", o.name.c_str(), value_text(o.old_value->value).c_str(),
                    value_text(o.new_value.value).c_str(), change.c_str());
    }
}

int execute(const record_options& o) {
    if (o.reference.empty() == o.reference_dir.empty())
        throw input_error("command line", "--reference", "",
                          "give exactly one of --reference FILE and --reference-dir DIR");
    std::vector<regression::observed_run> runs;
    for (const std::string& path : o.results) runs.push_back(regression::read_observed_run(path));

    // Results grouped by reference file: one file per scenario.
    std::map<fs::path, std::vector<regression::observed_run>> by_file;
    for (auto& run : runs) {
        const fs::path file =
            !o.reference.empty() ? fs::path(o.reference) : fs::path(o.reference_dir) / run.key.file_name();
        by_file[file].push_back(std::move(run));
    }
    const fs::path directory =
        !o.reference_dir.empty() ? fs::path(o.reference_dir) : fs::path(o.reference).parent_path();
    const fs::path rules_path =
        !o.checks.empty() ? fs::path(o.checks) : default_rules(directory.empty() ? "." : directory);
    const regression::check_rules rules = regression::load_check_rules(rules_path);
    if (!o.reference_dir.empty()) fs::create_directories(o.reference_dir);

    std::string command;
    for (int k = 0; k < invocation_argc(); ++k) command += (k ? " " : "") + std::string(invocation_argv()[k]);
    int status = 0;
    for (auto& [file, group] : by_file) {
        regression::record_request request{std::move(group), file, rules, o.force, command};
        request.negative_controls = o.negative_controls;
        try {
            for (const auto& entry : regression::record_references(request)) report(entry, file);
        } catch (const regression::entry_exists_error& e) {
            std::fprintf(stderr, "stokesian: %s\n", e.what());
            status = 1;
        }
    }
    return status;
}

}  // namespace

action register_reference_record(CLI::App& reference) {
    auto o = std::make_shared<record_options>();
    auto* cmd =
        reference.add_subcommand("record", "Record results as reference entries (with the rules of checks.toml)");
    cmd->add_option("results", o->results, "result files (H5MD, from stokesian run or suite run)")->required();
    cmd->add_option("--reference", o->reference, "the reference file to write (one scenario)");
    cmd->add_option("--reference-dir", o->reference_dir, "directory of <scenario>.h5 reference files (any scenarios)");
    cmd->add_option("--checks", o->checks,
                    "tolerance rules (default: checks.toml next to the references or one level up)");
    cmd->add_flag("--force", o->force, "replace existing entries (prints old and new values)");
    cmd->add_flag("--negative-control", o->negative_controls,
                  "record negative controls, and only them: the boundaries their perturbed runs are verified in "
                  "segments against (a suite's segment_references folder)");
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
