// `stokesian bench fcc`: the paper's benchmark (Kopp & Hoefling 2012, Section 3.3, Fig. 2). A
// sedimenting suspension: N particles on an fcc lattice at n = 0.1 a^-3, each dragged by
// (0, 0, -F), explicit Euler with dt = 0.001 tau_s, lubrication on. For every size, precision mode
// and HI kernel, the engine's own steps are timed phase by phase (core/phase_timing.hpp): HI
// (update_velocities), forces + lubrication (update_forces), integration (drift). Reported:
// ms per step per phase (Fig. 2b), the HI update in G pair/s and as a fraction of the device's
// peak arithmetic rate, GPU vs CPU (Fig. 2a) with the linear and quadratic regimes fitted
// (bench/support/regime_fit.hpp). The fused CUDA engine (--hi-kernel fused) runs many steps a
// launch and is timed by whole steps, so its rows stand beside the step-by-step kernels' HI (M F)
// times and their whole steps (on a GPU timed again without the phase events, which cost a step
// time of their own). Method and columns: engine/docs/performance.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/support/bench_inputs.hpp"
#include "bench/support/device_peak.hpp"
#include "bench/support/fcc_results.hpp"
#include "bench/support/results_table.hpp"
#include "bench/support/state_check.hpp"
#include "bench/support/timed_backends.hpp"
#include "bench_commands.hpp"
#include "bench_fcc_scaling.hpp"
#include "map_text.hpp"
#include "option_values.hpp"
#include "options_common.hpp"
#include "options_precision.hpp"
#include "options_run.hpp"
#include "secondary_output.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/provenance.hpp"

namespace stokesian::cli {

namespace {

// The modes timed without --precision: the paper's four and the reference.
const std::vector<precision_mode> default_fcc_modes{paper_precision_modes.begin(), paper_precision_modes.end()};

struct fcc_options {
    std::vector<std::string> backends{"cpu", "cuda"};
    std::vector<std::string> kernels{"small-tiling", "tiling"};
    std::string cpu_kernel = "all-pairs";
    std::vector<precision_mode> modes = default_fcc_modes;
    std::string sizes_cells;
    std::size_t max_n = 0;
    bool large = false;
    std::string generator = "fcc";
    std::string input;
    std::uint64_t seed = 1;
    std::string boundary = "periodic";
    double density = 0.1;
    std::string lubrication = "on";
    double dt = 0.001;
    std::uint64_t steps = 100, min_steps = 10, warmup = 3, reset_every = 5;
    double max_seconds = 2.0;
    std::uint64_t cpu_steps = 10, cpu_warmup = 1;
    std::size_t cpu_max_n = 11000;
    unsigned threads = 0;
    std::string csv, h5, write_velocities;
    bool force = false;
    std::string devices;  // --devices: a strong-scaling table over these devices (bench_fcc_scaling.hpp)
    bool backend_given = false, devices_given = false;
};

// What the GPU can do at most (nothing when the architecture is not in the table).
struct device_peak {
    std::optional<double> fp32_gflops, fp64_gflops;
};

device_peak peak_of(const std::map<std::string, std::string>& device) {
    device_peak p;
    const std::string cc = text_or(device, "compute_capability");
    const auto dot = cc.find('.');
    if (dot == std::string::npos) return p;
    const int major = std::stoi(cc.substr(0, dot)), minor = std::stoi(cc.substr(dot + 1));
    const int sms = std::stoi(text_or(device, "multiprocessors", "0"));
    const double clock_khz = std::stod(text_or(device, "sm_clock_khz", "0"));
    if (auto lanes = bench::fp32_lanes_per_sm(major, minor)) p.fp32_gflops = bench::peak_gflops(sms, *lanes, clock_khz);
    if (auto lanes = bench::fp64_lanes_per_sm(major, minor)) p.fp64_gflops = bench::peak_gflops(sms, *lanes, clock_khz);
    return p;
}

std::string cpu_model_name() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
        }
    return "cpu";
}

