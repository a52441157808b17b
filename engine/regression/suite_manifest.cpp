// The suite manifest loader (suite_manifest.hpp). Defaults come from an optional [defaults]
// table, each [[run]] overrides them; every key is checked.
#include "stokesian/regression/suite_manifest.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include <toml++/toml.h>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/safe_name.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/settings/field_table.hpp"
#include "stokesian/settings/text_input.hpp"
#include "stokesian/settings/toml_parsing.hpp"

namespace stokesian::regression {

namespace {

// A run's backend: empty (the suite's), a registered backend or "auto" (stokesian/backends/registry.hpp).
void set_backend(suite_run_spec& r, const std::string& text) {
    const backends::registry& registry = backends::backend_registry();
    if (!text.empty() && !registry.accepts(text)) {
        const std::vector<std::string> choices = registry.choices();
        std::string expected = "expected";
        for (std::size_t k = 0; k < choices.size(); ++k)
            expected += std::string(k == 0 ? " " : k + 1 < choices.size() ? ", " : " or ") + "\"" + choices[k] + "\"";
        throw std::invalid_argument(expected);
    }
    r.backend = text;
}

// Precision modes in their canonical spelling ("hi=X,int=Y"); relabel_precision may be empty (not set).
void set_precision(suite_run_spec& r, const std::string& text) { r.precision = to_string(parse_precision_mode(text)); }
void set_relabel_precision(suite_run_spec& r, const std::string& text) {
    r.relabel_precision = text.empty() ? text : to_string(parse_precision_mode(text));
}

// The keys of a [[run]] (and of [defaults], but for the name), read through the field-table
// mechanism of the scenario format (stokesian/settings/field_table.hpp).
const settings::field<suite_run_spec> run_fields[] = {
    {.key = "name",
     .member = &suite_run_spec::name,
     .doc = {"string", "required", "the output file <name>.h5; a safe file name, unique"},
     .missing = "required"},
    {.key = "scenario",
     .member =
         settings::text_member<suite_run_spec>{[](const suite_run_spec& r) { return r.scenario.string(); },
                                               [](suite_run_spec& r, const std::string& text) { r.scenario = text; }},
     .doc = {"string", "required", "the scenario file, relative to the manifest's directory"},
     .missing = "required"},
    {.key = "case", .member = &suite_run_spec::case_name, .doc = {"string", "`\"\"`", "the scenario's case"}},
    {.key = "precision",
     .member =
         settings::text_member<suite_run_spec>{[](const suite_run_spec& r) { return r.precision; }, set_precision},
     .doc = {"string", "required", "hi=X,int=Y"},
     .missing = "required"},
    {.key = "dt",
     .member = &suite_run_spec::dt,
     .rule = {.sign = settings::sign_rule::positive},
     .doc = {"number", "required", "> 0; tau_s"},
     .missing = "required"},
    {.key = "time",
     .member = &suite_run_spec::time,
     .rule = {.sign = settings::sign_rule::positive},
     .doc = {"number", "required", "> 0; the run length in tau_s, a multiple of dt"},
     .missing = "required"},
    {.key = "sample_every",
     .member = &suite_run_spec::sample_every,
     .rule = {.sign = settings::sign_rule::positive},
     .doc = {"number", "1", "> 0; tau_s, a multiple of dt"}},
    {.key = "integrator", .member = &suite_run_spec::integrator, .doc = {"string", "`\"euler\"`", ""}},
    {.key = "backend",
     .member = settings::text_member<suite_run_spec>{[](const suite_run_spec& r) { return r.backend; }, set_backend},
     .doc = {"string", "the suite's", "a registered backend (`\"cpu\"`, `\"cuda\"`, ...) or `\"auto\"`"}},
    {.key = "threads",
     .member = &suite_run_spec::threads,
     .rule = {.min = 0, .max = max_cpu_threads},
     .doc = {"integer", "0", "CPU threads (0: cores / concurrent runs)"}},
    {.key = "write_trajectory", .member = &suite_run_spec::write_trajectory, .doc = {"boolean", "`false`", ""}},
    {.key = "scalable",
     .member = &suite_run_spec::scalable,
     .doc = {"boolean", "`true`", "--scale shortens it (false: already short, keep its length)"}},
    {.key = "negative_control",
     .member = &suite_run_spec::negative_control,
     .doc = {"string", "", "what the perturbation is; required with relabel_precision"}},
    {.key = "relabel_precision",
     .member = settings::text_member<suite_run_spec>{[](const suite_run_spec& r) { return r.relabel_precision; },
                                                     set_relabel_precision},
     .doc = {"string", "", "negative controls: label the result as this precision mode"}},
    {.key = "segment_references",
     .member = settings::text_member<suite_run_spec>{
         [](const suite_run_spec& r) { return r.segment_references.string(); },
         [](suite_run_spec& r, const std::string& text) { r.segment_references = text; }},
     .doc = {"string", "`--reference-dir`",
             "negative controls: the folder (relative to the manifest) whose entry of the perturbed run "
             "stores its segment boundaries"}},
};

// The key naming the HI kernel of a backend's runs: cpu_hi_kernel, cuda_hi_kernel, ... (string,
// default "auto"), one per registered backend.
std::string hi_kernel_key(const std::string& backend) { return backend + "_hi_kernel"; }

// The keys a run accepts: its fields and the HI kernel key of every registered backend.
std::set<std::string> run_keys() {
    std::set<std::string> keys;
    for (const auto& f : run_fields) keys.emplace(f.key);
    for (const backends::backend& b : backends::backend_registry().all()) keys.emplace(hi_kernel_key(b.name));
    return keys;
}

std::string list_of(const std::set<std::string>& keys) {
    std::string out;
    for (const std::string& k : keys) out += (out.empty() ? "" : ", ") + k;
    return out;
}

// A value looked up in the run's table first, then in [defaults].
class layered {
public:
    layered(const toml::table* run, const toml::table* defaults, std::string origin, std::string where)
        : run_(run), defaults_(defaults), origin_(std::move(origin)), where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
        throw input_error(origin_, where_ + "." + key, "", expected);
    }

