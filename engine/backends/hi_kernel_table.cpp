// The measured kernel table of --hi-kernel auto|fast (stokesian/backends/hi_kernel_choice.hpp;
// engine/docs/performance.md, "The kernel choice", says how it was derived).
//
// Compute capability 9.0 (Hopper: H100, H200, GH200; 132 SMs on the SXM parts), the fastest kernel of
// each class at each N and HI precision of a measured file (tests/backends/hi_kernel_choice_test.cpp
// recomputes every row from its CSV and fails on a difference). Exact: among naive, tiling,
// small-tiling, far-tiling and ordered-split (the kernels that sum in the CPU's order; naive is in
// neither file: it was 1.1-1.7x slower than tiling at every N and mode of
// 2026-11-26-h200-bench-hi.csv). Fast: among fast-split and fast-far-split. The files also time
// kernels since removed (multi-target, fast-tiling, fast-multi-target: never the fastest of their
// class at any row; split, far-split: another order than the CPU's, no candidates).
//  - periodic boxes: engine/docs/gpu-runs/2026-11-27-h100-bench-hi-far.csv (`stokesian bench hi`,
//    uniform random positions at n = 0.1 a^-3, periodic box, block 128, median of 5, NVIDIA H100
//    80GB HBM3);
//  - open boxes: engine/docs/gpu-runs/2026-11-27-h100-bench-peers-ordered.csv (`ci/gpu-bench-peers`:
//    `bench fcc`, the fcc lattice at n = 0.1 a^-3, open box, median, NVIDIA H100 80GB HBM3).
// ordered-split leads the exact kernels up to N ~ 3e4-1e5 (periodic: 9.4x tiling at N = 1000, 1.4x at
// 30 000; open: 8.9x far-tiling at 864, 2.9x at 10 976); above, where it runs far-tiling itself, the
// exact kernels are within 1-2 % of each other.
//
// The fused bounds (the fused engine under auto), per HI precision and box kind: measured by
// `ci/gpu-hi-auto` on an NVIDIA H200 (cc 9.0 like the H100;
// engine/docs/gpu-runs/2026-11-29-h200-two-targets-committed-bound.csv): the fused engine (its
// grid kernel: one system on the whole device, whole steps in one launch) against ordered-split
// step by step, on periodic simple cubic lattices (N = 4 ... 24 576) and open fcc lattices
// (N = 864 ... 23 328), no lubrication. Each bound is the largest measured N up to which fused led
// at every measured N (tests/backends/hi_kernel_choice_test.cpp derives them from the CSV). f32
// led at every measured N, f64 in open boxes too. ds stops earlier: above N ~ 7000 its grid kernel
// costs 2.0-2.8x its f32 (the adding lanes' float_float chain: 7 dependent operations an addition
// against f32's one) and trails ordered-split, whose ds costs 1.4-2.0x its f32, by up to 1.5x.
// With short-range forces (lubrication, a pair force) the fused engine tests every pair for them
// and the step-by-step engine a cell list in a periodic box: measured by `ci/gpu-hi-auto` with
// `bench fcc` (the paper's lattice, lubrication on, 12 neighbours a particle;
// engine/docs/gpu-runs/2026-11-29-h200-fused-short-range-bound.csv), N = 256 ... 23 328, the fused
// engine leads in a periodic box up to N = 4000 (f64) and 6912 (f32, ds); in an open box, where
// the step-by-step engine also scans every pair (short_range_kernels.cuh: a cell list needs a
// periodic box), at every measured N.
//
// On two devices (the fused engine's grid kernel on each, a slice of the targets, against ordered-split
// on the same two, its HI sum sliced and all-gathered with NCCL a step): measured by `ci/gpu-hi-auto` on
// two NVIDIA H200 of one host (NVLink; engine/docs/gpu-runs/2026-11-29-h200x2-fused-two-devices-bound.csv),
// the same lattices, open ones up to N = 42 592, no lubrication. The step-by-step engine's per-step
// gather costs it ~40 us at every N, so the fused engine leads further: f32 and f64 in open boxes at
// every measured N, f32 periodic too. With short-range forces on two devices (the same lattices with a
// pair force, the exponential repulsion of scenarios/random_suspension.toml;
// engine/docs/gpu-runs/2026-11-29-h200x2-fused-two-devices-short-range-bound.csv) the fused engine leads
// in open boxes at every measured N (N = 864 ... 23 328: the step-by-step engine scans every pair for
// them there too, and gathers a step) and in periodic ones up to N = 16 384 (f32, ds) and 8192 (f64),
// where the step-by-step engine's cell list pays. On more than two devices nothing was measured: auto
// keeps the step-by-step engine there.
//
// Devices of no measured class, and precisions a device's table has not measured
// (hi_kernel_choice.cpp): tiling (the default before auto) and fast-split (its group size
// follows the device's SM count), and the fused engine only up to one warp (N <= 32), where any GPU
// is launch-bound.
#include "stokesian/backends/hi_kernel_choice.hpp"

#include <array>

