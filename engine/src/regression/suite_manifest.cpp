// The suite manifest loader (suite_manifest.hpp). Defaults come from an optional [defaults]
// table, each [[run]] overrides them; every key is checked.
#include "stokesian/regression/suite_manifest.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "settings/text_input.hpp"
#include "settings/toml_parsing.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/safe_name.hpp"

namespace stokesian::regression {

namespace {

const std::set<std::string> run_keys{"name",
                                     "scenario",
                                     "case",
                                     "precision",
                                     "dt",
                                     "time",
                                     "sample_every",
                                     "integrator",
                                     "backend",
                                     "cpu_hi_kernel",
                                     "cuda_hi_kernel",
                                     "threads",
                                     "write_trajectory",
                                     "scalable",
                                     "relabel_precision",
                                     "negative_control"};

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

    std::string text(const std::string& key, bool required, const std::string& fallback = {}) const {
        const toml::node* n = find(key);
        if (n == nullptr) {
            if (required) fail(key, "missing (required)");
            return fallback;
        }
        if (!n->is_string()) fail(key, "expected a string");
        return n->as_string()->get();
    }

    double positive(const std::string& key, bool required, double fallback = 0.0) const {
        const toml::node* n = find(key);
        if (n == nullptr) {
            if (required) fail(key, "missing (required)");
            return fallback;
        }
        const std::optional<double> x = n->value<double>();
        if (!x || !std::isfinite(*x) || *x <= 0.0) fail(key, "expected a number > 0");
        return *x;
    }

    bool flag(const std::string& key, bool fallback) const {
        const toml::node* n = find(key);
        if (n == nullptr) return fallback;
        if (!n->is_boolean()) fail(key, "expected true or false");
        return n->as_boolean()->get();
    }

    unsigned count(const std::string& key) const {
        const toml::node* n = find(key);
        if (n == nullptr) return 0;
        const std::optional<std::int64_t> x = n->value<std::int64_t>();
        if (!n->is_integer() || !x || *x < 0 || *x > 4096) fail(key, "expected an integer 0..4096");
        return static_cast<unsigned>(*x);
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
    for (const auto& [key, value] : table)
        if (!run_keys.contains(std::string(key.str())))
            throw input_error(origin.string(), where + "." + std::string(key.str()), "",
                              "unknown key (a run accepts " + list_of(run_keys) + ")");
    const layered in(&table, defaults, origin.string(), where);
    suite_run_spec r;
    r.name = in.text("name", true);
    // The name becomes the run's output file name <name>.h5 (stokesian/core/safe_name.hpp).
    if (const std::string why = unsafe_name_reason(r.name); !why.empty())
        in.fail("name", quoted_printable(r.name) + " is not a safe file name: " + why);
    const std::string scenario = in.text("scenario", true);
    r.scenario = std::filesystem::path(scenario).is_absolute() ? std::filesystem::path(scenario)
                                                               : origin.parent_path() / scenario;
    r.case_name = in.text("case", false);
    r.precision = in.text("precision", true);
    try {
        r.precision = to_string(parse_precision_mode(r.precision));
    } catch (const std::invalid_argument& e) {
        in.fail("precision", e.what());
    }
    r.dt = in.positive("dt", true);
    r.time = in.positive("time", true);
    r.sample_every = in.positive("sample_every", false, 1.0);
    if (!multiple_of(r.time, r.dt)) in.fail("time", "expected an integer multiple of dt");
    if (!multiple_of(r.sample_every, r.dt)) in.fail("sample_every", "expected an integer multiple of dt");
    r.integrator = in.text("integrator", false, "euler");
    r.backend = in.text("backend", false);
    if (!r.backend.empty() && r.backend != "cpu" && r.backend != "cuda" && r.backend != "auto")
        in.fail("backend", "expected \"cpu\", \"cuda\" or \"auto\"");
    r.cpu_hi_kernel = in.text("cpu_hi_kernel", false);
    r.cuda_hi_kernel = in.text("cuda_hi_kernel", false);
    r.threads = in.count("threads");
    r.write_trajectory = in.flag("write_trajectory", false);
    r.scalable = in.flag("scalable", true);
    r.negative_control = in.text("negative_control", false);
    r.relabel_precision = in.text("relabel_precision", false);
    if (!r.relabel_precision.empty()) {
        try {
            r.relabel_precision = to_string(parse_precision_mode(r.relabel_precision));
        } catch (const std::invalid_argument& e) {
            in.fail("relabel_precision", e.what());
        }
    }
    if (!r.relabel_precision.empty() && r.negative_control.empty())
        in.fail("negative_control", "required with relabel_precision (say what it simulates)");
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
            if (key.str() != "name" && key.str() != "description")
                throw input_error(origin.string(), "suite." + std::string(key.str()), "",
                                  "unknown key (name, description)");
        m.name = (*suite)["name"].value_or(std::string());
        m.description = (*suite)["description"].value_or(std::string());
    }
    if (m.name.empty()) m.name = origin.stem().string();
    const toml::table* defaults = root["defaults"].as_table();
    if (defaults != nullptr)
        for (const auto& [key, value] : *defaults)
            if (!run_keys.contains(std::string(key.str())) || key.str() == "name")
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
