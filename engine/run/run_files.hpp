#pragma once
// The files around a run's output: its checkpoint, and the partial output a resumed run continues.
#include <filesystem>

namespace stokesian {

// "<output>.partial": the output while its run goes on.
std::filesystem::path partial_of(const std::filesystem::path& output);

// A fresh run must not silently discard an interrupted run's checkpoint: without `force` it
// throws input_error telling how to resume or start afresh.
void refuse_stale_checkpoint(const std::filesystem::path& output, const std::filesystem::path& checkpoint, bool force);
// Removes a checkpoint and a temporary one a kill may have left (missing files are fine).
void remove_checkpoint(const std::filesystem::path& checkpoint) noexcept;

// Resuming needs the checkpoint; without it, one line saying why there is nothing to resume.
void require_checkpoint(const std::filesystem::path& output, const std::filesystem::path& checkpoint);

// Makes <output>.partial the file to continue. After a kill it is there already; after a signal
// the run closed its output under the final name with an "interrupted" status, and that file
// moves back to the partial name. Returns true when it moved the final file (undo_reclaim puts
// it back if the resume fails before it starts). Throws input_error for a completed or failed
// run's file. Neither file is needed: the resumed run rebuilds its output from the checkpoint.
bool reclaim_output_for_resume(const std::filesystem::path& output);
void undo_reclaim(const std::filesystem::path& output) noexcept;

}  // namespace stokesian
