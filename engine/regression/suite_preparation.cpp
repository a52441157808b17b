// Prepares a suite's runs (suite_runner.hpp): each scenario loaded and given the suite's settings,
// the backend and its HI kernel resolved, outputs checked, before the first run starts, so that a
// typo in run 12 does not surface an hour into the suite.
#include <fnmatch.h>

#include <algorithm>
#include <set>
#include <thread>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "stokesian/run/run_output_claim.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian::regression {

bool device_backend_available() {
    const auto& all = backends::backend_registry().all();
    return std::any_of(all.begin(), all.end(), [](const backends::backend& b) {
        return b.can.devices > 0 && backends::check_availability(b).available;
    });
}

namespace {

// "auto" is what the registry picks for any configuration (a suite fixes the HI kernel per backend).
std::string resolve_backend(const suite_run_spec& spec, const suite_options& options, const std::string& automatic) {
    std::string backend = !options.backend.empty() ? options.backend : !spec.backend.empty() ? spec.backend : "auto";
    if (backend == "auto") backend = automatic;
    return backend;
}

// The manifest's HI kernel for the backend (its key <backend>_hi_kernel); none, auto.
std::string hi_kernel_for(const suite_run_spec& spec, const std::string& backend) {
    const auto named = spec.hi_kernels.find(backend);
    return named != spec.hi_kernels.end() ? named->second : std::string(backends::automatic_hi_kernel);
}

// Whether the backend computes on a device (it is then not given CPU threads).
bool on_device(const std::string& backend) { return backends::computes_on_device(backend); }

bool selected(const std::string& name, const std::vector<std::string>& only) {
    return only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& pattern) {
               return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
           });
}

std::string number(double x) { return dt_text(x); }  // shortest round-trip decimal

std::string equivalent_command(const prepared_run& p) {
    const scenario& s = p.scenario_;
    std::string c = "stokesian run " + p.spec.scenario.string();
    if (!p.spec.case_name.empty()) c += " --case " + p.spec.case_name;
    c += " --precision " + to_string(s.run.precision) + " --dt " + number(s.run.dt) + " --time " + number(*s.run.time) +
         " --sample-every " + number(s.run.sample_every) + " --integrator " + std::string(to_string(s.run.integrator)) +
         " --backend " + s.run.backend;
    if (!s.run.hi_kernel.empty()) c += " --hi-kernel " + s.run.hi_kernel;
    if (s.run.devices.given()) c += " --devices " + to_string(s.run.devices);
    if (!on_device(s.run.backend)) c += " --threads " + std::to_string(p.threads);
    if (!s.run.write_trajectory) c += " --no-trajectory";
    return c + " -o " + p.output.string();
}

}  // namespace

unsigned concurrent_runs(const std::vector<prepared_run>& runs, unsigned requested) {
    const bool any_cuda =
        std::any_of(runs.begin(), runs.end(), [](const prepared_run& p) { return on_device(p.scenario_.run.backend); });
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = requested > 0 ? requested : any_cuda ? unsigned(runs.size()) : cores;
    return std::max(1u, std::min(jobs, unsigned(runs.size())));
}

namespace {

// The selected runs of one manifest, loaded and checked, appended to `out`.
void prepare_manifest(const suite_manifest& manifest, const std::filesystem::path& output_dir,
                      const suite_options& options, const std::string& automatic, std::vector<prepared_run>& out) {
    const backends::registry& registry = backends::backend_registry();
    for (const suite_run_spec& spec : manifest.runs) {
        if (!selected(spec.name, options.only)) continue;
        const std::string origin = manifest.source.string() + " (run '" + spec.name + "')";
        prepared_run p;
        p.spec = spec;
        p.scenario_ = load_scenario(spec.scenario, spec.case_name);
        run_settings& run = p.scenario_.run;
        try {
            run.precision = parse_precision_mode(spec.precision);
            run.integrator = parse_integrator(spec.integrator);
        } catch (const std::invalid_argument& e) {
            throw input_error(origin, "precision/integrator", "", e.what());
        }
        run.dt = spec.dt;
        run.time = scaled_time(spec, options.scale);
        run.steps.reset();
        run.sample_every = spec.sample_every;
        run.write_trajectory = spec.write_trajectory;
        run.backend = resolve_backend(spec, options, automatic);
        const backends::backend* backend = registry.find(run.backend);
        if (backend == nullptr)
            throw input_error("command line", "--backend", run.backend, "expected " + registry.names());
        run.hi_kernel = hi_kernel_for(spec, run.backend);
        validate_run_settings(run, origin);
        validate_cycle_window(p.scenario_, origin);
        // What the registry says this backend cannot run (the fused backend's limits), before any run starts.
        if (const std::string refusal =
                backend->can.refusal(make_engine_config(p.scenario_), p.scenario_.particles.size());
            !refusal.empty())
            throw input_error(origin, "backend", run.backend, backend->title + " " + refusal);
        p.output = output_dir / (spec.name + ".h5");
        const auto same_output = [&](const prepared_run& q) { return q.output == p.output; };
        if (std::any_of(out.begin(), out.end(), same_output))
            throw input_error(
                origin, "name", spec.name,
                "its output " + p.output.string() + " is another run's (give each manifest its own folder)");
        out.push_back(std::move(p));
    }
}

}  // namespace

std::vector<prepared_run> prepare_suite(const suite_manifest& manifest, const suite_options& options) {
    return prepare_suites({suite_part{manifest, options.output_dir}}, options);
}

std::vector<prepared_run> prepare_suites(const std::vector<suite_part>& parts, const suite_options& options) {
    if (!(options.scale > 0.0) || options.scale > 1.0)
        throw input_error("command line", "--scale", std::to_string(options.scale), "expected 0 < scale <= 1");
    const std::string automatic = backends::backend_registry().choose_automatic(nullptr, 0).chosen->name;
    std::vector<prepared_run> out;
    for (const suite_part& part : parts) {
        const std::size_t first = out.size();
        prepare_manifest(part.manifest, part.output_dir, options, automatic, out);
        if (parts.size() > 1)
            for (std::size_t k = first; k < out.size(); ++k) out[k].suite = part.manifest.name;
        // --batch, else the manifest's [suite] batch, else auto; before placement, which keeps a batch on one device.
        const batch_mode mode = options.batch                 ? *options.batch
                                : part.manifest.batch.empty() ? batch_mode::automatic
                                                              : parse_batch_mode(part.manifest.batch);
        for (std::size_t k = first; k < out.size(); ++k) assign_batch_key(out[k], mode);
    }
    // Every output under the output rule before the first run starts, never a file this command
    // reads: a manifest or a scenario named like a run's output (run/run_output_claim.hpp).
    std::vector<std::filesystem::path> inputs;
    for (const suite_part& part : parts) inputs.push_back(part.manifest.source);
    for (const prepared_run& p : out) inputs.push_back(p.spec.scenario);
    for (const prepared_run& p : out) check_run_output(p.output, options.force, inputs);
    if (out.empty()) {
        std::string sources;
        for (const suite_part& part : parts) sources += (sources.empty() ? "" : ", ") + part.manifest.source.string();
        throw input_error("command line", "--only", "", "no run of " + sources + " matches");
    }
    place_on_gpus(out, options.gpus);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = concurrent_runs(out, options.jobs);
    for (prepared_run& p : out) {
        p.threads = p.spec.threads > 0 ? p.spec.threads : std::max(1u, cores / jobs);
        p.equivalent_command = equivalent_command(p);
    }
    return out;
}

}  // namespace stokesian::regression
