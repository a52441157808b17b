#pragma once
// run_scenario() as the in-process resume tests call it: one thread, no wall-clock checkpoints,
// stopped after step `stop` (as if interrupted: a checkpoint there), or resuming `out`'s run.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "stokesian/run/run.hpp"

namespace stokesian::test_support {

inline run_result stoppable_run(const scenario& s, const std::filesystem::path& out,
                                std::optional<std::uint64_t> stop = {}, bool resume = false) {
    run_request req;
    req.scenario_ = s;
    req.output.path = out;
    req.threads = 1;
    req.checkpoint_wall_seconds = 0.0;
    req.stop_after_step = stop;
    req.resume = resume;
    return run_scenario(req);
}

}  // namespace stokesian::test_support
