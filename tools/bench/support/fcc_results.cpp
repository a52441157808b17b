#include "bench/support/fcc_results.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "bench/support/regime_fit.hpp"
#include "stokesian/backends/registry.hpp"

namespace stokesian::bench {

namespace {
// printf's "%<width>.<digits>g" as a string.
std::string format_number(double x, int width, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%*.*g", width, digits, x);
    return text;
}
}  // namespace

const char* computes_on(const std::string& backend) {
    return backends::computes_on_device(backend) ? "device" : "host";
}

results_table measurement_table() {
    using k = results_table::kind;
    std::vector<results_table::column> c{
        {"backend", k::text},     {"computes_on", k::text},  {"device", k::text},       {"kernel", k::text},
        {"precision", k::text},   {"hi_precision", k::text}, {"source", k::text},       {"boundary", k::text},
        {"lubrication", k::text}, {"particles", k::number},  {"cells", k::number},      {"threads", k::number},
        {"steps", k::number},     {"warmup", k::number},     {"reset_every", k::number}};
    // A duration's columns: mean, median, min, max (bench_fcc.cpp writes them).
    const std::array<std::string, 4> statistics{"_ms", "_median_ms", "_min_ms", "_max_ms"};
    for (const std::string phase : {"step", "hi", "forces", "drift"})
        for (const std::string& stat : statistics) c.push_back({phase + stat, k::number});
    for (const std::string name :
         {"hi_gpairs_per_second", "flops_per_pair", "hi_gflops", "peak_gflops", "peak_fraction", "speedup_vs_cpu"})
        c.push_back({name, k::number});
    c.push_back({"arithmetic_unit", k::text});
    // Whole steps timed without the phase timer (phase_timing::whole_step): what a run's step costs.
    for (const std::string& stat : statistics) c.push_back({"whole_step" + stat, k::number});
    return results_table(c);
}

results_table fit_table() {
    using k = results_table::kind;
    return results_table({{"backend", k::text},
                          {"computes_on", k::text},
                          {"kernel", k::text},
                          {"precision", k::text},
                          {"quantity", k::text},
                          {"points", k::number},
                          {"linear_points", k::number},
                          {"quadratic_points", k::number},
                          {"linear_slope_ms", k::number},
                          {"linear_intercept_ms", k::number},
                          {"quadratic_ms_per_pair", k::number},
                          {"crossover_n", k::number},
                          {"linear_max_n", k::number},
                          {"quadratic_min_n", k::number},
                          {"linear_residual", k::number},
                          {"quadratic_residual", k::number},
                          {"speedup_vs_cpu", k::number}});
}

void print_header() {
    std::printf("%-5s %-13s %-15s %9s %6s %10s %10s %10s %10s %10s %9s %7s\n", "back", "kernel", "precision", "N",
                "steps", "step ms", "whole ms", "HI ms", "forces ms", "drift ms", "Gpair/s", "peak %");
}

void print_row(const fcc_measurement& m) {
    const auto& r = m.row;
    // A number, or "-" where none was measured (the phases of an engine timed by whole steps).
    auto num = [&](const char* name, int width, int digits, double scale = 1.0) {
        const double x = std::get<double>(r.at(name));
        return std::isnan(x) ? std::string(width - 1, ' ') + "-" : format_number(scale * x, width, digits);
    };
    std::printf("%-5s %-13s %-15s %9zu %6.0f %s %s %s %s %s %s %s\n", m.backend.c_str(),
                std::get<std::string>(r.at("kernel")).c_str(), to_string(m.mode).c_str(), m.particles,
                std::get<double>(r.at("steps")), num("step_ms", 10, 4).c_str(), num("whole_step_ms", 10, 4).c_str(),
                num("hi_ms", 10, 4).c_str(), num("forces_ms", 10, 4).c_str(), num("drift_ms", 10, 4).c_str(),
                num("hi_gpairs_per_second", 9, 4).c_str(), num("peak_fraction", 7, 3, 100.0).c_str());
    std::fflush(stdout);
}

// Fits t(N) of each (backend, kernel, mode) series and adds the speedups over the host.
void add_fits(std::vector<fcc_measurement>& all, results_table& fits) {
    // Device vs host at the same N and mode (the HI update, medians).
    for (auto& g : all) {
        if (!backends::computes_on_device(g.backend)) continue;
        for (const auto& c : all)
            if (!backends::computes_on_device(c.backend) && c.particles == g.particles && c.mode == g.mode) {
                g.row["speedup_vs_cpu"] = c.timing.of(step_phase::hi).median_ms / g.timing.of(step_phase::hi).median_ms;
                break;
            }
    }
    struct series {
        std::string backend, kernel;
        precision_mode mode;
    };
    std::vector<series> keys;
    for (const auto& m : all) {
        bool known = false;
        for (const auto& k : keys)
            known = known || (k.backend == m.backend && k.kernel == m.kernel && k.mode == m.mode);
        if (!known) keys.push_back({m.backend, m.kernel, m.mode});
    }
    struct fitted {
        series key;
        std::string quantity;
        regime_split split;
        std::size_t points;
    };
    std::vector<fitted> results;
    for (const auto& k : keys)
        for (const std::string quantity : {"hi_median_ms", "step_median_ms"}) {
            std::vector<double> n, t;
            for (const auto& m : all)
                if (m.backend == k.backend && m.kernel == k.kernel && m.mode == k.mode) {
                    n.push_back(double(m.particles));
                    t.push_back(std::get<double>(m.row.at(quantity)));
                }
            try {
                results.push_back({k, quantity, split_regimes(n, t), n.size()});
            } catch (const std::invalid_argument&) {
                // no usable times (all zero at the clock's resolution): nothing to fit
            }
        }
    for (const auto& f : results) {
        double speedup = NAN;
        if (backends::computes_on_device(f.key.backend))
            for (const auto& c : results)
                if (!backends::computes_on_device(c.key.backend) && c.key.mode == f.key.mode &&
                    c.quantity == f.quantity) {
                    speedup = c.split.quadratic.coefficient / f.split.quadratic.coefficient;
                    break;
                }
        const auto& s = f.split;
        fits.add_row({{"backend", f.key.backend},
                      {"computes_on", std::string(computes_on(f.key.backend))},
                      {"kernel", f.key.kernel},
                      {"precision", to_string(f.key.mode)},
                      {"quantity", f.quantity},
                      {"points", double(f.points)},
                      {"linear_points", double(s.linear_points)},
                      {"quadratic_points", double(s.quadratic_points)},
                      {"linear_slope_ms", s.linear ? s.linear->slope : NAN},
                      {"linear_intercept_ms", s.linear ? s.linear->intercept : NAN},
                      {"quadratic_ms_per_pair", s.quadratic.coefficient},
                      {"crossover_n", s.crossover_n ? *s.crossover_n : NAN},
                      {"linear_max_n", s.linear ? s.linear_max_n : NAN},
                      {"quadratic_min_n", s.quadratic_min_n},
                      {"linear_residual", s.linear ? s.linear->residual : NAN},
                      {"quadratic_residual", s.quadratic.residual},
                      {"speedup_vs_cpu", speedup}});
        // The HI fit of each series; a series timed by whole steps only (no HI fit) its step's.
        const bool has_hi_fit = std::any_of(results.begin(), results.end(), [&](const fitted& h) {
            return h.quantity == "hi_median_ms" && h.key.backend == f.key.backend && h.key.kernel == f.key.kernel &&
                   h.key.mode == f.key.mode;
        });
        if (f.quantity == "hi_median_ms" || !has_hi_fit) {
            std::printf("fit %-4s %-13s %-15s %s: ", f.key.backend.c_str(), f.key.kernel.c_str(),
                        to_string(f.key.mode).c_str(), f.quantity == "hi_median_ms" ? "HI" : "whole step");
            if (s.linear)
                std::printf("t = %.4g ms x N %+.4g ms (N <= %.0f), ", s.linear->slope, s.linear->intercept,
                            s.linear_max_n);
            std::printf("t = %.4g ms x N^2 (N >= %.0f)", s.quadratic.coefficient, s.quadratic_min_n);
            if (s.crossover_n) std::printf(", crossover N = %.0f", *s.crossover_n);
            if (std::isfinite(speedup)) std::printf(", speedup over the CPU (quadratic regime) %.3g", speedup);
            std::printf("\n");
        }
    }
}

}  // namespace stokesian::bench
