// The last file actions of a run (run/completion_order.hpp) against a model of what the commands
// do with the files a kill leaves (engine/docs/reliability.md, "Kills"): after every prefix of the
// actions, `run --resume` or the same command again must find a state it continues or cleans up.
// The long kill test found the order that broke it (#12: a journal left beside a completed output
// by a run killed after its rename, when it had written no checkpoint); this finds it at once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run/completion_order.hpp"

using namespace stokesian;

namespace {

struct files {
    bool partial = true, output = false, journal = true, checkpoint = false;
};

void apply(completion_action action, files& f) {
    switch (action) {
        case completion_action::remove_journal: f.journal = false; break;
        case completion_action::rename_output: f.partial = false, f.output = true; break;
        case completion_action::remove_checkpoint: f.checkpoint = false; break;
    }
}

// "" when a command recognises the state a kill leaves, else why not.
std::string unrecoverable(const files& f) {
    if (f.checkpoint) {
        // --resume: a completed output answers "completed" and removes checkpoint and journal
        // (completed_run.hpp); otherwise it rebuilds the output from the checkpoint and the journal.
        if (!f.output && !f.journal) return "a checkpoint whose frame journal is gone";
        return "";
    }
    // No checkpoint: without an output the same command starts over (removing any journal); with
    // one, the run is over and nothing would ever remove a journal beside it.
    if (f.output && f.journal) return "a frame journal beside the output with no checkpoint to resume";
    return "";
}

}  // namespace

TEST(CompletionOrder, AKillAfterAnyActionLeavesFilesSomeCommandContinuesOrCleansUp) {
    for (const bool completed : {true, false})
        for (const bool checkpoint : {true, false}) {
            files f;
            f.checkpoint = checkpoint;
            const std::vector<completion_action> order = completion_order(completed, checkpoint);
            ASSERT_FALSE(order.empty());
            for (std::size_t k = 0; k < order.size(); ++k) {
                apply(order[k], f);
                EXPECT_EQ(unrecoverable(f), "")
                    << "completed " << completed << ", checkpoint " << checkpoint << ", killed after action " << k;
            }
            // Finished: the output under its final name; a completed run leaves nothing beside it,
            // a stopped one keeps what --resume needs.
            EXPECT_TRUE(f.output && !f.partial);
            if (completed) {
                EXPECT_FALSE(f.journal || f.checkpoint) << "checkpoint " << checkpoint;
            } else if (checkpoint) {
                EXPECT_TRUE(f.journal && f.checkpoint);
            }
        }
}
