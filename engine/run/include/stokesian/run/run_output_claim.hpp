#pragma once
// The first thing a run does: every output name checked (io/output_target.hpp) and the run's lock
// taken (io/file_lock.hpp), before the scenario's set-up or the first step, so that a run that
// cannot finish is refused at once and two runs never share an output, its .partial or its
// .checkpoint (engine/docs/reliability.md, "Locks").
#include <filesystem>
#include <vector>

#include "stokesian/io/file_lock.hpp"

namespace stokesian {

// The output rule for a run's output: its name, the longest name the run derives from it, and
// never one of `inputs` (the scenario file; a suite's manifests), --force or not. Throws
// input_error (exit status 2). A suite checks every run's output with it before its first run.
void check_run_output(const std::filesystem::path& output, bool force,
                      const std::vector<std::filesystem::path>& inputs);

// Throws input_error (exit status 2) for an output name no run may write (empty, a directory, a
// device or FIFO, a missing directory, one of `inputs`), on resume for an existing file at the
// output without `force` where the interrupted run's partial output is there too (without it, the
// file at the output is the interrupted run's own, which the resume takes back; a fresh run's
// existing output is refused by the writer), and when another run holds the lock.
io::file_lock claim_run_output(const std::filesystem::path& output, bool force, bool resume,
                               const std::vector<std::filesystem::path>& inputs);

}  // namespace stokesian
