#pragma once
#include <memory>

#include "stokesian/core/communicator.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian::cpu {
// A CPU engine for any precision mode. With `ranks` of several processes (MPI) each computes the HI
// sums of its target slice and gathers the others' (cpu_engine.hpp); every rank makes the same calls.
std::unique_ptr<engine> make_cpu_engine(const engine_config& config, const initial_state& state,
                                        communicator* ranks = nullptr);
}  // namespace stokesian::cpu
