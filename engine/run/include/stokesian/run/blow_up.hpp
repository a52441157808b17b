#pragma once
// Numerical blow-up of a run, detected at every sample (run/run.hpp), and of the benchmarks' states
// (core/phase_timing.hpp, phase_run::blow_up).
#include <string>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"

namespace stokesian {

// Every component finite.
bool finite_vector(const vec3<double>& v);

// The first sign of a numerical blow-up in a sampled frame, or "" when the frame is sane:
// - a non-finite position, velocity or force;
// - (periodic boxes) a particle that would move by more than half a box in one step, which the
//   minimum-image convention and the wrapping cannot represent;
// - two centres closer than run.min_separation (minimum image), the floor below which the pair
//   physics is meaningless (docs/reference/scenario-file.md). The message names the particles.
std::string blow_up_in(const frame& f, const scenario& s);

}  // namespace stokesian
