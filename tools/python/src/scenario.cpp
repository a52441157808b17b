// Scenarios from Python: load (the settings layer's reader, its one-line errors), override [run]
// keys (the field table's rules, as the CLI's options), run (run_scenario, as `stokesian run`).
// stokesian.Scenario (tools/python/stokesian/scenario.py) is the user-facing class.
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/integrator.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/run_overrides.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace nb = nanobind;

namespace stokesian::python {

namespace {

// The [run] keys a scenario's run may be given from Python: those with a command-line option in
// the field table, and the four the CLI sets through its shared option families.
constexpr std::string_view text_keys[] = {"precision", "backend", "hi_kernel", "devices"};

settings::run_override override_of(const std::string& key, const nb::handle& value) {
    using kind = settings::run_option::kind;
    std::optional<kind> type;
    std::string_view stored_key;
    for (const std::string_view k : text_keys)
        if (k == key) type = kind::text, stored_key = k;
    const std::vector<settings::run_option> options = settings::run_options();
    for (const settings::run_option& o : options)
        if (o.key == key) type = o.type, stored_key = o.key;
    if (!type) {
        std::string keys;
        for (const std::string_view k : text_keys) keys += std::string(keys.empty() ? "" : ", ") + std::string(k);
        for (const settings::run_option& o : options) keys += ", " + std::string(o.key);
        throw std::invalid_argument("run key '" + key + "' cannot be overridden (accepted: " + keys + ")");
    }
    const auto expected = [&](const char* what) {
        return std::invalid_argument("run key '" + key + "' = " + nb::repr(value).c_str() + ": expected " + what);
    };
    switch (*type) {
        case kind::number:
            if (nb::isinstance<nb::bool_>(value) ||
                !(nb::isinstance<nb::float_>(value) || nb::isinstance<nb::int_>(value)))
                throw expected("a number");
            return {stored_key, nb::cast<double>(value)};
        case kind::step_count: {
            std::uint64_t steps = 0;
            if (nb::isinstance<nb::bool_>(value) || !nb::try_cast(value, steps, false))
                throw expected("a whole number >= 0");
            return {stored_key, steps};
        }
        case kind::flag:
            if (!nb::isinstance<nb::bool_>(value)) throw expected("True or False");
            return {stored_key, nb::cast<bool>(value)};
        case kind::text:
            if (!nb::isinstance<nb::str>(value)) throw expected("a string");
            return {stored_key, nb::cast<std::string>(value)};
    }
    throw expected("a value of the key's type");
}

nb::dict run_settings_of(const run_settings& r) {
    nb::dict d;
    d["dt"] = r.dt;
    d["time"] = r.time ? nb::cast(*r.time) : nb::none();
    d["steps"] = r.steps ? nb::cast(*r.steps) : nb::none();
    d["total_steps"] = r.total_steps();
    d["sample_every"] = r.sample_every;
    d["backend"] = r.backend;
    d["hi_kernel"] = r.hi_kernel;
    d["precision"] = to_string(r.precision);
    d["integrator"] = std::string(to_string(r.integrator));
    d["write_trajectory"] = r.write_trajectory;
    d["checkpoint_every"] = r.checkpoint_every ? nb::cast(*r.checkpoint_every) : nb::none();
    d["min_separation"] = r.min_separation;
    d["devices"] = to_string(r.devices);
    return d;
}

nb::dict run_result_of(const run_result& r) {
    nb::dict d;
    d["output"] = r.output.string();
    d["status"] = r.status;
    d["failed"] = r.failed;
    d["resumable"] = r.resumable;
    d["signal"] = r.signal;
    d["checkpoint"] = r.checkpoint.string();
    d["steps"] = r.steps;
    d["simulated_time"] = r.simulated_time;
    d["wall_seconds"] = r.wall_seconds;
    d["summary"] = r.summary;
    d["engine"] = r.engine;
    d["final_state_digest"] = r.final_state_digest;
    return d;
}

// The run of `s` into `output`. Ctrl-C (SIGINT, which Python turns into a pending KeyboardInterrupt)
// is looked for a few times a second: it stops the run after the current step with a checkpoint,
// as it stops `stokesian run` (status "interrupted by signal 2 ...", resumable).
run_result run(const scenario& s, const std::string& output, bool force, bool resume, unsigned threads,
               std::optional<std::uint64_t> stop_after_step, const std::vector<std::string>& command) {
    run_request req;
    req.scenario_ = s;
    req.output.path = output;
    req.output.force = force;
    req.resume = resume;
    req.threads = threads;
    req.stop_after_step = stop_after_step;
    std::vector<char*> argv;
    argv.reserve(command.size());
    for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    req.invocation = io::run_provenance(static_cast<int>(argv.size()), argv.data());
    std::atomic<int> stop{0};
    req.stop_signal = &stop;
    req.on_progress = [&stop](const run_progress&) {
        nb::gil_scoped_acquire locked;
        if (PyErr_CheckSignals() != 0) {
            PyErr_Clear();
            stop.store(SIGINT);
        }
    };
    nb::gil_scoped_release unlocked;
    return run_scenario(req);
}

}  // namespace

void bind_scenario(nb::module_& m) {
    nb::class_<scenario>(m, "ScenarioData", "A loaded scenario (stokesian.Scenario wraps it)")
        .def_ro("name", &scenario::name)
        .def_ro("description", &scenario::description)
        .def_ro("case_name", &scenario::case_name)
        .def_prop_ro("source_path", [](const scenario& s) { return s.source_path.string(); })
        .def("positions", [](const scenario& s) { return vectors_out(s.particles.positions); })
        .def("forces", [](const scenario& s) { return vectors_out(s.particles.external_forces); })
        .def("run_settings", [](const scenario& s) { return run_settings_of(s.run); })
        .def(
            "configuration", [](const scenario& s) { return resolved_configuration(s); },
            "the full resolved configuration as TOML text (what a run stores)")
        .def(
            "override",
            [](scenario& s, const std::vector<std::pair<std::string, nb::object>>& values) {
                std::vector<settings::run_override> overrides;
                overrides.reserve(values.size());
                for (const auto& [key, value] : values) overrides.push_back(override_of(key, value));
                run_settings changed = s.run;
                settings::apply_run_overrides(changed, overrides);
                s.run = changed;
            },
            nb::arg("values"), "sets [run] keys as the CLI's options do; all or none")
        .def(
            "run",
            [](const scenario& s, const std::string& output, bool force, bool resume, unsigned threads,
               std::optional<std::uint64_t> stop_after_step, const std::vector<std::string>& command) {
                return run_result_of(run(s, output, force, resume, threads, stop_after_step, command));
            },
            nb::arg("output"), nb::arg("force"), nb::arg("resume"), nb::arg("threads"),
            nb::arg("stop_after_step").none(), nb::arg("command"));
    m.def(
        "load_scenario",
        [](const std::string& path, const std::string& case_name) { return load_scenario(path, case_name); },
        nb::arg("path"), nb::arg("case_name") = "");
    m.def(
        "parse_scenario",
        [](const std::string& text, const std::string& origin, const std::string& case_name) {
            return parse_scenario(text, origin, case_name);
        },
        nb::arg("text"), nb::arg("origin"), nb::arg("case_name") = "");
}

}  // namespace stokesian::python
