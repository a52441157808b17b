// `stokesian bench memory`: the paper's appendix study of O(N^2) memory access (Algorithms 3 and 4,
// Figs. 6 and 7) on the present GPU: kernel time / N^2 of the naive, tiling and small-tiling
// minimal kernels for linear, strided and unordered access to float and float4 arrays, in the
// scaling limit (N up to 70 000 by default; the value at the largest N is reported with its change
// from the next smaller N, which shows whether time / N^2 has converged).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/support/results_table.hpp"
#include "bench_commands.hpp"
#include "option_values.hpp"
#include "secondary_output.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/provenance.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/memory_benchmark.hpp"
#endif

namespace stokesian::cli {

namespace {

struct memory_options {
    std::string sizes;  // default: 1000 ... 70 000, capped by / extended to --max-n
    std::uint32_t max_n = 70'000;
    std::string kernels = "naive,tiling,small-tiling", patterns = "linear,strided,unordered", types = "float,float4";
    int repeats = 20;
    double converged = 0.05;
    std::string csv, h5;
    bool force = false;
};

#if defined(STOKESIAN_HAVE_CUDA)
// 1000, 2000, 5000, 10 000, 20 000, 40 000, 70 000 up to max_n; above 70 000 doubling, then max_n.
std::vector<std::uint32_t> default_sizes(std::uint32_t max_n) {
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t n : {1000u, 2000u, 5000u, 10000u, 20000u, 40000u, 70000u})
        if (n <= max_n) sizes.push_back(n);
    for (std::uint64_t n = 140000; n < max_n; n *= 2) sizes.push_back(static_cast<std::uint32_t>(n));
    if (sizes.empty() || sizes.back() != max_n) sizes.push_back(max_n);
    return sizes;
}

int bench_memory(const memory_options& o) {
    // Every output checked before the timings (secondary_output.hpp).
    std::filesystem::path summary_path = o.csv;
    if (!o.csv.empty())
        summary_path.replace_filename(summary_path.stem().string() + "_summary" + summary_path.extension().string());
    const secondary_output csv(o.csv, o.force, {}, "--csv"),
        summary_csv(summary_path, o.force, {}, "--csv (its _summary file)");
    const secondary_output h5(o.h5, o.force, {}, "--h5");
    require_distinct({&csv, &summary_csv, &h5});
    std::vector<std::uint32_t> sizes;
    if (o.sizes.empty()) sizes = default_sizes(o.max_n);
    else
        for (const std::string& item : split_list(o.sizes, ","))
            sizes.push_back(static_cast<std::uint32_t>(std::stoul(item)));
    std::sort(sizes.begin(), sizes.end());
    std::vector<cuda::memory_kernel> kernels;
    std::vector<cuda::access_pattern> patterns;
    std::vector<cuda::memory_element> types;
    for (const auto& k : split_list(o.kernels, ",")) kernels.push_back(cuda::parse_memory_kernel(k));
    for (const auto& p : split_list(o.patterns, ",")) patterns.push_back(cuda::parse_access_pattern(p));
    for (const auto& t : split_list(o.types, ",")) types.push_back(cuda::parse_memory_element(t));

    const auto device = cuda::device_description();
    std::printf("device: %s (cc %s, %s SMs, SM clock %s kHz, memory clock %s kHz), driver %s, runtime %s\n",
                device.at("device_name").c_str(), device.at("compute_capability").c_str(),
                device.at("multiprocessors").c_str(), device.at("sm_clock_khz").c_str(),
                device.at("memory_clock_khz").c_str(), device.at("driver_version").c_str(),
                device.at("runtime_version").c_str());
    using kind = bench::results_table::kind;
    bench::results_table table({{"kernel", kind::text},
                                {"pattern", kind::text},
                                {"element", kind::text},
                                {"particles", kind::number},
                                {"block", kind::number},
                                {"repeats", kind::number},
                                {"mean_ms", kind::number},
                                {"median_ms", kind::number},
                                {"min_ms", kind::number},
                                {"max_ms", kind::number},
                                {"mean_ns_per_pair", kind::number},
                                {"median_ns_per_pair", kind::number},
                                {"checked_threads", kind::number}});
    bench::results_table summary({{"kernel", kind::text},
                                  {"pattern", kind::text},
                                  {"element", kind::text},
                                  {"particles", kind::number},
                                  {"mean_ns_per_pair", kind::number},
                                  {"median_ns_per_pair", kind::number},
                                  {"previous_particles", kind::number},
                                  {"relative_change", kind::number},
                                  {"converged", kind::number}});
    std::printf("%-13s %-10s %-7s %9s %11s %11s %11s %11s\n", "kernel", "pattern", "element", "N", "mean ms",
                "median ms", "ns/pair", "(median)");
    for (const auto element : types)
        for (const auto pattern : patterns)
            for (const auto kernel : kernels) {
                std::vector<double> per_pair;
                for (const std::uint32_t n : sizes) {
                    const cuda::memory_timing t = cuda::time_memory_kernel(kernel, pattern, element, n, o.repeats);
                    const double pairs = double(n) * double(n);
                    const double mean_ns = t.mean_ms * 1e6 / pairs, median_ns = t.median_ms * 1e6 / pairs;
                    per_pair.push_back(mean_ns);
                    table.add_row({{"kernel", std::string(to_string(kernel))},
                                   {"pattern", std::string(to_string(pattern))},
                                   {"element", std::string(to_string(element))},
                                   {"particles", double(n)},
                                   {"block", double(t.block)},
                                   {"repeats", double(t.repeats)},
                                   {"mean_ms", t.mean_ms},
                                   {"median_ms", t.median_ms},
                                   {"min_ms", t.min_ms},
                                   {"max_ms", t.max_ms},
                                   {"mean_ns_per_pair", mean_ns},
                                   {"median_ns_per_pair", median_ns},
                                   {"checked_threads", double(t.checked_threads)}});
                    std::printf("%-13s %-10s %-7s %9u %11.4g %11.4g %11.4g %11.4g\n", to_string(kernel),
                                to_string(pattern), to_string(element), n, t.mean_ms, t.median_ms, mean_ns, median_ns);
                    std::fflush(stdout);
                }
                // The scaling limit: the value at the largest N, and how much it moved from the next smaller N.
                const std::size_t last = per_pair.size() - 1;
                const double change = last ? std::abs(per_pair[last] - per_pair[last - 1]) / per_pair[last] : NAN;
                const double median_last = table.numbers("median_ns_per_pair")[table.rows() - 1];
                summary.add_row({{"kernel", std::string(to_string(kernel))},
                                 {"pattern", std::string(to_string(pattern))},
                                 {"element", std::string(to_string(element))},
                                 {"particles", double(sizes[last])},
                                 {"mean_ns_per_pair", per_pair[last]},
                                 {"median_ns_per_pair", median_last},
                                 {"previous_particles", last ? double(sizes[last - 1]) : NAN},
                                 {"relative_change", change},
                                 {"converged", std::isfinite(change) ? double(change <= o.converged) : NAN}});
            }
    std::printf("\nscaling limit (time / N^2 at the largest N; change from the next smaller N):\n");
    std::printf("%-13s %-10s %-7s %9s %11s %9s\n", "kernel", "pattern", "element", "N", "ns/pair", "change");
    for (std::size_t r = 0; r < summary.rows(); ++r)
        std::printf("%-13s %-10s %-7s %9.0f %11.4g %8.2f%%%s\n", summary.texts("kernel")[r].c_str(),
                    summary.texts("pattern")[r].c_str(), summary.texts("element")[r].c_str(),
                    summary.numbers("particles")[r], summary.numbers("mean_ns_per_pair")[r],
                    100.0 * summary.numbers("relative_change")[r],
                    summary.numbers("converged")[r] == 0.0 ? "  (not converged: raise --max-n)" : "");
    if (csv) {
        csv.write(table.csv());
        summary_csv.write(summary.csv());
    }
    if (h5) {
        std::map<std::string, std::string> attributes = io::build_provenance();
        for (const auto& [k, v] : io::run_provenance(invocation_argc(), invocation_argv())) attributes[k] = v;
        for (const auto& [k, v] : device) attributes["device_" + k] = v;
        attributes["benchmark"] = "memory";
        attributes["method"] =
            "paper appendix, Algorithms 3 and 4: N threads (128 per block) each read N elements and sum them; "
            "patterns k, k p mod N, (k p + j M) mod N with p = 131, M = 32; CUDA events around each launch after two "
            "untimed launches; sums of sampled threads checked exactly; ns_per_pair = time / N^2";
        bench::write_tables_h5(h5.path(), {{"measurements", &table}, {"summary", &summary}}, attributes);
    }
    return 0;
}
#else
int bench_memory(const memory_options&) {
    return 2;  // require_cuda_backend refuses every call in a build without CUDA
}
#endif

}  // namespace

