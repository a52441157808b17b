#include "bench_fcc_scaling.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "bench/support/state_check.hpp"
#include "commands.hpp"
#include "map_text.hpp"
#include "option_values.hpp"
#include "secondary_output.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/provenance.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/phase_benchmark.hpp"
#endif

namespace stokesian::cli {

std::vector<int> parse_device_list(const std::string& text, unsigned present) {
    // The same spelling and rules as run --devices (core/device_selection.hpp).
    try {
        return resolve_devices(parse_device_selection(text), present);
    } catch (const std::invalid_argument& e) {
        throw input_error("command line", "--devices", text, e.what());
    }
}

std::vector<std::size_t> scaling_counts(std::size_t count) {
    std::vector<std::size_t> counts;
    for (std::size_t c = 1; c < count; c *= 2) counts.push_back(c);
    if (count > 0) counts.push_back(count);
    return counts;
}

bench::results_table scaling_table() {
    using k = bench::results_table::kind;
    return bench::results_table({{"device", k::text},
                                 {"devices", k::number},
                                 {"ordinals", k::text},
                                 {"kernel", k::text},
                                 {"precision", k::text},
                                 {"particles", k::number},
                                 {"cells", k::number},
                                 {"steps", k::number},
                                 {"hi_median_ms", k::number},
                                 {"hi_ms", k::number},
                                 {"step_ms", k::number},
                                 {"communication_ms", k::number},
                                 {"communication_share", k::number},
                                 {"speedup", k::number},
                                 {"efficiency", k::number}});
}

void print_scaling_header() {
    std::printf("%-13s %-15s %9s %7s %-10s %6s %12s %8s %10s %10s %7s\n", "kernel", "precision", "N", "devices",
                "ordinals", "steps", "HI ms/step", "speedup", "efficiency", "comm ms", "comm %");
}

void add_scaling_point(bench::results_table& table, const scaling_point& p, double one_device_hi_median_ms) {
    const double speedup = one_device_hi_median_ms / p.hi_median_ms;
    const double efficiency = speedup / double(p.devices);
    // Both means: the communication is part of the HI phase (cuda_phase_benchmark.hpp).
    const double share = p.hi_mean_ms > 0 ? p.communication_ms / p.hi_mean_ms : 0.0;
    table.add_row({{"device", p.device},
                   {"devices", double(p.devices)},
                   {"ordinals", p.ordinals},
                   {"kernel", p.kernel},
                   {"precision", p.precision},
                   {"particles", p.particles},
                   {"cells", p.cells},
                   {"steps", p.steps},
                   {"hi_median_ms", p.hi_median_ms},
                   {"hi_ms", p.hi_mean_ms},
                   {"step_ms", p.step_mean_ms},
                   {"communication_ms", p.communication_ms},
                   {"communication_share", share},
                   {"speedup", speedup},
                   {"efficiency", efficiency}});
    std::printf("%-13s %-15s %9.0f %7zu %-10s %6.0f %12.5g %8.3f %10.3f %10.4g %6.2f%%\n", p.kernel.c_str(),
                p.precision.c_str(), p.particles, p.devices, p.ordinals.c_str(), p.steps, p.hi_median_ms, speedup,
                efficiency, p.communication_ms, 100.0 * share);
    std::fflush(stdout);
}

#if defined(STOKESIAN_HAVE_CUDA)
namespace {

bench::results_table time_scaling(const scaling_request& r, const std::vector<int>& ordinals,
                                  const std::vector<bench::benchmark_system>& systems) {
    bench::results_table table = scaling_table();
    print_scaling_header();
    for (const auto& s : systems)
        for (const precision_mode mode : r.modes)
            for (const std::string& kernel : r.kernels) {
                double one_device = NAN;
                for (const std::size_t count : scaling_counts(ordinals.size())) {
                    const std::vector<int> used(ordinals.begin(), ordinals.begin() + std::ptrdiff_t(count));
                    const engine_config config = r.config(kernel, mode, s);
                    phase_run run = r.run;
                    run.blow_up = bench::state_check(s, config.dt);
                    const cuda::device_phase_timing t = cuda::time_phases_on_devices(config, s.state, run, used);
                    scaling_point p;
                    p.device = text_or(t.phases.description, "device_name");
                    for (std::size_t k = 0; k < used.size(); ++k) {
                        if (k > 0) p.ordinals += ',';
                        p.ordinals += std::to_string(used[k]);
                    }
                    p.kernel = text_or(t.phases.description, "hi_kernel", kernel);
                    p.precision = to_string(mode);
                    p.particles = double(s.state.size());
                    p.cells = s.cells ? double(s.cells) : NAN;
                    p.devices = count;
                    p.steps = double(t.phases.steps);
                    p.hi_median_ms = t.phases.of(step_phase::hi).median_ms;
                    p.hi_mean_ms = t.phases.of(step_phase::hi).mean_ms;
                    p.step_mean_ms = t.phases.step.mean_ms;
                    p.communication_ms = t.communication_ms;
                    if (count == 1) one_device = p.hi_median_ms;
                    add_scaling_point(table, p, one_device);
                    if (const std::string note = bench::fewer_resets_note(r.run.reset_every, t.phases); !note.empty())
                        std::printf("  %s\n", note.c_str());
                }
            }
    return table;
}

}  // namespace
#endif

int bench_fcc_scaling(const scaling_request& r, const std::function<std::vector<bench::benchmark_system>()>& systems) {
#if defined(STOKESIAN_HAVE_CUDA)
    const std::vector<int> ordinals = parse_device_list(r.devices, cuda::device_count());
    cuda::check_device_ordinals(ordinals);
    // Every output checked before the timings, which may take long (secondary_output.hpp).
    const secondary_output csv(r.csv, r.force, r.inputs, "--csv");
    const secondary_output h5(r.h5, r.force, r.inputs, "--h5");
    require_distinct({&csv, &h5});
    const std::vector<bench::benchmark_system> all = systems();
    for (const int d : ordinals) {
        const auto device = cuda::device_description(d);
        std::printf("device %d: %s (cc %s, %s SMs), driver %s, runtime %s\n", d, device.at("device_name").c_str(),
                    device.at("compute_capability").c_str(), device.at("multiprocessors").c_str(),
                    device.at("driver_version").c_str(), device.at("runtime_version").c_str());
    }
    const bench::results_table table = time_scaling(r, ordinals, all);
    if (csv) csv.write(table.csv());
    if (h5) {
        std::map<std::string, std::string> attributes = io::build_provenance();
        for (const auto& [k, v] : io::run_provenance(invocation_argc(), invocation_argv())) attributes[k] = v;
        attributes["benchmark"] = "fcc strong scaling";
        attributes["method"] =
            "engine steps timed phase by phase with CUDA events on the first device; hi_median_ms per step; speedup = "
            "hi_median_ms on one device / on n devices, efficiency = speedup / n; communication_ms: mean time per step "
            "of the NCCL all-gathers of the velocity slices, from the end of the first device's HI kernels to the end "
            "of its collectives (includes the wait for the slowest device); communication_share = communication_ms / "
            "hi_ms (means); engine/docs/multi-gpu.md";
        bench::write_tables_h5(h5.path(), {{"scaling", &table}}, attributes);
    }
    return 0;
#else
    (void)systems;
    try {  // a malformed list is named as such in any build
        (void)parse_device_selection(r.devices);
    } catch (const std::invalid_argument& e) {
        throw input_error("command line", "--devices", r.devices, e.what());
    }
    throw input_error("command line", "--devices", r.devices, "this build has no CUDA backend");
#endif
}

}  // namespace stokesian::cli
