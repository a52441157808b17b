#pragma once
// Making an engine or a batch: the backend the configuration names, chosen through the backend
// registry (stokesian/backends/registry.hpp), which alone knows which backends this build has.
// Defined in the backends layer (engine/backends/engine_factory.cpp); the engine interfaces it returns
// are the model's (core/engine.hpp, core/batch.hpp).
#include <memory>
#include <string>
#include <vector>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/device_context.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian {

// Builds the engine the configuration names on the default device context. Throws
// std::invalid_argument for an unknown backend (the message lists the registered ones). "auto" picks
// the most preferred backend available here that can run the system: CUDA when a device is
// present, otherwise the CPU (with a notice on stderr).
std::unique_ptr<engine> make_engine(const engine_config& config, const initial_state& state);

// Builds a batch on config.backend (a registered backend that batches, or "auto": CUDA when a
// device is present, otherwise the CPU with a notice on stderr); config.dt is ignored (each member
// has its own).
// CPU: one engine per member, members distributed over config.threads threads, each engine
// single-threaded. CUDA: one launch advances all members (one warp or one block per member).
// Throws std::invalid_argument for an empty batch, members of different particle numbers, a member
// without particles, mismatched force counts, a non-positive or non-finite dt, an unknown backend,
// or (CUDA) more particles per member than one block holds; cuda_error for device failures.
std::unique_ptr<batch_engine> make_batch_engine(const engine_config& config, const std::vector<batch_member>& members);

namespace backends {

// The same on a given device context.
std::unique_ptr<engine> make_engine(const engine_config& config, const device_context& device,
                                    const initial_state& state);
// The engine of a backend resolved once (registry::resolve, then registry::choose_kernel on
// `device`): its description names both choices (backend_choice, hi_kernel_choice).
std::unique_ptr<engine> make_engine(const registry::resolved& r, const device_context& device,
                                    const initial_state& state);
std::unique_ptr<batch_engine> make_batch_engine(const engine_config& config, const device_context& device,
                                                const std::vector<batch_member>& members);

}  // namespace backends

}  // namespace stokesian