    const toml::node* find(const std::string& key) const {
        if (const toml::node* n = run_->get(key)) return n;
        return defaults_ ? defaults_->get(key) : nullptr;
    }

    // The HI kernel keys (hi_kernel_key): the run's value, else the default's; none, auto.
    void read_hi_kernels(suite_run_spec& r) const {
        for (const backends::backend& b : backends::backend_registry().all()) {
            const std::string key = hi_kernel_key(b.name);
            if (const toml::node* n = find(key)) {
                if (!n->is_string()) fail(key, "expected a string");
                r.hi_kernels[b.name] = n->as_string()->get();
            }
        }
    }

    // One key of the run through its field: the run's value, else the default's, else the
    // struct's default; the checks and messages of the manifest format.
    void read(const settings::field<suite_run_spec>& f, suite_run_spec& r) const {
        const std::string key(f.key);
        const toml::node* n = find(key);
        if (n == nullptr) {
            if (!f.missing.empty()) fail(key, "missing (required)");
            return;
        }
        std::visit(
            [&](auto member) {
                using M = decltype(member);
                using S = suite_run_spec;
                if constexpr (std::is_same_v<M, std::string S::*> || std::is_same_v<M, settings::text_member<S>>) {
                    if (!n->is_string()) fail(key, "expected a string");
                    const std::string text = n->as_string()->get();
                    const auto& choices = f.rule.choices;
                    if (!text.empty() && !choices.empty() &&
                        std::find(choices.begin(), choices.end(), text) == choices.end())
                        fail(key, std::string(f.rule.what));
                    if constexpr (std::is_same_v<M, std::string S::*>) {
                        r.*member = text;
                    } else {
                        try {
                            member.set(r, text);
                        } catch (const std::invalid_argument& e) {
                            fail(key, e.what());
                        }
                    }
                } else if constexpr (std::is_same_v<M, double S::*>) {
                    const std::optional<double> x = n->value<double>();
                    if (!x || !std::isfinite(*x) || *x <= 0.0) fail(key, "expected a number > 0");
                    r.*member = *x;
                } else if constexpr (std::is_same_v<M, bool S::*>) {
                    if (!n->is_boolean()) fail(key, "expected true or false");
                    r.*member = n->as_boolean()->get();
                } else if constexpr (std::is_same_v<M, std::uint32_t S::*>) {
                    const std::optional<std::int64_t> x = n->value<std::int64_t>();
                    if (!n->is_integer() || !x || *x < f.rule.min || *x > f.rule.max)
                        fail(key,
                             "expected an integer " + std::to_string(f.rule.min) + ".." + std::to_string(f.rule.max));
                    r.*member = static_cast<std::uint32_t>(*x);
                }
            },
            f.member);
    }

private:
    const toml::table* run_;
    const toml::table* defaults_;
    std::string origin_, where_;
};

// dt, time and sample_every as the scenario loader demands: multiples of dt to 1e-9 relative.
bool multiple_of(double value, double dt) {
    const double k = std::round(value / dt);
    return k >= 1.0 && std::fabs(value - k * dt) <= 1e-9 * value;
}

suite_run_spec read_run(const toml::table& table, const toml::table* defaults, const std::filesystem::path& origin,
                        std::size_t index) {
    const std::string where = "run[" + std::to_string(index) + "]";
    const std::set<std::string> accepted = run_keys();
    for (const auto& [key, value] : table)
        if (!accepted.contains(std::string(key.str())))
            throw input_error(origin.string(), where + "." + std::string(key.str()), "",
                              "unknown key (a run accepts " + list_of(accepted) + ")");
    const layered in(&table, defaults, origin.string(), where);
    suite_run_spec r;
    for (const auto& f : run_fields) {
        in.read(f, r);
        if (f.key == "name") {
            // The name becomes the run's output file name <name>.h5 (stokesian/core/safe_name.hpp).
            if (const std::string why = unsafe_name_reason(r.name); !why.empty())
                in.fail("name", quoted_printable(r.name) + " is not a safe file name: " + why);
        } else if (f.key == "scenario") {
            if (!r.scenario.is_absolute()) r.scenario = origin.parent_path() / r.scenario;
        } else if (f.key == "segment_references") {
            if (!r.segment_references.empty() && !r.segment_references.is_absolute())
                r.segment_references = origin.parent_path() / r.segment_references;
        } else if (f.key == "sample_every") {
            // dt, time and sample_every as the scenario loader demands.
            if (!multiple_of(r.time, r.dt)) in.fail("time", "expected an integer multiple of dt");
            if (!multiple_of(r.sample_every, r.dt)) in.fail("sample_every", "expected an integer multiple of dt");
        }
    }
    in.read_hi_kernels(r);
    if (!r.relabel_precision.empty() && r.negative_control.empty())
        in.fail("negative_control", "required with relabel_precision (say what it simulates)");
    if (!r.segment_references.empty() && (r.negative_control.empty() || !r.relabel_precision.empty()))
        in.fail("segment_references", "only for a negative control that is not relabelled (its own boundaries)");
    return r;
}

}  // namespace

