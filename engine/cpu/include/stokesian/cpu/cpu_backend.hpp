#pragma once
#include <memory>

#include "stokesian/core/communicator.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/mobility_operator.hpp"

namespace stokesian::cpu {
// A CPU engine for any precision mode. With `ranks` of several processes (MPI) each computes the HI
// sums of its target slice and gathers the others' (cpu_engine.hpp); every rank makes the same calls.
std::unique_ptr<engine> make_cpu_engine(const engine_config& config, const initial_state& state,
                                        communicator* ranks = nullptr);
// v = mu F in double by the all-pairs loop on `threads` workers (0: all cores): cpu_mobility_operator.cpp.
std::unique_ptr<mobility_operator> make_cpu_mobility_operator(const system_parameters& system,
                                                              const std::vector<vec3<double>>& positions,
                                                              unsigned threads);
}  // namespace stokesian::cpu
