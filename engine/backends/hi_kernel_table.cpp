// The measured kernel table of --hi-kernel auto|fast (stokesian/backends/hi_kernel_choice.hpp;
// engine/docs/performance.md, "The kernel choice", says how it was derived).
//
// Compute capability 9.0 (Hopper: H100, H200, GH200; 132 SMs on the SXM parts), the fastest kernel of
// each class at each N and HI precision of a measured file (tests/backends/hi_kernel_choice_test.cpp
// recomputes every row from its CSV and fails on a difference). Exact: among tiling, small-tiling,
// far-tiling, ordered-split and adding-warps (the kernels that sum in the CPU's order; naive is in
// neither file: it was 1.1-1.7x slower than tiling at every N and mode of
// 2026-11-26-h200-bench-hi.csv). Fast: among fast-split and fast-far-split. Both files in one
// sitting on one NVIDIA H200 (the build of 658de23: adding-warps in its unit-mobility form and in
// full rounds of a measured tile, engine/docs/performance.md "2026-11-30 (seventh)"):
//  - periodic boxes: engine/docs/gpu-runs/2026-11-30-h200-bench-hi-kernels-full-rounds.csv
//    (`stokesian bench hi`, uniform random positions at n = 0.1 a^-3, periodic box, block 128,
//    median of 5);
//  - open boxes: engine/docs/gpu-runs/2026-11-30-h200-bench-fcc-kernels-open-full-rounds.csv
//    (`bench fcc`, the fcc lattice at n = 0.1 a^-3, open box, median; the steps of ci/gpu-bench-peers).
// adding-warps leads the exact kernels up to N ~ 3e4 in periodic boxes and ~1e5 in open ones in f32
// and f64 (open, against ordered-split: 1.12x / 1.63x at N = 864 in f32 / f64, 1.55x / 1.40x at
// 10 976, 1.26x / 1.14x at 42 592, 1.05x / 1.01x at 108 000) and up to ~1e4 in ds, whose float_float
// chains set its pace; above, where its rounds of N-long chains add up, ordered-split (which runs
// far-tiling itself there), far-tiling and (ds, periodic) small-tiling lead, within 1-4 % of each
// other.
//
// The fused bounds (the fused engine under auto), per HI precision and box kind: measured by
// `ci/gpu-hi-auto` on an NVIDIA H200 (cc 9.0 like the H100;
// engine/docs/gpu-runs/2026-11-30-h200-one-round-targets-a-step-bound.csv, the build with several
// targets a step in one round): the fused engine (its grid kernel: one system on the whole device,
// whole steps in one launch) against the exact kernels auto takes step by step at these sizes,
// ordered-split and adding-warps, on periodic simple cubic lattices
// (N = 4 ... 24 576) and open fcc lattices (N = 864 ... 23 328), no lubrication. Each bound is the
// largest measured N up to which fused was at least as fast as each of them at every measured N
// (tests/backends/hi_kernel_choice_test.cpp derives them from the CSV). adding-warps is the grid
// kernel's velocity phase alone, and with mu0 = 1 (every scenario of the sweeps, the paper's units)
// it takes its unit-mobility form, three multiplications a pair term fewer than the grid kernel's
// one form, and for large systems full rounds of its measured tile (cuda/fused_grid_shape.hpp), where
// the grid kernel keeps equal tiles: where one step's arithmetic dominates it is faster step by step,
// so the fused engine stops at N ~ 4000 in open boxes (f32, f64) and at 6144 (f32) and 3072 (f64) in
// periodic ones (adding-warps 10 % ahead at 8192 in f32, 1.3 % at 4096 in f64). ds stops at
// N ~ 6000-7000 for another reason: above its grid kernel costs 2.0-2.8x its f32 (the adding lanes'
// float_float chain: 7 dependent operations an addition against f32's one) and trails
// ordered-split, whose ds costs 1.4-2.0x its f32, by up to 1.5x.
// With short-range forces (lubrication, a pair force) the fused engine tests every pair for them
// and the step-by-step engine builds neighbour lists, a warp a particle, from a cell list in a
// periodic box and from every particle in an open one (short_range_kernels.cuh), without waiting for
// the device at any step (lagged_readback.hpp): measured by `ci/gpu-hi-auto` with `bench fcc` (the
// paper's lattice, lubrication on, 12 neighbours a particle; whole steps timed without phase events;
// engine/docs/gpu-runs/2026-11-30-h200-lagged-longest-row-short-range-bound.csv), N = 256 ... 23 328,
// the fused engine leads up to N = 2048 in both boxes and every precision but f64 in a periodic box
// (864: at 2048 the step-by-step engine is 2 % faster). At N = 4000 the step-by-step engine leads
// by 1-2 % in open boxes and by 1.2-1.4x in periodic ones. In open boxes the fused engine leads
// again by 1-5 % at some larger N (f32 5324-10 976, ds 6912); the bound stops at the first loss.
//
// On two devices (the fused engine's grid kernel on each, a slice of the targets, against
// ordered-split and adding-warps on the same two, their HI sum sliced and all-gathered with NCCL a
// step): measured by `ci/gpu-hi-auto` on two NVIDIA H200 of one host (NVLink;
// engine/docs/gpu-runs/2026-11-30-h200x2-full-tiles-two-devices-bound.csv), the same lattices, open
// ones up to N = 42 592, no lubrication. The step-by-step engine's per-step gather costs it ~40 us at
// every N, so the fused engine leads further: periodic boxes up to 12 288 (f32, ds) and 4096 (f64,
// where the two tie (0.2 %) at 8192), open boxes up to 6912. With short-range forces on two devices
// (the same lattices with a pair force, the exponential repulsion of scenarios/random_suspension.toml;
// engine/docs/gpu-runs/2026-12-01-h200x2-lagged-longest-row-two-devices-short-range-bound.csv) the
// fused engine leads in open boxes at every measured N (N = 864 ... 23 328: the step-by-step engine
// builds its lists from every particle there, and gathers a step) and in periodic ones up to N = 8192
// (f32, ds) and 4096 (f64), where the step-by-step engine's cell list pays. On more than two devices nothing
// was measured: auto keeps the step-by-step engine there.
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
    {precision::f32, 1000, "adding-warps", "fast-far-split"},     // 0.01424 / 0.01466 ms
    {precision::f32, 3000, "adding-warps", "fast-far-split"},     // 0.04931 / 0.03494
    {precision::f32, 10000, "adding-warps", "fast-far-split"},    // 0.4155 / 0.2785
    {precision::f32, 30000, "adding-warps", "fast-far-split"},    // 3.615 / 2.346
    {precision::f32, 100000, "far-tiling", "fast-far-split"},     // 37.32 / 25.78
    {precision::f32, 200000, "small-tiling", "fast-far-split"},   // 141.8 / 105.8
    {precision::ds, 1000, "adding-warps", "fast-far-split"},      // 0.03427 / 0.01542
    {precision::ds, 3000, "adding-warps", "fast-far-split"},      // 0.09955 / 0.03962
    {precision::ds, 10000, "adding-warps", "fast-far-split"},     // 0.9077 / 0.3224
    {precision::ds, 30000, "ordered-split", "fast-far-split"},    // 6.318 / 2.717
    {precision::ds, 100000, "small-tiling", "fast-far-split"},    // 50.84 / 29.05
    {precision::ds, 200000, "small-tiling", "fast-far-split"},    // 192 / 115.1
    {precision::f64, 1000, "adding-warps", "fast-far-split"},     // 0.01952 / 0.01994
    {precision::f64, 3000, "adding-warps", "fast-far-split"},     // 0.09152 / 0.06954
    {precision::f64, 10000, "adding-warps", "fast-far-split"},    // 0.7448 / 0.4884
    {precision::f64, 30000, "adding-warps", "fast-far-split"},    // 6.401 / 4.702
    {precision::f64, 100000, "ordered-split", "fast-far-split"},  // 59.55 / 45.47
    {precision::f64, 200000, "far-tiling", "fast-far-split"},     // 224.3 / 171.5
};