double as_number(const std::map<std::string, std::string>& d, const std::string& key) {
    const std::string v = text_or(d, key);
    return v.empty() ? NAN : std::stod(v);
}

// The engine of one timed configuration.
engine_config engine_config_for(const std::string& backend, const std::string& kernel, precision_mode mode,
                                const bench::benchmark_system& s, const fcc_options& o) {
    engine_config c;
    c.system = s.system;
    c.precision = mode;
    c.backend = backend;
    c.hi_kernel = kernel;  // auto and fast: the backend's phase timer resolves them
    c.dt = o.dt;
    c.threads = o.threads;
    return c;
}

bench::fcc_measurement measure(const std::string& backend, const std::string& kernel, precision_mode mode,
                               const bench::benchmark_system& s, const fcc_options& o, const device_peak& peak) {
    const engine_config c = engine_config_for(backend, kernel, mode, s, o);
    const backends::backend* b = backends::backend_registry().find(backend);
    if (b == nullptr || !b->time_phases)
        throw input_error("command line", "--backend", backend, "has no phases to time in this build");
    const bool on_device = b->can.devices > 0;
    phase_run run;
    run.reset_every = o.reset_every;
    run.max_seconds = o.max_seconds;
    // A device's steps are short: many; the host's long ones: few (--cpu-steps, --cpu-warmup).
    run.steps = on_device ? o.steps : o.cpu_steps;
    run.min_steps = on_device ? std::min(o.min_steps, o.steps) : std::min<std::uint64_t>(3, o.cpu_steps);
    run.warmup = on_device ? o.warmup : o.cpu_warmup;
    run.blow_up = bench::state_check(s, o.dt);
    const phase_timing t = b->time_phases(c, s.state, run);
    bench::fcc_measurement m{backend, kernel, mode, s.state.size(), t, {}};
    const double n = double(s.state.size());
    const double hi_ms = t.of(step_phase::hi).median_ms;
    const double gpairs = n * n / (hi_ms * 1e-3) / 1e9;
    const int flops = bench::flops_per_pair(mode.hi);
    const double gflops = gpairs * flops;
    std::optional<double> peak_gflops;
    if (on_device) peak_gflops = mode.hi == precision::f64 ? peak.fp64_gflops : peak.fp32_gflops;
    auto& r = m.row;
    r["backend"] = backend;
    r["computes_on"] = std::string(bench::computes_on(backend));
    r["device"] = on_device ? text_or(t.description, "device_name") : cpu_model_name();
    r["kernel"] = text_or(t.description, "hi_kernel", kernel);
    r["precision"] = to_string(mode);
    r["hi_precision"] = std::string(to_string(mode.hi));
    r["source"] = s.source;
    r["boundary"] = s.system.box.periodic ? "periodic" : "open";
    r["lubrication"] = s.system.lubrication.enabled ? "on" : "off";
    r["particles"] = n;
    r["cells"] = s.cells ? double(s.cells) : NAN;
    r["threads"] = on_device ? NAN : as_number(t.description, "threads");
    r["steps"] = double(t.steps);
    r["warmup"] = double(run.warmup);
    r["reset_every"] = double(t.reset_every);
    auto put = [&](const std::string& name, const duration_statistics& d) {
        r[name + "_ms"] = d.mean_ms;
        r[name + "_median_ms"] = d.median_ms;
        r[name + "_min_ms"] = d.min_ms;
        r[name + "_max_ms"] = d.max_ms;
    };
    put("step", t.step);
    put("hi", t.of(step_phase::hi));
    put("forces", t.of(step_phase::forces));
    put("drift", t.of(step_phase::drift));
    put("whole_step", t.whole_step);
    r["hi_gpairs_per_second"] = gpairs;
    r["flops_per_pair"] = double(flops);
    r["hi_gflops"] = gflops;
    r["peak_gflops"] = peak_gflops ? *peak_gflops : NAN;
    r["peak_fraction"] = peak_gflops ? gflops / *peak_gflops : NAN;
    r["arithmetic_unit"] = bench::arithmetic_unit(mode.hi);
    return m;
}

