// Reads a result file into an observed_run (observed_run.hpp): key and run facts from
// /parameters, provenance for the reference entries, observables through the catalogue.
#include "stokesian/regression/observed_run.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <toml++/toml.h>

#include "observable_catalogue.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/safe_name.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/toml_parsing.hpp"

namespace stokesian::regression {

namespace {

using attributes = std::map<std::string, std::string>;

std::string get(const attributes& a, const std::string& key) {
    const auto it = a.find(key);
    return it == a.end() ? std::string() : it->second;
}

std::uint64_t unsigned_value(const attributes& a, const std::string& key, const std::string& file) {
    const std::string text = get(a, key);
    const auto value = read_count(text);
    if (!value) throw input_error(file, "/parameters/run " + key, text, "expected an integer");
    return *value;
}

// Lubrication or a pair force: the CPU and CUDA backends then differ by the device's logf/expf
// (engine/README.md), so one class's reference cannot stand in for the other's.
bool has_short_range_forces(const std::string& resolved_configuration) {
    try {
        const toml::table t = parse_toml(resolved_configuration, "resolved_configuration");
        const bool lubrication = t["physics"]["lubrication"]["enabled"].value_or(false);
        const std::string pair_force = t["physics"]["pair_force"]["kind"].value_or(std::string("none"));
        return lubrication || pair_force != "none";
    } catch (const input_error&) {
        return true;  // unknown: assume the classes differ
    }
}

// What a device engine's description says of its device (the CUDA engines': cuda/device_info.cu).
constexpr const char* device_attributes[] = {"device_name",        "compute_capability", "driver_version",
                                             "runtime_version",    "cuda_fp_flags",      "cuda_fp_profile",
                                             "cuda_architectures", "multiprocessors",    "device_code"};

// A result of a backend that computes on a device names the device and the machine code that ran on
// it (CUDA: SASS of an architecture, or PTX JIT), or it is refused: without them a reference entry
// could not say what computed it.
void require_device_attributes(const attributes& engine, const std::string& file) {
    if (!backends::computes_on_device(get(engine, "backend"))) return;
    for (const char* k : {"device_name", "compute_capability", "device_code"})
        if (get(engine, k).empty())
            throw input_error(file, std::string("/parameters/engine ") + k, "",
                              "missing (every result of backend " + get(engine, "backend") + " records it)");
}

// The provenance every reference entry carries (reference_data/README.md, "Provenance").
attributes provenance_of(const attributes& build, const attributes& engine, const attributes& invocation,
                         const attributes& run, const std::string& file) {
    attributes p{{"git_commit", get(build, "version")},
                 {"compiler", get(build, "compiler")},
                 {"host_fp_flags", get(build, "host_fp_flags")},
                 {"build_type", get(build, "build_type")},
                 {"backend", get(engine, "backend")},
                 {"hi_kernel", get(engine, "hi_kernel")},
                 {"threads", get(engine, "threads")},
                 {"date", get(invocation, "date")},
                 {"host", get(invocation, "host")},
                 {"command", get(invocation, "command")},
                 {"working_directory", get(invocation, "working_directory")},
                 {"wall_seconds", get(run, "wall_seconds")},
                 {"final_state_digest", get(run, "final_state_digest")},
                 {"result_file", file}};
    // The algorithm of final_state_digest and scenario_fingerprint (core/digest.hpp).
    p[digest_algorithm_key] = digest_algorithm_tag;
    // Runs of a suite also carry the `stokesian run` command that reproduces them alone, and how
    // they were verified ("verified in K segments", or why they ran continuously).
    for (const char* k : {"equivalent_command", "suite", "verification"})
        if (!get(invocation, k).empty()) p[k] = get(invocation, k);
    // A run that ran batched (stokesian/run/batched_runs.hpp) says with which runs.
    for (const char* k : {"batch_id", "batch_members", "batch_member"})
        if (!get(engine, k).empty()) p[k] = get(engine, k);
    if (backends::computes_on_device(get(engine, "backend"))) {
        for (const char* k : device_attributes) p[k] = get(engine, k);
    } else {
        p["device_name"] = "CPU (host " + get(invocation, "host") + ")";
        p["compute_capability"] = "-";
        p["driver_version"] = "-";
        p["runtime_version"] = "-";
    }
    return p;
}

// The result's digests are of the one algorithm (its /parameters/run tag says so), or it is refused.
void check_digest_tag(const attributes& run, const std::string& file) {
    const auto tag = run.find(digest_algorithm_key);
    const std::string problem =
        digest_tag_problem(tag == run.end() ? std::nullopt : std::optional<std::string>(tag->second));
    if (!problem.empty()) throw input_error(file, "/parameters/run", "", problem);
}

}  // namespace

// What the scenario is, apart from the run settings the key and the length checks cover: the
// resolved [physics], [box], [particles] and [observables] tables as toml++ writes them, hashed
// (core/digest.hpp), every key as it is. Another box, force, tensor, lubrication setting or initial
// configuration gives another fingerprint.
std::string scenario_fingerprint(const std::string& resolved_configuration) {
    std::ostringstream text;
    try {
        const toml::table t = parse_toml(resolved_configuration, "resolved_configuration");
        for (const char* section : {"physics", "box", "particles", "observables"})
            if (const toml::table* part = t[section].as_table()) text << "[" << section << "]\n" << *part << "\n";
    } catch (const input_error&) {
        text << resolved_configuration;
    }
    return text_digest(text.str());
}

observed_run read_observed_run(const std::filesystem::path& result) {
    const std::string name = result.string();
    const io::h5md_file f(result);  // throws input_error for anything that is not an H5MD file
    for (const char* group : {"/parameters/run", "/parameters/scenario", "/parameters/engine"})
        if (!f.is_group(group))
            throw input_error(name, "", "", std::string("not a stokesian result (no ") + group + ")");
    const attributes run = f.parameter_attributes("/parameters/run");
    const attributes scenario = f.parameter_attributes("/parameters/scenario");
    const attributes engine = f.parameter_attributes("/parameters/engine");
    const attributes build =
        f.is_group("/parameters/build") ? f.parameter_attributes("/parameters/build") : attributes{};
    const attributes invocation =
        f.is_group("/parameters/invocation") ? f.parameter_attributes("/parameters/invocation") : attributes{};

    observed_run r;
    r.file = result;
    r.name = result.stem().string();
    r.key.scenario = get(scenario, "name");
    r.key.case_name = get(scenario, "case");
    r.key.precision = get(run, "precision");
    r.key.integrator = get(run, "integrator");
    r.key.dt = read_number(get(run, "dt")).value_or(0.0);  // not a number: refused just below
    if (r.key.scenario.empty() || r.key.precision.empty() || r.key.integrator.empty() || !(r.key.dt > 0.0))
        throw input_error(name, "", "", "not a stokesian result (scenario name, precision, integrator or dt missing)");
    // Both name reference files and their groups (stokesian/core/safe_name.hpp).
    require_safe_name(r.key.scenario, name, "/parameters/scenario name");
    if (!r.key.case_name.empty()) require_safe_name(r.key.case_name, name, "/parameters/scenario case");
    try {
        r.key.backend_class = backend_class_of(get(engine, "backend"));
    } catch (const std::invalid_argument& e) {
        throw input_error(name, "/parameters/engine backend", get(engine, "backend"), e.what());
    }
    r.planned_steps = unsigned_value(run, "planned_steps", name);
    r.steps = unsigned_value(run, "steps", name);
    r.sample_interval_steps = unsigned_value(run, "sample_interval_steps", name);
    r.status = get(run, "status");
    check_digest_tag(run, name);
    r.final_state_digest = get(run, "final_state_digest");
    r.cuda_fp_profile = get(engine, "cuda_fp_profile");
    r.short_range_forces = has_short_range_forces(get(scenario, "resolved_configuration"));
    require_device_attributes(engine, name);
    r.provenance = provenance_of(build, engine, invocation, run, result.filename().string());
    r.scenario_fingerprint = scenario_fingerprint(get(scenario, "resolved_configuration"));
    r.provenance["scenario_fingerprint"] = r.scenario_fingerprint;
    r.provenance["scenario_source_path"] = get(scenario, "source_path");
    if (f.is_group("/parameters/negative_control")) {
        const attributes control = f.parameter_attributes("/parameters/negative_control");
        r.negative_control = "NEGATIVE CONTROL: " + get(control, "description");
        r.relabelled = !get(control, "labelled_as").empty();
        if (r.relabelled)
            r.negative_control +=
                " (ran " + get(control, "precision_that_ran") + ", labelled " + get(control, "labelled_as") + ")";
    }

    for (const catalogue_entry& entry : observable_catalogue()) {
        observed_value value;
        if (entry.extract(f, value)) r.observables.emplace(entry.name, std::move(value));
    }
    r.boundaries = read_boundary_states(f, result.string());
    return r;
}

}  // namespace stokesian::regression
