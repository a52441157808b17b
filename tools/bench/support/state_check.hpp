#pragma once
// What the benchmarks of steps check their states with (core/phase_timing.hpp, phase_run::blow_up).
// The paper's explicit lubrication scheme tears the fcc lattice apart within a few steps where
// rounding seeds it strongly (f32 at N ~ 2e5), so with lubrication the states between resets are
// checked as a run checks its samples (stokesian/run/blow_up.hpp: non-finite values, a move of more
// than half a box in one step), without the floor on centre distances, which a uniform random system
// may start below. Without lubrication nothing is checked: the steps stay sane.
#include <cstdint>
#include <functional>
#include <string>

#include "bench_inputs.hpp"
#include "stokesian/core/phase_timing.hpp"

namespace stokesian::bench {

std::function<std::string(const frame&)> state_check(const benchmark_system& s, double dt);

// The line that says so where a benchmark took fewer steps between resets than `requested`
// (phase_timing::blown_up_by), else "".
std::string fewer_resets_note(std::uint64_t requested, const phase_timing& t);

}  // namespace stokesian::bench