std::filesystem::path fits_path_for(const std::filesystem::path& csv) {
    std::filesystem::path p = csv;
    p.replace_filename(csv.stem().string() + "_fits" + csv.extension().string());
    return p;
}

std::vector<bench::benchmark_system> systems_to_run(const fcc_options& o) {
    const bool periodic = o.boundary == "periodic";
    const bool lubrication = o.lubrication == "on";
    if (!o.input.empty()) return {bench::read_system(o.input, periodic, o.density, lubrication)};
    std::vector<int> cells;
    for (const std::string& item : split_list(o.sizes_cells, ",")) {
        // Whole numbers only (stoi took "1e3" for 1), at most the scenario format's largest lattice.
        const auto m = read_count(item);
        if (!m || *m < 1 || *m > std::uint64_t(max_fcc_cells))
            throw input_error("command line", "--sizes-cells", item,
                              "expected whole numbers of unit cells from 1 to " + std::to_string(max_fcc_cells) +
                                  " (N = 4 m^3 <= 4 million), separated by ','");
        cells.push_back(static_cast<int>(*m));
    }
    std::vector<bench::benchmark_system> systems;
    for (int m : bench::fcc_cells_to_run(cells, o.max_n, o.large)) {
        if (o.generator == "fcc") systems.push_back(bench::fcc_system(m, o.density, periodic, lubrication));
        else
            systems.push_back(bench::uniform_system(bench::fcc_particles(m), o.density, o.seed, periodic, lubrication));
        systems.back().cells = m;
    }
    if (systems.empty()) throw input_error("--max-n " + std::to_string(o.max_n) + " leaves no size to run");
    return systems;
}

void write_velocities(const fcc_options& o, const bench::benchmark_system& s, const std::string& backend,
                      const std::string& kernel, precision_mode mode) {
    const engine_config c = engine_config_for(backend, kernel, mode, s, o);
    const auto e = make_engine(c, s.state);  // computes the forces and one HI update at construction
    frame f;
    e->read_frame(f);
    auto attributes = e->description().provenance();
    attributes["source"] = s.source;
    attributes["particles"] = std::to_string(s.state.size());
    attributes["what"] =
        "one HI update v = mu F (Rotne-Prager, radius 1, mu0 1) of the first configuration of stokesian "
        "bench fcc; forces are the total forces fed to it";
    bench::write_hi_update(o.write_velocities, f, s.system, attributes);
    std::printf("wrote the velocities of one HI update (%s, %s, %s, N = %zu) to %s\n", backend.c_str(),
                text_or(attributes, "hi_kernel", kernel).c_str(), to_string(mode).c_str(), s.state.size(),
                o.write_velocities.c_str());
}

// --devices: the strong-scaling table instead of the GPU-vs-CPU one (bench_fcc_scaling.hpp).
int bench_fcc_on_devices(const fcc_options& o) {
    if (o.backend_given && !bench::phase_timed_backends(o.backends).on_host.empty())
        throw input_error("command line", "--devices", o.devices,
                          "times the CUDA backend on several devices: give --backend cuda (the CPU has no devices)");
    if (!o.write_velocities.empty())
        throw input_error("command line", "--write-velocities", o.write_velocities, "is not available with --devices");
    for (const std::string& kernel : o.kernels)
        if (kernel == "fused")
            throw input_error("command line", "--hi-kernel", kernel,
                              "has no phases for the scaling table: time its whole steps on several devices "
                              "with bench steps --devices");
    scaling_request r;
    r.devices = o.devices;
    r.kernels = o.kernels;
    r.modes = o.modes;
    r.run.reset_every = o.reset_every;
    r.run.steps = o.steps;
    r.run.min_steps = std::min(o.min_steps, o.steps);
    r.run.warmup = o.warmup;
    r.run.max_seconds = o.max_seconds;
    // The table times the CUDA engines on several devices (cuda::time_phases_on_devices).
    r.config = [&o](const std::string& kernel, precision_mode mode, const bench::benchmark_system& s) {
        return engine_config_for("cuda", kernel, mode, s, o);
    };
    r.csv = o.csv;
    r.h5 = o.h5;
    r.force = o.force;
    if (!o.input.empty()) r.inputs.push_back(o.input);
    return bench_fcc_scaling(r, [&o] { return systems_to_run(o); });
}

