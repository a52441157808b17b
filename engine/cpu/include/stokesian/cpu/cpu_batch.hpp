#pragma once
// The CPU batch (stokesian/core/batch.hpp): one cpu_engine per member, each single-threaded, the
// members distributed over a thread pool. A cpu_engine's trajectory does not depend on its number of
// threads (every loop body writes only its own particle and sums in a fixed order), so each member
// is bitwise the system run alone with make_engine().
#include <memory>
#include <vector>

#include "stokesian/core/batch.hpp"

namespace stokesian::cpu {
// `members` have been validated by make_batch_engine (same N > 0, finite dt > 0).
std::unique_ptr<batch_engine> make_cpu_batch_engine(const engine_config& config,
                                                    const std::vector<batch_member>& members);
}  // namespace stokesian::cpu