constexpr table_row hopper_open_rows[] = {
    {precision::f32, 864, "adding-warps", "fast-far-split"},      // 0.01299 / 0.01144 ms
    {precision::f32, 10976, "adding-warps", "fast-far-split"},    // 0.3224 / 0.2062
    {precision::f32, 42592, "adding-warps", "fast-far-split"},    // 4.689 / 3.01
    {precision::f32, 108000, "adding-warps", "fast-far-split"},   // 30.17 / 17.53
    {precision::f32, 202612, "ordered-split", "fast-far-split"},  // 98.09 / 63.44
    {precision::ds, 864, "adding-warps", "fast-far-split"},       // 0.02778 / 0.01168
    {precision::ds, 10976, "ordered-split", "fast-far-split"},    // 0.7824 / 0.2452
    {precision::ds, 42592, "ordered-split", "fast-far-split"},    // 9.429 / 3.63
    {precision::ds, 108000, "far-tiling", "fast-far-split"},      // 50.13 / 21.04
    {precision::ds, 202612, "far-tiling", "fast-far-split"},      // 155.2 / 75.78
    {precision::f64, 864, "adding-warps", "fast-far-split"},      // 0.01259 / 0.01334
    {precision::f64, 10976, "adding-warps", "fast-far-split"},    // 0.5841 / 0.4376
    {precision::f64, 42592, "adding-warps", "fast-far-split"},    // 8.328 / 6.383
    {precision::f64, 108000, "adding-warps", "fast-far-split"},   // 53.1 / 37.12
    {precision::f64, 202612, "far-tiling", "fast-far-split"},     // 165.3 / 122.4
};

