#pragma once
// The result tables of `stokesian bench fcc`: one row per timed configuration (backend, kernel,
// precision mode, N), the fits of the scaling regimes per series, the speedups of the backends that
// compute on a device over those on the host (told apart by capability, backends::computes_on_device),
// and the progress lines on stdout. Columns: engine/docs/performance.md.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "bench/support/results_table.hpp"
#include "stokesian/core/phase_timing.hpp"
#include "stokesian/numeric/precision.hpp"

namespace stokesian::bench {

// One timed configuration: its row of the measurement table, and what the fits need.
struct fcc_measurement {
    std::string backend, kernel;
    precision_mode mode;
    std::size_t particles;
    phase_timing timing;
    std::map<std::string, cell> row;
};

// The column computes_on of a registered backend's rows: "device" (capabilities::devices > 0) or
// "host"; the tables' readers (tools/plot/plot_bench.py) tell the backends apart by it.
const char* computes_on(const std::string& backend);

results_table measurement_table();
results_table fit_table();

// Adds speedup_vs_cpu to the rows of a backend that computes on a device (host / device median HI
// time at the same N and mode, the host backend's first measurement there), fits
// t(N) of every (backend, kernel, mode) series (median HI and step times: regime_fit.hpp) into
// `fits`, and prints the HI fits.
void add_fits(std::vector<fcc_measurement>& all, results_table& fits);

void print_header();
void print_row(const fcc_measurement& m);

}  // namespace stokesian::bench
