#pragma once
// The order in which a run's last file actions happen (run_session::finish). A SIGKILL may land
// between any two; every prefix must leave files that some command recognises and cleans up
// (engine/docs/reliability.md, "Kills"): the resume of a checkpoint needs its frame journal until
// the output has its final name, and a journal without a checkpoint serves no command, so it must
// not outlive the rename (nothing would remove it beside a completed output).
#include <vector>

namespace stokesian {

enum class completion_action { remove_journal, rename_output, remove_checkpoint };

// `run_completed`: the run ran all its steps (a stopped run keeps its checkpoint and journal for
// --resume). `checkpoint_on_disk`: this run wrote or resumed from a checkpoint that is still there.
std::vector<completion_action> completion_order(bool run_completed, bool checkpoint_on_disk);

}  // namespace stokesian