int bench_fcc(const fcc_options& o) {
    if (o.devices_given) return bench_fcc_on_devices(o);
    const bench::timed_backends timed = bench::phase_timed_backends(o.backends);
    const std::string backend_text = timed.names();
    const std::vector<precision_mode>& modes = o.modes;
    const std::vector<std::string>& kernels = o.kernels;
    // Every output checked before the timings, which may take long (secondary_output.hpp).
    std::vector<std::filesystem::path> inputs;
    if (!o.input.empty()) inputs.push_back(o.input);
    const secondary_output csv(o.csv, o.force, inputs, "--csv");
    const secondary_output fits_csv(o.csv.empty() ? "" : fits_path_for(o.csv), o.force, inputs,
                                    "--csv (its _fits file)");
    const secondary_output h5(o.h5, o.force, inputs, "--h5");
    const secondary_output velocities(o.write_velocities, o.force, inputs, "--write-velocities");
    require_distinct({&csv, &fits_csv, &h5, &velocities});
    const std::vector<bench::benchmark_system> systems = systems_to_run(o);
    // What to time, in order; a device kernel that cannot time a size (the fused engine beyond its
    // N) is said before the first timing and left out, not found an hour into the run.
    struct configuration {
        const bench::benchmark_system* system;
        precision_mode mode;
        const backends::backend* backend;
        std::string kernel;
    };
    std::vector<configuration> plan;
    std::vector<std::string> refused;
    for (const auto& s : systems)
        for (const precision_mode mode : modes) {
            for (const backends::backend* b : timed.on_device)
                for (const std::string& kernel : kernels) {
                    const std::string why =
                        b->cannot_time ? b->cannot_time(engine_config_for(b->name, kernel, mode, s, o), s.state.size())
                                       : "";
                    const std::string what =
                        b->name + " " + kernel + " at N = " + std::to_string(s.state.size()) + ": " + why;
                    if (why.empty()) plan.push_back({&s, mode, b, kernel});
                    else if (std::find(refused.begin(), refused.end(), what) == refused.end())
                        refused.push_back(what);  // once, whatever the precision modes
                }
            if (s.state.size() <= o.cpu_max_n)
                for (const backends::backend* b : timed.on_host) plan.push_back({&s, mode, b, o.cpu_kernel});
        }
    if (plan.empty())
        throw input_error("nothing to time: " + (refused.empty()
                                                     ? "every size is above --cpu-max-n " + std::to_string(o.cpu_max_n)
                                                     : "every size is refused (" + refused.front() + ")"));
    // The arguments first, then the machine: a bad size or output is the same answer everywhere.
    for (const backends::backend* b : timed.on_device)
        bench::require_available(*b, "bench fcc --backend " + backend_text, "--backend cpu times the CPU alone");

    std::map<std::string, std::string> device;
    device_peak peak;
    if (!timed.on_device.empty() && timed.on_device.front()->describe_device) {
        device = timed.on_device.front()->describe_device(-1);
        peak = peak_of(device);
        std::printf(
            "device: %s (cc %s, %s SMs, SM clock %s kHz, memory clock %s kHz), driver %s, runtime %s, flags %s\n",
            text_or(device, "device_name").c_str(), text_or(device, "compute_capability").c_str(),
            text_or(device, "multiprocessors").c_str(), text_or(device, "sm_clock_khz").c_str(),
            text_or(device, "memory_clock_khz").c_str(), text_or(device, "driver_version").c_str(),
            text_or(device, "runtime_version").c_str(), text_or(device, "cuda_fp_flags").c_str());
        if (peak.fp32_gflops)
            std::printf("peak (SMs x lanes x 2 x max SM clock): FP32 %.0f Gflop/s, FP64 %.0f Gflop/s\n",
                        *peak.fp32_gflops, peak.fp64_gflops ? *peak.fp64_gflops : NAN);
    }
    const unsigned hardware_threads = std::thread::hardware_concurrency();
    if (!timed.on_host.empty())
        std::printf("cpu: %s, %u threads (of %u hardware threads), CPU times for N <= %zu, %llu steps\n",
                    cpu_model_name().c_str(), o.threads ? o.threads : hardware_threads, hardware_threads, o.cpu_max_n,
                    static_cast<unsigned long long>(o.cpu_steps));

    if (!o.write_velocities.empty()) {
        const bool on_device = !timed.on_device.empty();
        write_velocities(o, systems.front(), on_device ? timed.on_device.front()->name : timed.on_host.front()->name,
                         on_device ? kernels.front() : o.cpu_kernel, modes.front());
    }

    for (const std::string& r : refused) std::printf("not timed: %s\n", r.c_str());
    bench::results_table table = bench::measurement_table();
    std::vector<bench::fcc_measurement> all;
    bench::print_header();
    for (const configuration& c : plan) {
        all.push_back(measure(c.backend->name, c.kernel, c.mode, *c.system, o, peak));
        bench::print_row(all.back());
        if (const std::string note = bench::fewer_resets_note(o.reset_every, all.back().timing); !note.empty())
            std::printf("  %s\n", note.c_str());
    }

    bench::results_table fits = bench::fit_table();
    bench::add_fits(all, fits);
    for (const auto& m : all) table.add_row(m.row);

    if (csv) {
        csv.write(table.csv());
        fits_csv.write(fits.csv());
    }
    if (h5) {
        std::map<std::string, std::string> attributes = io::build_provenance();
        for (const auto& [k, v] : io::run_provenance(invocation_argc(), invocation_argv())) attributes[k] = v;
        for (const auto& [k, v] : device) attributes["device_" + k] = v;
        attributes["benchmark"] = "fcc";
        attributes["cpu_model"] = cpu_model_name();
        attributes["cpu_hardware_threads"] = std::to_string(hardware_threads);
        attributes["density"] = std::to_string(o.density);
        attributes["dt"] = std::to_string(o.dt);
        attributes["method"] =
            "engine steps timed phase by phase (CUDA events / steady_clock), after warm-up steps; engine reset to the "
            "initial state every reset_every steps outside the timed region (with lubrication fewer than asked "
            "where a state within them blew up); *_ms means (they add up), *_median_ms, "
            "*_min_ms, *_max_ms over the timed steps; whole_step_*: whole steps timed without the phase events (a "
            "second run from the same state; the CPU's step); G pair/s = N^2 / hi_median_ms; fits on the medians; "
            "kernel fused: whole steps only (each chunk of steps between resets one timed launch sequence, its "
            "time shared by its steps; hi, forces and drift NaN); engine/docs/performance.md";
        attributes["flops_per_pair"] = "41 (hi=f32, hi=f64), 68 (hi=ds): engine/docs/performance.md";
        attributes["peak"] =
            "SMs x lanes per SM (FP32 128, FP64 64 on Hopper) x 2 (FMA) x cudaDevAttrClockRate (the "
            "maximum SM clock; the clock held under load may be lower)";
        bench::write_tables_h5(h5.path(), {{"measurements", &table}, {"fits", &fits}}, attributes);
    }
    return 0;
}

}  // namespace