// {hi, {periodic, open}, {periodic, open with short-range forces}, {periodic, open on two devices},
// {the same with short-range forces}}; the comments: the next measured N and the fastest step-by-step
// kernel's time there against fused's (none: the largest measured N).
constexpr fused_bound hopper_fused[] = {
    // 8192 (0.90x), 6912 (0.90x) / 4000 (0.69x), 4000 (0.99x) / 16 384 (0.94x), 10 976 (0.98x) / 12 288 (0.91x), -
    {precision::f32, {6144, 4000}, {2048, 2048}, {12288, 6912}, {8192, 23328}},
    // 8192 (0.89x), 10 976 (0.84x) / 4000 (0.85x), 4000 (0.99x) / 16 384 (0.90x), 10 976 (0.97x) / 12 288 (0.94x), -
    {precision::ds, {6144, 6912}, {2048, 2048}, {12288, 6912}, {8192, 23328}},
    // 4096 (0.99x), 6912 (0.95x) / 2048 (0.98x), 4000 (0.98x) / 8192 (0.998x), 10 976 (0.98x) / 8192 (0.86x), -
    {precision::f64, {3072, 4000}, {864, 2048}, {4096, 6912}, {4096, 23328}},
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
     {"NVIDIA H200, 2026-11-30 to 2026-12-01",
      "engine/docs/gpu-runs/2026-11-30-h200-one-round-targets-a-step-bound.csv",
      "engine/docs/gpu-runs/2026-11-30-h200-lagged-longest-row-short-range-bound.csv",
      "engine/docs/gpu-runs/2026-11-30-h200x2-full-tiles-two-devices-bound.csv",
      "engine/docs/gpu-runs/2026-12-01-h200x2-lagged-longest-row-two-devices-short-range-bound.csv", hopper_fused},
     {"NVIDIA H200, 2026-11-30", "engine/docs/gpu-runs/2026-11-30-h200-bench-hi-kernels-full-rounds.csv", hopper_rows},
     {"NVIDIA H200, 2026-11-30", "engine/docs/gpu-runs/2026-11-30-h200-bench-fcc-kernels-open-full-rounds.csv",
      hopper_open_rows}},
};

constexpr device_table fallback{"", {"", "", "", "", "", fallback_fused}, {"", "", fallback_rows}, {}};

}  // namespace

std::span<const device_table> measured_tables() { return tables; }

const device_table& fallback_table() { return fallback; }

}  // namespace stokesian::backends
