// The last file actions of a run, in an order a kill cannot turn into lost or stray files
// (completion_order.hpp).
#include "completion_order.hpp"

namespace stokesian {

std::vector<completion_action> completion_order(bool run_completed, bool checkpoint_on_disk) {
    using a = completion_action;
    // No checkpoint: the journal can serve no --resume; gone before the output takes its name.
    if (!checkpoint_on_disk) return {a::remove_journal, a::rename_output};
    // A stopped run keeps both for --resume.
    if (!run_completed) return {a::rename_output};
    // The journal before the checkpoint: a kill in between leaves the state --resume reports
    // completed and cleans up (completed_run.hpp), never a journal without its checkpoint.
    return {a::rename_output, a::remove_journal, a::remove_checkpoint};
}

}  // namespace stokesian