bench_subcommand register_bench_memory(CLI::App& bench) {
    auto o = std::make_shared<memory_options>();
    auto* c = bench.add_subcommand("memory",
                                   "The appendix's O(N^2) memory-access study (Figs. 6, 7): time / N^2 of "
                                   "naive, tiling and small-tiling minimal kernels");
    c->add_option("--sizes", o->sizes, "array sizes N, comma-separated (default: 1000 ... 70 000, up to --max-n)");
    c->add_option("--max-n", o->max_n, "largest N of the default sizes")->capture_default_str();
    c->add_option("--kernels", o->kernels, "naive, tiling, small-tiling")->capture_default_str();
    c->add_option("--patterns", o->patterns, "linear, strided, unordered")->capture_default_str();
    c->add_option("--types", o->types, "float, float4")->capture_default_str();
    c->add_option("--repeats", o->repeats, "timed launches per configuration (the paper: 100)")->capture_default_str();
    c->add_option("--converged", o->converged,
                  "relative change of time / N^2 between the two largest N taken as converged")
        ->capture_default_str();
    c->add_option("--csv", o->csv, "measurements as CSV; the scaling-limit summary goes to <name>_summary.csv");
    c->add_option("--h5", o->h5, "measurements and summary as HDF5 (one dataset per column, provenance attributes)");
    c->add_flag("--force", o->force, "replace existing --csv (and its _summary file) and --h5 files");
    return {c, [o] {
                require_cuda_backend("bench memory", "it times CUDA kernels");
                return bench_memory(*o);
            }};
}

}  // namespace stokesian::cli