bench_subcommand register_bench_fcc(CLI::App& bench) {
    auto o = std::make_shared<fcc_options>();
    auto* c =
        bench.add_subcommand("fcc",
                             "The paper's benchmark (Sec. 3.3, Fig. 2): fcc lattice at n = 0.1, "
                             "ms per step per phase and per whole step, G pair/s, GPU vs CPU with fitted regimes");
    CLI::Option* backend = add_run_key_list_option(*c, "backend", o->backends, "default cpu,cuda: the GPU and the CPU");
    add_run_key_list_option(*c, "hi_kernel", o->kernels,
                            "GPU kernels timed, fused by whole steps; default small-tiling,tiling");
    c->add_option("--cpu-kernel", o->cpu_kernel, "CPU HI loop: all-pairs | symmetric")->capture_default_str();
    add_precision_list_option(*c, o->modes, "default: the paper's four and f64");
    c->add_option(
        "--sizes-cells", o->sizes_cells,
        "fcc unit cells per side, comma-separated: N = 4 m^3 (default 4,6,8,10,14,20,30,37: N = 256 ... 202 612)");
    c->add_option("--max-n", o->max_n, "skip sizes with more particles (0: no limit)");
    c->add_flag("--large", o->large, "also m = 50, 63 (N = 500 000, 1 000 188)");
    c->add_option("--generator", o->generator, "fcc | uniform (uniform random positions, same N)")
        ->check(CLI::IsMember({"fcc", "uniform"}))
        ->capture_default_str();
    c->add_option("--input", o->input, "positions (and forces) from an HDF5/H5MD file instead of a generator");
    c->add_option("--seed", o->seed, "seed of the uniform generator")->capture_default_str();
    c->add_option("--boundary", o->boundary, "periodic | open")
        ->check(CLI::IsMember({"periodic", "open"}))
        ->capture_default_str();
    c->add_option("--density", o->density, "number density n (a^-3)")->capture_default_str();
    c->add_option("--lubrication", o->lubrication, "on | off")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    c->add_option("--dt", o->dt, "time step (tau_s)")->capture_default_str();
    c->add_option("--steps", o->steps, "GPU: timed steps at most (the paper: 100)")
        ->check(step_count_check())
        ->capture_default_str();
    c->add_option("--min-steps", o->min_steps, "GPU: timed steps at least")
        ->check(step_count_check("no minimum"))
        ->capture_default_str();
    c->add_option("--max-seconds", o->max_seconds,
                  "wall-time budget of the timed steps of one configuration (stops at a reset once spent and "
                  "--min-steps are done; 0: no budget)")
        ->capture_default_str();
    c->add_option("--warmup", o->warmup, "GPU: untimed steps first")
        ->check(step_count_check("none"))
        ->capture_default_str();
    c->add_option("--reset-every", o->reset_every,
                  "back to the initial state every this many steps, outside the timed region (the explicit "
                  "lubrication scheme is unstable on the lattice; with lubrication fewer where a state within them "
                  "blew up, said under the row and in the CSV's reset_every; 0: never)")
        ->check(step_count_check("never"))
        ->capture_default_str();
    c->add_option("--cpu-steps", o->cpu_steps, "CPU: timed steps at most")
        ->check(step_count_check())
        ->capture_default_str();
    c->add_option("--cpu-warmup", o->cpu_warmup, "CPU: untimed steps first")
        ->check(step_count_check("none"))
        ->capture_default_str();
    c->add_option("--cpu-max-n", o->cpu_max_n, "CPU: only sizes up to this N")->capture_default_str();
    add_threads_option(*c, o->threads);
    c->add_option("--csv", o->csv, "measurements as CSV; the fits go to <name>_fits.csv");
    c->add_option("--h5", o->h5, "measurements and fits as HDF5 (one dataset per column, provenance attributes)");
    c->add_flag("--force", o->force, "replace existing --csv (and its _fits file), --h5 and --write-velocities files");
    // --devices, the [run] key's option (one spelling and parser with run.devices).
    const std::shared_ptr<const run_key_options> devices = add_run_key_options(
        *c,
        "A strong-scaling table instead: the CUDA backend on the first 1, 2, 4, ... of these devices and on all: HI "
        "ms/step, speedup, efficiency, communication share",
        {"devices"});
    c->add_option("--write-velocities", o->write_velocities,
                  "write positions, forces and the velocities of one HI update of the first configuration (HDF5)");
    return {c, [o, backend, devices] {
                o->backend_given = backend->count() > 0;
                o->devices = devices->text("devices").value_or("");
                o->devices_given = devices->text("devices").has_value();
                return bench_fcc(*o);
            }};
}

}  // namespace stokesian::cli
