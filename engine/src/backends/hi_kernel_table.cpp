// The measured kernel table of --hi-kernel auto|fast (stokesian/backends/hi_kernel_choice.hpp;
// engine/docs/performance.md, "The kernel choice", says how it was derived).
//
// Compute capability 9.0 (Hopper: H100, H200, GH200; 132 SMs on the SXM parts), the fastest kernel of
// each class at each N and HI precision of a measured file (tests/unit/hi_kernel_choice_test.cpp
// recomputes every row from its CSV and fails on a difference):
//  - periodic boxes: engine/docs/gpu-runs/2026-11-26-h200-bench-hi-round3.csv (`stokesian bench hi`,
//    uniform random positions at n = 0.1 a^-3, periodic box, block 128, median of 5, NVIDIA H200).
//    Exact: among tiling, small-tiling and multi-target (naive is not in that file; it was 1.1-1.7x
//    slower than tiling at every N and mode of the first round, 2026-11-26-h200-bench-hi.csv). Fast:
//    among fast-tiling, fast-multi-target and fast-split. The far kernels came later: not in it.
//  - open boxes: engine/docs/gpu-runs/2026-11-27-h100-bench-peers.csv (`ci/gpu-bench-peers`: `bench
//    fcc`, the fcc lattice at n = 0.1 a^-3, open box, median, NVIDIA H100 80GB HBM3). Exact: among
//    tiling and far-tiling; fast: among fast-split and fast-far-split (split and far-split, also in
//    the file, sum in another order than the CPU and are no auto candidates).
// The H100 and H200 share the architecture and SM count.
//
// fused_up_to (the fused engine under auto): not in the CSVs beyond the tetrahedron (N = 4: 2.0e6
// steps/s f32/f32 fused against ~8e4 step by step with tiling, 2026-11-26-h200-bench-small-round3.csv
// and issue #13), so an estimate: a fused step is N sources walked by each of N threads on one SM,
// latency-bound (~435 cycles per pair and thread, the tiling kernel's rate at N = 1000 in the CSV)
// until the SM's issue rate binds (~N = 330 for 32 warps of ~170 instructions per pair), while a
// step of the step-by-step engine is the same walk spread over ceil(N/128) SMs plus >= 3 launches
// (~12 us per step for the tetrahedron on an H100). The crossover is ~370; 256 keeps a margin.
// `ci/gpu-hi-auto` measures it; until then the bound is marked "estimated" in the docs.
//
// Devices of no measured class: tiling (the default before auto) and fast-split (the fastest fast
// kernel at every N of the one measured class; its group size follows the device's SM count), and
// the fused engine only up to one warp (N <= 32), where any GPU is launch-bound.
#include "stokesian/backends/hi_kernel_choice.hpp"

namespace stokesian::backends {

namespace {

constexpr table_row hopper_rows[] = {
    {precision::f32, 1000, "tiling", "fast-split"},          // 0.219 / 0.0152 ms
    {precision::f32, 10000, "tiling", "fast-split"},         // 2.12 / 0.336
    {precision::f32, 200000, "small-tiling", "fast-split"},  // 157.0 / 109.2
    {precision::ds, 1000, "tiling", "fast-split"},           // 0.246 / 0.0176
    {precision::ds, 10000, "tiling", "fast-split"},          // 2.40 / 0.481
    {precision::ds, 200000, "small-tiling", "fast-tiling"},  // 213.2 / 167.8
    {precision::f64, 1000, "tiling", "fast-split"},          // 0.306 / 0.0217
    {precision::f64, 10000, "tiling", "fast-split"},         // 3.00 / 0.668
    {precision::f64, 200000, "small-tiling", "fast-split"},  // 263.0 / 218.1
};

constexpr table_row hopper_open_rows[] = {
    {precision::f32, 864, "far-tiling", "fast-far-split"},     // 0.1315 / 0.01243 ms
    {precision::f32, 10976, "far-tiling", "fast-far-split"},   // 1.56 / 0.2209
    {precision::f32, 42592, "far-tiling", "fast-far-split"},   // 7.824 / 2.954
    {precision::f32, 108000, "far-tiling", "fast-far-split"},  // 34.7 / 17.01
    {precision::f32, 202612, "far-tiling", "fast-far-split"},  // 108.2 / 59.76
    {precision::ds, 864, "far-tiling", "fast-far-split"},      // 0.1634 / 0.01262
    {precision::ds, 10976, "far-tiling", "fast-far-split"},    // 1.968 / 0.2825
    {precision::ds, 42592, "far-tiling", "fast-far-split"},    // 10.67 / 3.531
    {precision::ds, 108000, "far-tiling", "fast-far-split"},   // 53.8 / 19.9
    {precision::ds, 202612, "far-tiling", "fast-far-split"},   // 164.7 / 70.32
    {precision::f64, 864, "far-tiling", "fast-far-split"},     // 0.1755 / 0.01418
    {precision::f64, 10976, "far-tiling", "fast-far-split"},   // 2.099 / 0.656
    {precision::f64, 42592, "far-tiling", "fast-far-split"},   // 11.32 / 5.996
    {precision::f64, 108000, "far-tiling", "fast-far-split"},  // 57.14 / 34.89
    {precision::f64, 202612, "far-tiling", "fast-far-split"},  // 173.2 / 121
};

constexpr table_row fallback_rows[] = {
    {precision::f32, 1, "tiling", "fast-split"},
    {precision::ds, 1, "tiling", "fast-split"},
    {precision::f64, 1, "tiling", "fast-split"},
};

constexpr device_table tables[] = {
    {"9.0",
     256,
     {"NVIDIA H200, 2026-11-26", "engine/docs/gpu-runs/2026-11-26-h200-bench-hi-round3.csv", hopper_rows},
     {"NVIDIA H100 80GB HBM3, 2026-11-27", "engine/docs/gpu-runs/2026-11-27-h100-bench-peers.csv", hopper_open_rows}},
};

constexpr device_table fallback{"", 32, {"", "", fallback_rows}, {}};

}  // namespace

std::span<const device_table> measured_tables() { return tables; }

const device_table& fallback_table() { return fallback; }

}  // namespace stokesian::backends
