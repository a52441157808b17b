#pragma once
// Peak arithmetic rate of a GPU and the arithmetic per pair of the hydrodynamic interactions, for
// the "fraction of peak" column of `stokesian bench fcc` (derivation: engine/docs/performance.md,
// "Arithmetic per pair and the peak rate").
//
// peak = multiprocessors x lanes per multiprocessor x 2 (a fused multiply-add counts as two
// flops) x SM clock. The clock is cudaDevAttrClockRate, the maximum (boost) clock; the clock a
// long run holds depends on power and temperature, so the fraction is a lower bound of the
// fraction of the rate actually available.
#include <optional>
#include <string>

#include "stokesian/numeric/precision.hpp"

namespace stokesian::bench {

// FP32 and FP64 lanes per multiprocessor by compute capability (CUDA C++ Programming Guide,
// "Arithmetic Instructions" throughput table). Nothing for an architecture not in the table.
std::optional<int> fp32_lanes_per_sm(int major, int minor);
std::optional<int> fp64_lanes_per_sm(int major, int minor);

// Gflop/s: multiprocessors x lanes x 2 x clock.
double peak_gflops(int multiprocessors, int lanes_per_sm, double clock_khz);

// Flops of one pair term mu_ij F_j of the HI sum (untied pair, r >= 2a, Rotne-Prager), counting a
// square root, a division or a reciprocal square root as one flop: 41 with a float or double
// accumulator; with the float_float accumulator the three additions become three DWPlusFP of 10
// operations each: 68. All of them run in the working precision's unit: FP32 for the hi = f32 and
// ds modes, FP64 for hi = f64.
int flops_per_pair(precision hi);
// "fp32" or "fp64": the unit the pair arithmetic runs on.
std::string arithmetic_unit(precision hi);

}  // namespace stokesian::bench
