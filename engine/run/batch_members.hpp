#pragma once
// The batch of a group of batched runs (run/batched_runs.hpp) and each run's view of it.
//
// shared_batch owns ONE batch engine (core/batch.hpp) over the runs of a group and maps each run
// onto its member: the run's step is its base (where it stood when the batch was built or its
// state restored) plus the batch's step, and its frames are the member's with that step and
// time = step x dt (the formula of fill_frame, core/host_state.hpp). A run that ends leaves the
// batch: keep_only() builds a batch of the others, each continuing from its state bit for bit
// (batch_engine::save_member_state / restore_member_state), so no launch steps a finished member.
//
// member_handle() gives a run_session its engine: reads, checkpoints and restores go to the run's
// member; advancing is the group's (batched_runs.cpp), so advance() is a logic error.
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "stokesian/core/batch.hpp"
#include "stokesian/core/device_context.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian::backends {
struct backend;
}

namespace stokesian {

// Where a run computes: its engine configuration with the backend and kernel resolved, its device,
// and the backend chosen -- what a batch of it is built from.
struct batch_placement {
    engine_config config;
    device_context device;
    const backends::backend* backend = nullptr;
};
batch_placement placement_of(const run_request& request);

class shared_batch {
public:
    static constexpr std::size_t absent = std::numeric_limits<std::size_t>::max();

    // One member per run (its initial state and dt), in run order; `label` (batch_id, members) is
    // added to every member's description for the provenance. Throws as make_batch_engine does.
    shared_batch(const engine_config& config, const device_context& device, std::vector<batch_member> runs,
                 std::map<std::string, std::string> label);

    std::unique_ptr<engine> member_handle(std::size_t run);

    // The runs in the batch, in member order.
    const std::vector<std::size_t>& members() const { return members_; }
    // Rebuilds the batch over `runs` (a subset of members(), in order), each from its current state.
    void keep_only(const std::vector<std::size_t>& runs);

    batch_engine& batch() { return *batch_; }
    std::size_t member_of(std::size_t run) const { return slot_.at(run); }  // absent: not in the batch
    std::uint64_t run_step(std::size_t run) const { return base_.at(run) + batch_->step(); }
    // A frame of the batch (its step the batch's) as the run's: its step and time.
    void as_run_frame(std::size_t run, frame& f) const;

    void read_frame(std::size_t run, frame& out) const;
    void save_state(std::size_t run, engine_state& out) const;
    void restore_state(std::size_t run, const engine_state& state);
    // The batch's description, the run's place in it added (batch_id, batch_members, batch_member).
    engine_description description(std::size_t run) const;
    std::size_t particles() const { return runs_.front().state.size(); }

private:
    std::size_t in_batch(std::size_t run) const;  // member_of, or std::logic_error

    engine_config config_;
    device_context device_;
    std::vector<batch_member> runs_;  // initial state and dt of every run of the group
    std::map<std::string, std::string> label_;
    std::unique_ptr<batch_engine> batch_;
    std::vector<std::size_t> members_;  // batch member -> run
    std::vector<std::size_t> slot_;     // run -> batch member (absent: not in the batch)
    std::vector<std::uint64_t> base_;   // run -> its step at the batch's step 0
};

}  // namespace stokesian
