#pragma once
// What a run puts into its checkpoint besides the engine's words, and takes back on resume
// (engine/docs/reliability.md, "Checkpoints").
#include <filesystem>
#include <memory>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/observables/observable.hpp"

namespace stokesian {

// A state with a non-finite word is never checkpointed: resuming it could only blow up again.
bool finite_state(const engine_state& s);

// Each observable's kind and state, in run order, into the checkpoint.
void save_observables(const std::vector<std::unique_ptr<observable>>& observables, io::run_checkpoint& c);

// Restores the observables of a checkpoint, in run order; a list or state that does not fit this
// run's observables is one input_error naming the checkpoint group.
void restore_observables(std::vector<std::unique_ptr<observable>>& observables, const io::run_checkpoint& c,
                         const std::filesystem::path& path);

}  // namespace stokesian