double scaled_time(const suite_run_spec& run, double scale) {
    if (!run.scalable || scale == 1.0) return run.time;
    const double samples = std::max(1.0, std::round(run.time * scale / run.sample_every));
    return samples * run.sample_every;
}

suite_manifest parse_suite_manifest(const std::string& text, const std::filesystem::path& origin) {
    const toml::table root = parse_toml(text, origin.string());
    for (const auto& [key, value] : root)
        if (key.str() != "suite" && key.str() != "defaults" && key.str() != "run")
            throw input_error(origin.string(), std::string(key.str()), "",
                              "unknown table (expected [suite], [defaults], [[run]])");
    suite_manifest m;
    m.source = origin;
    if (const toml::table* suite = root["suite"].as_table()) {
        for (const auto& [key, value] : *suite)
            if (key.str() != "name" && key.str() != "description" && key.str() != "batch")
                throw input_error(origin.string(), "suite." + std::string(key.str()), "",
                                  "unknown key (name, description, batch)");
        m.name = (*suite)["name"].value_or(std::string());
        m.description = (*suite)["description"].value_or(std::string());
        // Whether runs share batches (suite_runner.hpp, batch_mode); --batch overrides it.
        if (const auto batch = (*suite)["batch"]; batch) {
            const std::optional<std::string> mode = batch.value<std::string>();
            if (!mode || (*mode != "off" && *mode != "auto" && *mode != "on"))
                throw input_error(origin.string(), "suite.batch", mode.value_or(""),
                                  "expected \"off\", \"auto\" or \"on\"");
            m.batch = *mode;
        }
    }
    if (m.name.empty()) m.name = origin.stem().string();
    const toml::table* defaults = root["defaults"].as_table();
    if (defaults != nullptr)
        for (const auto& [key, value] : *defaults)
            if (!run_keys().contains(std::string(key.str())) || key.str() == "name")
                throw input_error(origin.string(), "defaults." + std::string(key.str()), "", "unknown key");
    const toml::array* runs = root["run"].as_array();
    if (runs == nullptr || runs->empty()) throw input_error(origin.string(), "run", "", "no [[run]] tables");
    std::set<std::string> names;
    for (std::size_t k = 0; k < runs->size(); ++k) {
        const toml::table* table = runs->get(k)->as_table();
        if (table == nullptr)
            throw input_error(origin.string(), "run[" + std::to_string(k) + "]", "", "expected a table");
        suite_run_spec r = read_run(*table, defaults, origin, k);
        if (!names.insert(r.name).second)
            throw input_error(origin.string(), "run[" + std::to_string(k) + "].name", r.name, "duplicate run name");
        m.runs.push_back(std::move(r));
    }
    return m;
}

suite_manifest load_suite_manifest(const std::filesystem::path& path) {
    return parse_suite_manifest(read_text_input(path, "the suite manifest"), path);
}

}  // namespace stokesian::regression
