#pragma once
// A run killed between its output's final rename and its checkpoint's removal has completed; the
// checkpoint (and frame journal) beside it are leftovers. `--resume` reports it completed and
// removes them; a new run refuses like for any existing output (completed_run_note).
#include <filesystem>
#include <optional>

#include "stokesian/run/run.hpp"

namespace stokesian {

// The result of the completed run of scenario `s` whose output is `output` (status "completed",
// all planned steps, the same scenario text and case; no partial output beside it), read from its /parameters;
// nothing when `output` is not that.
std::optional<run_result> completed_run_at(const std::filesystem::path& output, const scenario& s);

// Why a new run does not start over a completed run's output with a leftover checkpoint.
inline constexpr const char* completed_run_note =
    "output file exists: the run completed (`stokesian run --resume` removes the checkpoint a kill left "
    "beside it); use --force to replace it";

}  // namespace stokesian
