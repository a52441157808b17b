#pragma once
// Batched runs (engine/README.md, "Batched runs"): runs that differ only in their initial state,
// dt, length, sampling and outputs -- the same backend and kernel, N, precision mode, integrator,
// physics and device -- advanced by ONE batch engine (core/batch.hpp): on CUDA one fused launch
// sequence for all of them instead of one per run. Each run still gets exactly its own outputs
// (H5MD file, samples every sample_every, observables, checks, status, wall time, checkpoints,
// resume), bit for bit what it gets alone: every member of a batch is bitwise the run alone
// (core/batch.hpp), and each run's samples are its own sample steps. A run that ends (completed,
// failed, stopped) leaves the batch; the others go on in a batch rebuilt from their states.
// The provenance of each run says it ran batched: engine parameters batch_id, batch_members and
// batch_member.
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/run/run.hpp"

namespace stokesian {

// Equal non-empty keys may share a batch. Empty when the run cannot be batched (alone it would not
// run on what a batch runs: CUDA runs batch when they run the fused engine, CPU runs on the CPU
// backend; not across MPI ranks), with the reason in `why` when given.
std::string batch_key(const run_request& request, std::string* why = nullptr);

// What a batch is called in its runs' provenance.
struct batch_label {
    std::string id;                    // e.g. "nightly/batch-2"
    std::vector<std::string> members;  // the runs' names, in request order
};

// A run's end: its result, or what it threw (as run_scenario would have thrown it).
struct batched_outcome {
    std::optional<run_result> result;
    std::exception_ptr error;
};

// Called once per run as soon as it has ended, with its index in the requests.
using batched_end = std::function<void(std::size_t, const batched_outcome&)>;

// Runs the requests (equal batch_key) as one batch, on the calling thread; one outcome per request,
// in order (each also given to `on_end` when the run ends). Throws before any run starts (no output
// touched) when the batch cannot be built: the caller may run them alone.
std::vector<batched_outcome> run_batched(const std::vector<const run_request*>& requests, const batch_label& label,
                                         batched_end on_end = {});

}  // namespace stokesian
