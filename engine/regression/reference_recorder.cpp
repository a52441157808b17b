// Records results into a reference file (reference_recorder.hpp).
#include "stokesian/regression/reference_recorder.hpp"

#include <cmath>
#include <ctime>
#include <set>

#include "observable_catalogue.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"
#include "stokesian/io/file_lock.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/run/segments.hpp"

namespace stokesian::regression {

namespace {

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char text[32];
    const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return std::string(text, n);
}

std::string meaning_of(const std::string& name) {
    for (const catalogue_entry& e : observable_catalogue())
        if (e.name == name) return e.meaning;
    return {};
}

reference_entry make_entry(const observed_run& run, const record_request& request, recorded_entry& report) {
    reference_entry e;
    e.key = run.key;
    e.planned_steps = run.planned_steps;
    e.sample_interval_steps = run.sample_interval_steps;
    e.attributes = run.provenance;
    e.attributes["planned_time"] = std::to_string(run.planned_time());
    e.attributes["status"] = run.status;
    e.attributes["recorded_at"] = utc_now();
    e.attributes["recorded_with"] = git_describe();
    e.attributes["record_command"] = request.command;
    e.attributes["rules_file"] = request.rules.source.string();
    // The states the run passed at its segment boundaries, where it kept them (run/segments.hpp).
    e.boundaries = run.boundaries;
    if (!e.boundaries.empty())
        report.notes.push_back("stored the states at " + std::to_string(e.boundaries.steps.size()) +
                               " segment boundaries (verifies in " + std::to_string(e.boundaries.steps.size()) +
                               " segments)");
    for (const auto& [name, value] : run.observables) {
        const check_rule* rule = request.rules.find(run.key, name);
        if (rule == nullptr) continue;
        reference_value v{value, *rule, meaning_of(name)};
        if (rule->kind == tolerance_kind::expected_failure_window && value.values.size() == 1 &&
            std::isnan(value.values[0])) {
            if (run.planned_time() >= rule->window.at(1))
                throw input_error(run.file.string(), "", "",
                                  name + ": rule " + rule->id + " expects the known failure between " +
                                      std::to_string(rule->window[0]) + " and " + std::to_string(rule->window[1]) +
                                      " tau_s, this run has none: not recorded (is the rule or the run wrong?)");
            report.notes.push_back(name + ": the known failure (rule " + rule->id + ") lies beyond this run's end");
        }
        e.observables.emplace(name, std::move(v));
    }
    if (e.observables.empty())
        throw input_error(run.file.string(), "", "",
                          "no rule in " + request.rules.source.string() + " covers any observable of this run (" +
                              run.key.group_path() + ")");
    return e;
}

}  // namespace

std::vector<recorded_entry> record_references(const record_request& request) {
    // Read, change and replace under the file's lock: another record in between would be lost.
    const io::file_lock lock =
        io::wait_for_lock(request.reference_file, request.lock_patience, "recording references into this file");
    reference_set set;
    std::error_code error;
    if (std::filesystem::exists(request.reference_file, error)) set = read_reference_file(request.reference_file);

    std::vector<recorded_entry> report;
    std::set<std::string> keys_in_request;
    std::vector<std::string> existing;
    for (const observed_run& run : request.runs) {
        if (set.scenario.empty()) set.scenario = run.key.scenario;
        if (run.key.scenario != set.scenario)
            throw input_error(run.file.string(), "", "",
                              "a result of scenario '" + run.key.scenario + "' cannot go into " +
                                  request.reference_file.string() + " (scenario '" + set.scenario + "')");
        if (!request.negative_controls && !run.negative_control.empty())
            throw input_error(run.file.string(), "", "",
                              "a negative control is never a reference (" + run.negative_control + ")");
        if (request.negative_controls && run.negative_control.empty())
            throw input_error(run.file.string(), "", "",
                              "not a negative control: --negative-control records only negative controls");
        if (request.negative_controls && run.relabelled)
            throw input_error(run.file.string(), "", "",
                              "a relabelled negative control computes another mode, whose reference holds its "
                              "boundaries: not recorded");
        if (run.status != "completed" || run.steps != run.planned_steps)
            throw input_error(run.file.string(), "", "",
                              "the run did not complete (" + echoed(run.status) + "): not recorded");
        const std::string path = run.key.group_path();
        if (!keys_in_request.insert(path).second)
            throw input_error(run.file.string(), "", "", "another result given has the same key " + path);
        recorded_entry r;
        r.run = run.name;
        r.entry = path;
        reference_entry entry = make_entry(run, request, r);
        const auto old = set.entries.find(path);
        if (old != set.entries.end()) {
            if (!request.force) existing.push_back(path + " (from " + run.file.string() + ")");
            r.replaced = true;
        }
        for (const auto& [name, value] : entry.observables) {
            recorded_observable o{name, std::nullopt, value};
            if (old != set.entries.end()) {
                const auto previous = old->second.observables.find(name);
                if (previous != old->second.observables.end()) o.old_value = previous->second;
            }
            r.observables.push_back(std::move(o));
        }
        set.entries[path] = std::move(entry);
        report.push_back(std::move(r));
    }
    if (!existing.empty()) {
        std::string list;
        for (const std::string& e : existing) list += (list.empty() ? "" : ", ") + e;
        throw entry_exists_error(request.reference_file.string() +
                                 ": entries exist, not replaced without --force: " + list);
    }
    write_reference_file(request.reference_file, set);
    return report;
}

}  // namespace stokesian::regression
