#pragma once
#include <memory>

#include "stokesian/core/engine.hpp"

namespace stokesian::cpu {
// A CPU engine for any precision mode.
std::unique_ptr<engine> make_cpu_engine(const engine_config& config, const initial_state& state);
}  // namespace stokesian::cpu
