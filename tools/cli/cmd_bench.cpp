// `stokesian bench`: timings (never tests).
//   bench steps SCENARIO   whole steps per second of a scenario, per precision mode and backend
//   bench hi               one hydrodynamic velocity update on the GPU, per kernel, mode and N
//   bench fcc              the paper's benchmark (Section 3.3, Fig. 2): bench_fcc.cpp
//   bench memory           the appendix's memory-access study (Figs. 6, 7): bench_memory.cpp
//   bench tune             the tuning cache of --hi-kernel auto|fast: bench_tune.cpp
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <utility>

#include "bench/support/bench_inputs.hpp"
#include "bench/support/timed_backends.hpp"
#include "bench_commands.hpp"
#include "commands.hpp"
#include "map_text.hpp"
#include "option_values.hpp"
#include "options_common.hpp"
#include "options_precision.hpp"
#include "options_run.hpp"
#include "secondary_output.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/run_overrides.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/hi_benchmark.hpp"
#endif

namespace stokesian::cli {

namespace {

// The modes timed without --precision: the paper's four and the reference.
const std::vector<precision_mode> default_bench_modes{paper_precision_modes.begin(), paper_precision_modes.end()};

struct steps_options {
    std::string scenario, case_name, csv;
    std::vector<precision_mode> modes = default_bench_modes;
    std::optional<std::uint64_t> warmup;  // none: a tenth of the timed steps
    unsigned threads = 0;
    bool force = false;
    std::shared_ptr<const run_key_options> run_keys;  // --backend, --hi-kernel, --steps, --devices: over the scenario's
};

int bench_steps(const steps_options& o) {
    scenario s = load_scenario(o.scenario, o.case_name);
    settings::apply_run_overrides(s.run, o.run_keys->overrides());
    const secondary_output csv_file(o.csv, o.force, {o.scenario}, "--csv");
    std::ostringstream csv;
    csv << "scenario,particles,backend,hi_kernel,threads,precision,steps,seconds,steps_per_second,ms_per_step,"
           "devices\n";
    bool header = false;  // printed once the first engine is built: bad input prints nothing but its line
    for (const precision_mode m : o.modes) {
        engine_config c = make_engine_config(s);
        c.precision = m;
        c.threads = o.threads;
        auto e = build_run_engine(c, s);  // as `run` would: its backend, kernel and devices
        if (!std::exchange(header, true))
            std::printf("%-18s %8s %-6s %-13s %-16s %10s %12s %12s\n", "scenario", "N", "backend", "hi-kernel",
                        "precision", "steps", "steps/s", "ms/step");
        const std::uint64_t steps = s.run.total_steps();
        e->advance(o.warmup.value_or(std::max<std::uint64_t>(1, steps / 10)));
        frame f;
        e->read_frame(f);  // synchronises a device
        const auto t0 = std::chrono::steady_clock::now();
        e->advance(steps);
        e->read_frame(f);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const auto d = e->description().provenance();
        const std::string kernel = d.at("hi_kernel");
        const std::string threads = d.count("threads") ? d.at("threads") : "";
        std::printf("%-18s %8zu %-6s %-13s %-16s %10llu %12.4g %12.4g\n", s.name.c_str(), s.particles.size(),
                    d.at("backend").c_str(), kernel.c_str(), to_string(m).c_str(),
                    static_cast<unsigned long long>(steps), double(steps) / seconds, 1e3 * seconds / double(steps));
        csv << s.name << ',' << s.particles.size() << ',' << d.at("backend") << ',' << kernel << ',' << threads << ",\""
            << to_string(m) << "\"," << steps << ',' << seconds << ',' << double(steps) / seconds << ','
            << 1e3 * seconds / double(steps) << ",\"" << text_or(d, "devices") << "\"\n";
    }
    if (csv_file) csv_file.write(csv.str());
    return 0;
}

struct hi_options {
    std::string sizes = "1000,10000,200000", csv;
    std::vector<std::string> kernels{"naive", "tiling", "small-tiling"};
    std::vector<precision_mode> modes{
        {precision::f32, precision::f32}, {precision::ds, precision::ds}, {precision::f64, precision::f64}};
    int repeats = 20;
    unsigned block = 128;
    double density = 0.1;
    std::uint64_t seed = 1;
    bool force = false;
};

int bench_hi(const hi_options& o) {
    require_cuda_backend("bench hi", "it times the CUDA kernels; bench steps times any backend");
#if defined(STOKESIAN_HAVE_CUDA)
    const auto device = cuda::device_description();
    std::printf("device: %s (cc %s, %s SMs), driver %s, runtime %s, flags %s\n", device.at("device_name").c_str(),
                device.at("compute_capability").c_str(), device.at("multiprocessors").c_str(),
                device.at("driver_version").c_str(), device.at("runtime_version").c_str(),
                device.at("cuda_fp_flags").c_str());
    const secondary_output csv_file(o.csv, o.force, {}, "--csv");
    std::ostringstream csv;
    csv << "device,particles,kernel,hi_precision,block,median_ms,min_ms,max_ms,gpairs_per_second,repeats\n";
    std::printf("%9s %-13s %-4s %6s %11s %11s %11s %10s\n", "N", "kernel", "hi", "block", "median ms", "min ms",
                "max ms", "Gpair/s");
    std::vector<precision> his;  // the HI kernels time the accumulation only: each hi= once
    for (const precision_mode m : o.modes)
        if (std::find(his.begin(), his.end(), m.hi) == his.end()) his.push_back(m.hi);
    for (const std::string& size : split_list(o.sizes, ",")) {
        const std::size_t n = std::stoull(size);
        // Uniform random positions at density n in a periodic box, forces (0, 0, -1) (the HI kernels
        // do not care about overlaps): the same generator as `bench fcc --generator uniform`.
        const bench::benchmark_system s = bench::uniform_system(n, o.density, o.seed, true, false);
        const system_parameters& system = s.system;
        const std::vector<vec3<double>>& r = s.state.positions;
        const std::vector<vec3<double>>& f = s.state.external_forces;
        for (const precision p : his)
            for (const std::string& asked : o.kernels) {
                const std::string hi(to_string(p));
                // auto and fast: the kernel they stand for here (the table or the tuning cache).
                const backends::kernel_request request = backends::request_of(asked);
                const std::string kernel =
                    request == backends::kernel_request::named
                        ? asked
                        : backends::choose_cuda_step_kernel(request, n, p, system.box.periodic, -1).kernel;
                const auto t = cuda::time_hi_kernel(kernel, p, system, r, f, o.repeats, o.block);
                const double gpairs = double(n) * double(n) / (t.median_ms * 1e-3) / 1e9;
                std::printf("%9zu %-13s %-4s %6u %11.4g %11.4g %11.4g %10.4g\n", n, kernel.c_str(), hi.c_str(), t.block,
                            t.median_ms, t.min_ms, t.max_ms, gpairs);
                std::fflush(stdout);
                csv << '"' << device.at("device_name") << "\"," << n << ',' << kernel << ',' << hi << ',' << t.block
                    << ',' << t.median_ms << ',' << t.min_ms << ',' << t.max_ms << ',' << gpairs << ',' << t.repeats
                    << '\n';
            }
    }
    if (csv_file) csv_file.write(csv.str());
    return 0;
#else
    (void)o;
    return 2;  // require_cuda_backend refuses every call in a build without CUDA
#endif
}

}  // namespace

void require_cuda_backend(const std::string& what, const std::string& instead) {
    // These benchmarks launch the CUDA backend's kernels themselves (cuda/phase_benchmark.hpp).
    const backends::backend* cuda = backends::backend_registry().find("cuda");
    if (cuda == nullptr) throw input_error(what + ": no CUDA backend registered (" + instead + ")");
    bench::require_available(*cuda, what, instead);
}

action register_bench(CLI::App& app) {
    auto* bench = app.add_subcommand("bench", "Benchmarks: timings, never pass/fail");
    bench->require_subcommand(1);
    auto so = std::make_shared<steps_options>();
    auto* steps = bench->add_subcommand("steps", "Steps per second of a scenario, per precision mode");
    steps->add_option("scenario", so->scenario, "scenario file")->required();
    add_case_option(*steps, so->case_name);
    add_precision_list_option(*steps, so->modes, "default: the paper's four and f64");
    so->run_keys = add_run_key_options(
        *steps, "The backend, HI kernel, timed steps and devices: the scenario's, or these (overriding its [run] keys)",
        {"backend", "hi_kernel", "steps", "devices"});
    steps->add_option("--warmup", so->warmup, "untimed steps first (default: a tenth; 0: none)")
        ->check(step_count_check("none"));
    add_threads_option(*steps, so->threads);
    steps->add_option("--csv", so->csv, "also write the table as CSV");
    steps->add_flag("--force", so->force, "replace an existing --csv file");
    auto ho = std::make_shared<hi_options>();
    auto* hi = bench->add_subcommand("hi", "One HI velocity update on the GPU, per kernel, precision and N");
    hi->add_option("--sizes", ho->sizes, "particle numbers, comma-separated");
    add_run_key_list_option(*hi, "hi_kernel", ho->kernels, "default naive,tiling,small-tiling");
    add_precision_list_option(*hi, ho->modes, "the hi= part is timed; default f32,ds,f64: hi=f32, hi=ds, hi=f64");
    hi->add_option("--repeats", ho->repeats, "timed launches (median reported)");
    hi->add_option("--block", ho->block, "threads per block");
    hi->add_option("--density", ho->density, "number density n (a^-3)");
    hi->add_option("--seed", ho->seed, "seed of the uniform random positions");
    hi->add_option("--csv", ho->csv, "also write the table as CSV");
    hi->add_flag("--force", ho->force, "replace an existing --csv file");
    const bench_subcommand fcc = register_bench_fcc(*bench);
    const bench_subcommand memory = register_bench_memory(*bench);
    const bench_subcommand tune = register_bench_tune(*bench);
    return [steps, hi, so, ho, fcc, memory, tune]() -> int {
        if (steps->parsed()) return bench_steps(*so);
        if (hi->parsed()) return bench_hi(*ho);
        if (fcc.app->parsed()) return fcc.run();
        if (memory.app->parsed()) return memory.run();
        if (tune.app->parsed()) return tune.run();
        return 2;
    };
}

}  // namespace stokesian::cli
