#pragma once
// `stokesian bench fcc --devices LIST`: strong scaling of the CUDA engine over the devices of one
// host (engine/docs/multi-gpu.md). For every size, precision mode and kernel the engine's steps are
// timed on the first 1, 2, 4, ... devices of LIST and on all of them; each row gives the HI update
// per step, its speedup and efficiency against one device, and the communication share: the part
// of the HI time spent in the all-gather of the velocity slices (NCCL, with the wait for the
// slowest device). The fcc loop lives in bench_fcc.cpp; this file holds its pieces.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "bench/support/bench_inputs.hpp"
#include "bench/support/results_table.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/phase_timing.hpp"

namespace stokesian::cli {

// What bench fcc --devices times (bench_fcc.cpp fills it from its options).
struct scaling_request {
    std::string devices;  // the --devices text: ordinals or all
    std::vector<std::string> kernels;
    std::vector<precision_mode> modes;
    phase_run run;
    // The engine of one configuration (backend cuda).
    std::function<engine_config(const std::string& kernel, precision_mode mode, const bench::benchmark_system& s)>
        config;
    std::string csv, h5;
    bool force = false;
    std::vector<std::filesystem::path> inputs;  // files --csv and --h5 must not replace
};

// Checks the devices and the outputs, makes the systems, times every configuration on the first
// 1, 2, 4, ... devices and on all, prints the table and writes --csv/--h5. Returns the exit code.
int bench_fcc_scaling(const scaling_request& r, const std::function<std::vector<bench::benchmark_system>()>& systems);

// run --devices' spelling (core/device_selection.hpp) resolved against the `present` devices;
// otherwise input_error naming --devices.
std::vector<int> parse_device_list(const std::string& text, unsigned present);

// The device counts timed: 1, 2, 4, ... below `count`, and `count` itself.
std::vector<std::size_t> scaling_counts(std::size_t count);

// One timed configuration on `devices` devices.
struct scaling_point {
    std::string device;  // the first device's name
    std::string ordinals;
    std::string kernel, precision;
    double particles = 0, cells = 0;
    std::size_t devices = 1;
    double steps = 0;
    double hi_median_ms = 0, hi_mean_ms = 0, step_mean_ms = 0;
    double communication_ms = 0;  // mean per step (0 on one device)
};

bench::results_table scaling_table();
void print_scaling_header();
// Adds the row (speedup and efficiency against `one_device_hi_median_ms`, the same configuration
// on one device) and prints it.
void add_scaling_point(bench::results_table& table, const scaling_point& p, double one_device_hi_median_ms);

}  // namespace stokesian::cli
