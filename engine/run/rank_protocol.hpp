#pragma once
// A run across MPI ranks (`mpirun -n R stokesian run ...`; engine/README.md, "Runs across MPI
// ranks"). Rank 0 runs the run_session as alone: it alone reads the input, writes the output,
// checkpoints and journal, holds the lock and decides when to sample, checkpoint or stop. The other
// ranks read and write nothing: they follow rank 0's engine calls, told by these messages, so that
// every rank makes the same collective calls (the HI gathers inside each step) in the same order:
//
//   build    the run's record (run_record: scenario text and run settings, as a checkpoint holds
//            them), rank 0's resolved backend and HI kernel (auto and fast are rank 0's choice:
//            a tuning cache or device class elsewhere must not give a rank another kernel) and the
//            device selection: every rank builds the same engine (with a device backend, on a
//            device of its own: core/rank_devices.hpp). Before any rank builds, each says what
//            it could not prepare (its backend unavailable on its host, ...) and all take one
//            verdict (gather_rank_problems): a problem only one rank sees is rank 0's line too.
//   restore  an engine_state (a resumed run): every rank restores it
//   advance, advance_sampled   the same steps on every rank
//   end      the outcome (status, failed, signal): every rank exits as rank 0 does
//
// Every state-changing engine call of rank 0 goes through rank_leader_engine, which sends the
// message first. An error on any rank ends all of them (the CLI's MPI_Abort), never a hang; a
// device error on any rank is rank 0's to answer with a checkpoint before it ends them
// (engine/docs/multi-gpu.md, "Several hosts").
#include <map>
#include <memory>
#include <string>

#include "stokesian/core/communicator.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian {

// Rank 0, before building its engine with `config` (backend and HI kernel resolved: no auto or
// fast) on `devices` (run.devices): the others build theirs. Collective with their preparation:
// throws input_error "MPI rank R: ..." when a rank cannot build (every rank throws it alike).
void announce_build(communicator& ranks, std::map<std::string, std::string> record, const engine_config& config,
                    const device_selection& devices);
// Rank 0's engine, telling the other ranks each state-changing call before making it.
std::unique_ptr<engine> lead_ranks(std::unique_ptr<engine> inner, communicator& ranks);
// Rank 0, once the run has ended (the result it returns).
void announce_end(communicator& ranks, const run_result& result);

}  // namespace stokesian
