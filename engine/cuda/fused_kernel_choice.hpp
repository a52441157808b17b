#pragma once
// Which fused kernel runs a system or a batch, and what the fused engine refuses (fused_engine.cu):
// host code, so that the engine's constructor stays about the device state.
#include <cstddef>
#include <string>

#include "stokesian/core/engine.hpp"
#include "stokesian/cuda/fused_backend.hpp"

namespace stokesian::cuda {

// Throws std::invalid_argument for N = 0 or N > fused_max_particles.
void check_particle_count(std::size_t n);

// `kernel` for `systems` systems of n particles on `devices` devices: automatic picks by N (the grid
// kernel on several devices); a choice that cannot run them throws std::invalid_argument, saying
// why. `grid_refusal`: fused_grid_refusal of the configuration.
fused_kernel_choice resolve_fused_kernel(fused_kernel_choice kernel, unsigned n, unsigned systems, unsigned devices,
                                         const std::string& grid_refusal);

}  // namespace stokesian::cuda
