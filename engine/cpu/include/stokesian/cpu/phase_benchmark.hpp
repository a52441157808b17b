#pragma once
// Per-phase timing of the CPU engine's steps (drift, forces + lubrication, hydrodynamic
// interactions) for `stokesian bench fcc`: the engine's own step loop with std::chrono around each
// primitive (core/phase_timing.hpp).
#include "stokesian/core/phase_timing.hpp"

namespace stokesian::cpu {

// Builds a CPU engine for `config` (any precision mode; hi_kernel all-pairs or symmetric) and runs
// `run`. The description names the thread count.
phase_timing time_phases(const engine_config& config, const initial_state& state, const phase_run& run);

}  // namespace stokesian::cpu
