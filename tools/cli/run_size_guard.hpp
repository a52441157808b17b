#pragma once
// `stokesian run` on a large system: states the estimated cost of a step before the run starts,
// and refuses (exit 2) a run whose first step would take longer than a limit (an hour unless
// --first-step-limit says otherwise) or need more memory than is available, unless --force
// (docs/reference/cli.md, engine/docs/reliability.md).
#include <atomic>

#include "stokesian/core/scenario.hpp"

namespace stokesian::cli {

inline constexpr double default_first_step_limit_seconds = 3600.0;

// Prints the estimate on stderr (one line) for systems above run_size_min_particles; throws
// input_error naming the scenario when the initial velocity evaluation and the first step would
// take longer than `limit_seconds` or the memory exceeds what is available, and !force. The timing
// stops with step_interrupted when `interrupt` is raised.
void guard_run_size(const scenario& s, unsigned threads, const std::atomic<int>* interrupt, double limit_seconds,
                    bool force);

}  // namespace stokesian::cli
