// Checks one result against its reference entry (reference_check.hpp).
#include "stokesian/regression/reference_check.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "observable_catalogue.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/regression/value_comparison.hpp"

namespace stokesian::regression {

bool run_check::passed() const {
    return std::none_of(rows.begin(), rows.end(), [](const check_row& r) { return r.failed(); });
}

const reference_set* reference_library::file_for(const std::string& scenario) {
    auto it = loaded_.find(scenario);
    if (it == loaded_.end()) {
        const std::filesystem::path path = directory_ / (scenario + ".h5");
        std::optional<reference_set> set;
        std::error_code error;
        if (std::filesystem::exists(path, error)) set = read_reference_file(path);
        it = loaded_.emplace(scenario, std::move(set)).first;
    }
    return it->second ? &*it->second : nullptr;
}

namespace {

// Bit-for-bit equal classes: the CPU, and CUDA compiled IEEE-exact, when no libm call
// (lubrication's log, the pair force's exp) enters the step.
bool bitwise_class(const std::string& backend_class, const std::string& cuda_fp_profile) {
    return backend_class == "cpu" || cuda_fp_profile == "ieee";
}

const reference_entry* entry_at(const reference_set& set, const reference_key& key) {
    const auto it = set.entries.find(key.group_path());
    return it == set.entries.end() ? nullptr : &it->second;
}

check_row row(const observed_run& run, const std::string& observable, const std::string& kind) {
    check_row r;
    r.run = run.name;
    r.observable = observable;
    r.kind = kind;
    r.ratio = not_a_number;
    return r;
}

// Whether the entry's digests are of the one algorithm (core/digest.hpp): its digest_algorithm tag;
// read_reference_file refuses a tag it does not know, an entry without one is to be re-recorded.
bool digests_comparable(const reference_entry& entry) { return entry.attributes.contains(digest_algorithm_key); }

double loss_time(const std::map<std::string, observed_value>& values) {
    const auto it = values.find("cycle.lost_periodicity_time");
    return it == values.end() || it->second.values.empty() ? not_a_number : it->second.values.front();
}

double loss_time(const std::map<std::string, reference_value>& values) {
    const auto it = values.find("cycle.lost_periodicity_time");
    return it == values.end() || it->second.value.values.empty() ? not_a_number : it->second.value.values.front();
}

// "517000 steps, every 100th": the planned steps and which of them are sampled (short enough for
// the check table's column).
std::string run_length_text(std::uint64_t steps, std::uint64_t sample_interval_steps) {
    const std::uint64_t k = sample_interval_steps, tens = k % 100;
    const char* suffix = tens >= 11 && tens <= 13 ? "th"
                         : k % 10 == 1            ? "st"
                         : k % 10 == 2            ? "nd"
                         : k % 10 == 3            ? "rd"
                                                  : "th";
    return std::to_string(steps) + " steps, " +
           (k == 1 ? std::string("every step") : "every " + std::to_string(k) + suffix);
}

// Why `entry` does not apply to `run` ("" when it does): another run length (a wrong
// --reference-dir or --scale) or another scenario configuration. A negative control changes its
// scenario on purpose, standing for a change of the code (which would keep the fingerprint): its
// fingerprint is a failed row, and its observables are compared as any run's.
std::string mismatch_of(const observed_run& run, const reference_entry& entry, const std::string& fingerprint,
                        const std::string& recorded_fingerprint) {
    std::string cause;
    const bool other_length = run.planned_steps != entry.planned_steps;
    if (other_length)
        cause = "reference recorded for " + format_number(entry.planned_time()) + " tau_s, this run is " +
                format_number(run.planned_time()) + " tau_s";
    else if (run.sample_interval_steps != entry.sample_interval_steps)
        cause = "reference sampled every " + std::to_string(entry.sample_interval_steps) + " steps, this run every " +
                std::to_string(run.sample_interval_steps);
    if (cause.empty() && !digests_comparable(entry))
        return "the reference entry has no " + std::string(digest_algorithm_key) +
               ": its digests are of no algorithm this stokesian verifies; re-record it (ci/record-references)";
    if (run.negative_control.empty() && digests_comparable(entry) && fingerprint != recorded_fingerprint)
        cause += (cause.empty() ? "" : "; ") + std::string("reference recorded for another scenario configuration ") +
                 "(fingerprint " + recorded_fingerprint + ", this run " + fingerprint + ")";
    if (cause.empty()) return cause;
    return cause + (other_length || run.sample_interval_steps != entry.sample_interval_steps
                        ? ": wrong --reference-dir or --scale?"
                        : ": the scenario changed since the references were recorded (re-record them: ci/README.md), "
                          "or a wrong --reference-dir?");
}

// The run's length, status and scenario against the entry's; when the entry does not apply, only
// the row that shows why, its detail the cause (out.reference_mismatch).
void add_run_rows(const observed_run& run, const reference_entry& entry, run_check& out) {
    check_row length = row(run, "run.length", "exact");
    length.observed = run_length_text(run.planned_steps, run.sample_interval_steps);
    length.reference = run_length_text(entry.planned_steps, entry.sample_interval_steps);
    length.tolerance = "exact";
    length.passed =
        run.planned_steps == entry.planned_steps && run.sample_interval_steps == entry.sample_interval_steps;

    check_row status = row(run, "run.status", "exact");
    status.observed = echoed(run.status);
    status.reference = "completed";
    status.tolerance = "exact";
    status.passed = run.status == "completed" && run.steps == run.planned_steps;
    if (!status.passed) status.detail = "the run did not complete (" + echoed(run.status) + ")";

    check_row scenario = row(run, "scenario.fingerprint", "exact");
    const auto recorded = entry.attributes.find("scenario_fingerprint");
    scenario.observed = run.scenario_fingerprint;
    scenario.reference = recorded == entry.attributes.end() ? "(none)" : recorded->second;
    scenario.tolerance = "exact";
    scenario.passed = digests_comparable(entry) && scenario.observed == scenario.reference;
    if (!scenario.passed)
        scenario.detail =
            "the scenario's physics, box, particles or observables differ from those of the reference run: "
            "references recorded for another configuration do not apply";

    out.reference_mismatch = mismatch_of(run, entry, scenario.observed, scenario.reference);
    if (!out.reference_mismatch.empty()) {
        check_row& cause = length.passed ? scenario : length;
        cause.detail = out.reference_mismatch;
        out.rows.push_back(cause);
        return;
    }
    out.rows.push_back(length);
    out.rows.push_back(status);
    out.rows.push_back(scenario);
}

}  // namespace

const reference_entry* find_entry(const reference_set& set, const observed_run& run, std::string& note) {
    if (const reference_entry* own = entry_at(set, run.key)) return own;
    if (run.short_range_forces || !bitwise_class(run.key.backend_class, run.cuda_fp_profile)) return nullptr;
    reference_key other = run.key;
    other.backend_class = run.key.backend_class == "cpu" ? "gpu" : "cpu";
    const reference_entry* entry = entry_at(set, other);
    if (entry == nullptr) return nullptr;
    const auto profile = entry->attributes.find("cuda_fp_profile");
    const std::string entry_profile = profile == entry->attributes.end() ? "" : profile->second;
    if (!bitwise_class(other.backend_class, entry_profile)) return nullptr;
    note = "no " + run.key.backend_class + " entry: using the " + other.backend_class +
           " entry (CPU and the IEEE CUDA build compute this scenario bit for bit alike)";
    return entry;
}

run_check check_run(const observed_run& run, reference_library& references) {
    run_check out;
    out.run = run.name;
    out.result_file = run.file.string();
    out.reference_file = (references.directory() / run.key.file_name()).string();
    out.provenance = run.provenance;
    const reference_set* set = references.file_for(run.key.scenario);
    const reference_entry* entry = set ? find_entry(*set, run, out.note) : nullptr;
    if (!run.negative_control.empty()) out.note = run.negative_control + (out.note.empty() ? "" : "; " + out.note);
    if (entry == nullptr) {
        check_row missing = row(run, "reference entry", "exact");
        missing.observed = run.key.group_path();
        missing.reference = "(none)";
        missing.tolerance = "-";
        missing.detail = set ? "no entry " + run.key.group_path() + " in " + out.reference_file
                             : "no reference file " + out.reference_file;
        missing.detail += " (record one: stokesian reference record " + run.file.string() + " --reference " +
                          out.reference_file + ")";
        out.rows.push_back(missing);
        return out;
    }
    out.entry = entry->key.group_path();
    for (const char* k : {"recorded_at", "recorded_with", "git_commit", "device_name", "host", "date", "backend"})
        if (const auto it = entry->attributes.find(k); it != entry->attributes.end())
            out.reference_provenance[k] = it->second;
    const auto digest = entry->attributes.find("final_state_digest");
    out.bitwise_identical = digests_comparable(*entry) && digest != entry->attributes.end() &&
                            !run.final_state_digest.empty() && digest->second == run.final_state_digest;
    add_run_rows(run, *entry, out);
    if (!out.checked()) return out;

    const run_context context{loss_time(run.observables), loss_time(entry->observables), run.planned_time()};
    for (const auto& [name, reference] : entry->observables) {
        check_row r = row(run, name, to_string(reference.rule.kind));
        const reference_value* compared_with = &reference;
        if (!reference.rule.against.empty() && reference.rule.against != run.key.precision) {
            reference_key sibling = entry->key;
            sibling.precision = reference.rule.against;
            const reference_value* sibling_value = nullptr;
            if (const reference_entry* other = entry_at(*set, sibling)) {
                const auto it = other->observables.find(name);
                if (it != other->observables.end()) sibling_value = &it->second;
            }
            if (sibling_value == nullptr) {
                r.detail = "no " + reference.rule.against + " reference of " + name + " (" + sibling.group_path() +
                           ") to compare with";
                r.tolerance = "-";
                out.rows.push_back(r);
                continue;
            }
            compared_with = sibling_value;
            r.observable += " vs " + reference.rule.against;
        }
        const auto observed = run.observables.find(name);
        if (observed == run.observables.end()) {
            r.detail = "the result holds no " + name;
            r.reference = reference.value.values.size() == 1 ? format_number(reference.value.values[0]) : "(array)";
            out.rows.push_back(r);
            continue;
        }
        // The rule (kind, tolerance) is always this entry's; the value may be the sibling's.
        reference_value effective = *compared_with;
        effective.rule = reference.rule;
        const comparison_outcome c = compare_value(observed->second, effective, context, nan_meaning_of(name));
        r.passed = c.passed;
        r.skipped = c.skipped;
        r.observed = c.observed;
        r.reference = c.reference;
        r.tolerance = c.tolerance;
        r.detail = c.detail;
        r.ratio = c.ratio;
        out.rows.push_back(r);
    }
    return out;
}

}  // namespace stokesian::regression
