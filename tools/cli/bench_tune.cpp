// `stokesian bench tune`: the short autotuning pass of --hi-kernel auto|fast. Times every exact and
// every fast CUDA kernel (one HI velocity update, as `bench hi`) for the given N, HI precisions and
// boundary on this device, and stores the fastest of each class in the user's tuning cache
// (stokesian/backends/hi_kernel_cache.hpp), where later runs of that N on this device find it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/support/bench_inputs.hpp"
#include "bench_commands.hpp"
#include "option_values.hpp"
#include "options_precision.hpp"
#include "stokesian/backends/hi_kernel_cache.hpp"
#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/hi_benchmark.hpp"
#endif

namespace stokesian::cli {

namespace {

struct tune_options {
    std::string sizes;
    std::vector<precision_mode> modes{
        {precision::f32, precision::f32}, {precision::ds, precision::ds}, {precision::f64, precision::f64}};
    std::string boundary = "periodic";
    int repeats = 10;
    double density = 0.1;
    std::uint64_t seed = 1;
};

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char text[32];
    return std::string(text, std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc));
}

int bench_tune(const tune_options& o) {
    if (o.boundary != "periodic" && o.boundary != "open")
        throw input_error("command line", "--boundary", o.boundary, "expected periodic or open");
    std::vector<std::size_t> sizes;
    for (const std::string& size : split_list(o.sizes, ", ")) {
        const auto n = read_count(size);
        if (!n || *n == 0) throw input_error("command line", "--sizes", size, "expected a particle number > 0");
        sizes.push_back(*n);
    }
    if (sizes.empty()) throw input_error("command line", "--sizes", o.sizes, "expected particle numbers");
    require_cuda_backend("bench tune", "it tunes the CUDA kernels");
#if defined(STOKESIAN_HAVE_CUDA)
    const auto device = cuda::device_description(0);
    const std::filesystem::path path = backends::default_cache_path();
    if (path.empty()) throw std::runtime_error("bench tune: neither XDG_CACHE_HOME nor HOME is set (no cache folder)");
    backends::tuning_cache cache = backends::tuning_cache::load(path, &std::cerr);
    const backends::kernel_candidates candidates = backends::cuda_kernel_candidates();
    const bool periodic = o.boundary == "periodic";
    std::printf("device: %s (cc %s), %s box, median of %d launches\n", device.at("device_name").c_str(),
                device.at("compute_capability").c_str(), o.boundary.c_str(), o.repeats);
    std::vector<precision> his;  // the kernels time the accumulation only: each hi= once
    for (const precision_mode m : o.modes)
        if (std::find(his.begin(), his.end(), m.hi) == his.end()) his.push_back(m.hi);
    for (const std::size_t n : sizes) {
        const bench::benchmark_system s = bench::uniform_system(n, o.density, o.seed, periodic, false);
        for (const precision hi : his) {
            backends::tuned_kernels entry;
            entry.device_name = device.at("device_name");
            entry.compute_capability = device.at("compute_capability");
            entry.particles = n;
            entry.hi = hi;
            entry.periodic = periodic;
            entry.tuned_at = utc_now();
            const auto fastest = [&](const std::vector<std::string>& kernels) {
                std::string best;
                for (const std::string& kernel : kernels) {
                    const auto t = cuda::time_hi_kernel(kernel, hi, s.system, s.state.positions,
                                                        s.state.external_forces, o.repeats);
                    entry.median_ms[kernel] = t.median_ms;
                    if (best.empty() || t.median_ms < entry.median_ms[best]) best = kernel;
                }
                return best;
            };
            entry.exact = fastest(candidates.exact);
            entry.fast = fastest(candidates.fast);
            std::printf("N = %zu hi=%s: auto -> %s (%.4g ms), fast -> %s (%.4g ms)\n", n,
                        std::string(to_string(hi)).c_str(), entry.exact.c_str(), entry.median_ms.at(entry.exact),
                        entry.fast.c_str(), entry.median_ms.at(entry.fast));
            for (const auto& [kernel, ms] : entry.median_ms) std::printf("    %-18s %11.4g ms\n", kernel.c_str(), ms);
            std::fflush(stdout);
            cache.put(entry);
        }
    }
    cache.save(path);
    std::printf("written: %s (%zu entries)\n", path.string().c_str(), cache.entries().size());
    return 0;
#else
    return 2;  // require_cuda_backend refuses every call in a build without CUDA
#endif
}

}  // namespace

bench_subcommand register_bench_tune(CLI::App& bench) {
    auto o = std::make_shared<tune_options>();
    auto* c = bench.add_subcommand(
        "tune",
        "Times the exact and the fast CUDA kernels at the given N on this device (device 0) and caches the "
        "fastest of each for --hi-kernel auto and fast ($XDG_CACHE_HOME/stokesian/hi-kernels.json)");
    c->add_option("--sizes", o->sizes, "particle numbers, comma-separated (a run uses an entry of its own N)")
        ->required();
    add_precision_list_option(*c, o->modes, "the hi= part is tuned; default f32,ds,f64");
    c->add_option("--boundary", o->boundary, "periodic or open (the box of the runs it is for)")->capture_default_str();
    c->add_option("--repeats", o->repeats, "timed launches per kernel (median)")->capture_default_str();
    c->add_option("--density", o->density, "number density of the uniform random positions (a^-3)")
        ->capture_default_str();
    c->add_option("--seed", o->seed, "seed of the positions")->capture_default_str();
    return {c, [o] { return bench_tune(*o); }};
}

}  // namespace stokesian::cli
