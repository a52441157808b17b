#pragma once
// The segments of a run verified in segments (stokesian/run/segments.hpp), run as the members of
// one batch engine (segment_batch.cpp): on CUDA one fused launch sequence for all of them, on the
// CPU one engine per segment on a pool of threads.
#include <cstdint>
#include <string>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/run/segments.hpp"

namespace stokesian {

struct segment {
    std::uint64_t from = 0, to = 0;
    std::vector<frame> samples;  // at the run's sample steps in (from, to]
    std::string failure;         // "" : it ended bit for bit at its boundary
};

// "" when `end` is the stored state at the end of segment k bit for bit, else why not.
std::string boundary_mismatch(const engine_state& end, const boundary_states& b, std::size_t k);
// "" when the stored state at the end of segment k matches its stored digest, else why not.
std::string stored_state_fault(const boundary_states& b, std::size_t k);

// Runs the segments as the members of one batch (batch_key(request) is not empty); the index of the
// first that failed (or segments.size()). Segments after a failed one may be left unrun.
std::size_t run_segments_batched(const run_request& request, const boundary_states& b, std::vector<segment>& segments,
                                 unsigned threads);

}  // namespace stokesian
