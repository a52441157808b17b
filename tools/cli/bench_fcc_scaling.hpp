#pragma once
// `stokesian bench fcc --devices LIST`: strong scaling of the CUDA engine over the devices of one
// host (engine/docs/multi-gpu.md). For every size, precision mode and kernel the engine's steps are
// timed on the first 1, 2, 4, ... devices of LIST and on all of them; each row gives the HI update
// per step, its speedup and efficiency against one device, and the communication share: the part
// of the HI time spent in the all-gather of the velocity slices (NCCL, with the wait for the
// slowest device). The fcc loop lives in bench_fcc.cpp; this file holds its pieces.
#include <cstddef>
#include <string>
#include <vector>

#include "bench/support/results_table.hpp"

namespace stokesian::cli {

// "all" (every one of the `visible` devices) or device ordinals separated by ',' (whole numbers);
// otherwise input_error naming --devices. Whether they exist is the engine's check.
std::vector<int> parse_device_list(const std::string& text, int visible);

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
