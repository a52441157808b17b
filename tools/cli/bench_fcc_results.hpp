#pragma once
// The result tables of `stokesian bench fcc`: one row per timed configuration (backend, kernel,
// precision mode, N), the fits of the scaling regimes per series, the speedups over the CPU, and
// the progress lines on stdout. Columns: engine/docs/performance.md.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "bench/support/results_table.hpp"
#include "stokesian/core/phase_timing.hpp"
#include "stokesian/numeric/precision.hpp"

namespace stokesian::cli {

// One timed configuration: its row of the measurement table, and what the fits need.
struct measurement {
    std::string backend, kernel;
    precision_mode mode;
    std::size_t particles;
    phase_timing timing;
    std::map<std::string, bench::cell> row;
};

bench::results_table measurement_table();
bench::results_table fit_table();

// Adds speedup_vs_cpu to the GPU rows (CPU / GPU median HI time at the same N and mode), fits
// t(N) of every (backend, kernel, mode) series (median HI and step times: regime_fit.hpp) into
// `fits`, and prints the HI fits.
void add_fits(std::vector<measurement>& all, bench::results_table& fits);

void print_header();
void print_row(const measurement& m);

}  // namespace stokesian::cli