namespace stokesian::backends {

namespace {

constexpr table_row hopper_rows[] = {
    {precision::f32, 1000, "ordered-split", "fast-split"},        // 0.02192 / 0.01507 ms
    {precision::f32, 3000, "ordered-split", "fast-far-split"},    // 0.08048 / 0.03965
    {precision::f32, 10000, "ordered-split", "fast-far-split"},   // 0.5671 / 0.3127
    {precision::f32, 30000, "ordered-split", "fast-far-split"},   // 4.726 / 2.47
    {precision::f32, 100000, "small-tiling", "fast-far-split"},   // 40.83 / 25.6
    {precision::f32, 200000, "small-tiling", "fast-far-split"},   // 151.7 / 105.8
    {precision::ds, 1000, "ordered-split", "fast-far-split"},     // 0.04896 / 0.01619
    {precision::ds, 3000, "ordered-split", "fast-far-split"},     // 0.1664 / 0.04685
    {precision::ds, 10000, "ordered-split", "fast-far-split"},    // 1.066 / 0.3637
    {precision::ds, 30000, "ordered-split", "fast-far-split"},    // 6.735 / 2.792
    {precision::ds, 100000, "tiling", "fast-far-split"},          // 55.39 / 28.93
    {precision::ds, 200000, "small-tiling", "fast-far-split"},    // 207.1 / 114.6
    {precision::f64, 1000, "ordered-split", "fast-split"},        // 0.02998 / 0.02013
    {precision::f64, 3000, "ordered-split", "fast-far-split"},    // 0.1194 / 0.07046
    {precision::f64, 10000, "ordered-split", "fast-far-split"},   // 1.06 / 0.6017
    {precision::f64, 30000, "ordered-split", "fast-far-split"},   // 6.988 / 4.482
    {precision::f64, 100000, "ordered-split", "fast-far-split"},  // 61.87 / 45.47
    {precision::f64, 200000, "ordered-split", "fast-far-split"},  // 231.9 / 171.4
};

constexpr table_row hopper_open_rows[] = {
    {precision::f32, 864, "ordered-split", "fast-far-split"},     // 0.01501 / 0.008368 ms
    {precision::f32, 10976, "ordered-split", "fast-far-split"},   // 0.5494 / 0.2269
    {precision::f32, 42592, "ordered-split", "fast-far-split"},   // 6.628 / 3.048
    {precision::f32, 108000, "far-tiling", "fast-far-split"},     // 35.6 / 17.53
    {precision::f32, 202612, "far-tiling", "fast-far-split"},     // 110.8 / 61.56
    {precision::ds, 864, "ordered-split", "fast-far-split"},      // 0.03738 / 0.00976
    {precision::ds, 10976, "ordered-split", "fast-far-split"},    // 0.9581 / 0.2907
    {precision::ds, 42592, "ordered-split", "fast-far-split"},    // 10.31 / 3.647
    {precision::ds, 108000, "ordered-split", "fast-far-split"},   // 54.73 / 20.55
    {precision::ds, 202612, "far-tiling", "fast-far-split"},      // 167.5 / 72.69
    {precision::f64, 864, "ordered-split", "fast-far-split"},     // 0.02125 / 0.01355
    {precision::f64, 10976, "ordered-split", "fast-far-split"},   // 0.8969 / 0.6642
    {precision::f64, 42592, "ordered-split", "fast-far-split"},   // 9.928 / 6.376
    {precision::f64, 108000, "ordered-split", "fast-far-split"},  // 57.32 / 37.1
    {precision::f64, 202612, "ordered-split", "fast-far-split"},  // 174.8 / 121.4
};

// {hi, {periodic, open}, {periodic, open with short-range forces}, {periodic, open on two devices},
// {the same with short-range forces}}; the comments: the next measured N and fused's time there
// against ordered-split's (none: the largest measured N).
constexpr fused_bound hopper_fused[] = {
    // -, - / 8788 (1.18x), - / -, - / 24 576 (1.09x), -
    {precision::f32, {24576, 23328}, {6912, 23328}, {24576, 42592}, {16384, 23328}},
    // 8192 (1.12x), 10 976 (1.18x) / 8788 (1.05x), - / 16 384 (1.11x), 10 976 (1.02x) / 24 576 (1.24x), -
    {precision::ds, {6144, 6912}, {6912, 23328}, {12288, 6912}, {16384, 23328}},
    // 12 288 (1.34x), - / 5324 (1.10x), - / 12 288 (1.19x), - / 12 288 (1.19x), -
    {precision::f64, {8192, 23328}, {4000, 23328}, {8192, 42592}, {8192, 23328}},
};

// One row and one fused bound per precision of the list (numeric/precision_traits.hpp), so a new
// precision has them.
constexpr auto fallback_rows = [] {
    std::array<table_row, precisions.size()> rows{};
    for (std::size_t k = 0; k < precisions.size(); ++k) rows[k] = {precisions[k], 1, "tiling", "fast-split"};
    return rows;
}();
constexpr auto fallback_fused = [] {
    std::array<fused_bound, precisions.size()> bounds{};
    for (std::size_t k = 0; k < precisions.size(); ++k) bounds[k] = {precisions[k], {32, 32}, {32, 32}, {0, 0}, {0, 0}};
    return bounds;
}();

constexpr device_table tables[] = {
    {"9.0",
     {"NVIDIA H200, 2026-11-29", "engine/docs/gpu-runs/2026-11-29-h200-two-targets-committed-bound.csv",
      "engine/docs/gpu-runs/2026-11-29-h200-fused-short-range-bound.csv",
      "engine/docs/gpu-runs/2026-11-29-h200x2-fused-two-devices-bound.csv",
      "engine/docs/gpu-runs/2026-11-29-h200x2-fused-two-devices-short-range-bound.csv", hopper_fused},
     {"NVIDIA H100 80GB HBM3, 2026-11-27", "engine/docs/gpu-runs/2026-11-27-h100-bench-hi-far.csv", hopper_rows},
     {"NVIDIA H100 80GB HBM3, 2026-11-27", "engine/docs/gpu-runs/2026-11-27-h100-bench-peers-ordered.csv",
      hopper_open_rows}},
};

constexpr device_table fallback{"", {"", "", "", "", "", fallback_fused}, {"", "", fallback_rows}, {}};

}  // namespace

std::span<const device_table> measured_tables() { return tables; }

const device_table& fallback_table() { return fallback; }

}  // namespace stokesian::backends
