#pragma once
// Per-phase timing of the CUDA engine's steps (drift, forces + lubrication, hydrodynamic
// interactions) for `stokesian bench fcc` (paper, Fig. 2b): the engine's own step loop with CUDA
// events around each primitive (core/phase_timing.hpp, cuda/phase_event_timer.cuh). Host-only.
#include <vector>

#include "stokesian/core/phase_timing.hpp"

namespace stokesian::cuda {

// Builds a step-by-step CUDA engine for `config` (any precision mode, any step-by-step hi_kernel:
// naive, tiling, small-tiling, ...; the fused path runs whole steps inside one launch and has no
// phases: std::invalid_argument) and runs `run`. Per-step durations come from CUDA events; the
// statistics are over the timed steps. The description names the device, its clocks, driver and
// runtime. Throws cuda_error without a device.
phase_timing time_phases(const engine_config& config, const initial_state& state, const phase_run& run);

// The same on the devices `ordinals` names (bench fcc --devices; engine/docs/multi-gpu.md): one
// ordinal, the step-by-step engine on that device; several, the engine on all of them (target
// slices, NCCL all-gathers). communication_ms: the mean time per timed step of the all-gathers,
// on the first device from the end of its HI kernels to the end of the collectives (the transfer
// and the wait for the slowest device; part of the HI phase); 0 on one device.
struct device_phase_timing {
    phase_timing phases;
    double communication_ms = 0.0;
};
device_phase_timing time_phases_on_devices(const engine_config& config, const initial_state& state,
                                           const phase_run& run, const std::vector<int>& ordinals);

}  // namespace stokesian::cuda
