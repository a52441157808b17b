#include "bench_fcc_scaling.hpp"

#include <cstdio>

#include "option_values.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"

namespace stokesian::cli {

std::vector<int> parse_device_list(const std::string& text, int visible) {
    std::vector<int> ordinals;
    if (text == "all") {
        for (int d = 0; d < visible; ++d) ordinals.push_back(d);
        if (ordinals.empty()) throw input_error("command line", "--devices", text, "this host has no CUDA device");
        return ordinals;
    }
    for (const std::string& item : split_list(text, ",")) {
        const auto ordinal = read_count(item);
        if (!ordinal || *ordinal > 1u << 20)
            throw input_error("command line", "--devices", text,
                              "expected device ordinals separated by ',' (e.g. 0,1,2,3), or all");
        ordinals.push_back(static_cast<int>(*ordinal));
    }
    if (ordinals.empty())
        throw input_error("command line", "--devices", text,
                          "expected device ordinals separated by ',' (e.g. 0,1,2,3), or all");
    return ordinals;
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

}  // namespace stokesian::cli
