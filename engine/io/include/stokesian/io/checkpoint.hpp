#pragma once
// Checkpoint files: everything a run needs to continue bit for bit (run/run.hpp, --resume).
//
// Layout (HDF5, one file `<output>.checkpoint` next to the output):
//   /checkpoint                attrs format = "stokesian checkpoint", version = "1",
//                              content_fnv1a64 (checkpoint_digest of everything below),
//                              digest_algorithm = "fnv1a64": the algorithm of content_fnv1a64,
//                              progress/last_frame_digest and run/scenario_text_fnv1a64; a
//                              checkpoint without it is refused (core/digest.hpp)
//   /checkpoint/run/<key>      the run's identity and settings, one text each (run/run.hpp)
//   /checkpoint/progress       datasets step, frames_written, last_good_step (uint64), wall_seconds
//                              (double); attr last_frame_digest
//   /checkpoint/engine         attr precision; datasets step (uint64), position_hi, position_lo,
//                              velocity_hi, velocity_lo, force [N, 3] (double), image [N, 3] (int32)
//   /checkpoint/observables/NNN  one group per observable, in run order: attr kind; reals/<name>
//                              (double), counts/<name> (uint64), texts/<name> (text) datasets
//
// Texts: attributes are fixed-length strings, datasets bytes (uint8); no variable-length strings,
// so reading a checkpoint never enters HDF5's global heap (engine/docs/reliability.md).
//
// Every double is stored with its bits (HDF5 copies IEEE doubles unchanged), so NaN payloads,
// signed zeros and float-float low words survive. write_checkpoint() is atomic: it writes
// "<path>.tmp", fsyncs it, renames it onto <path> and fsyncs the directory, so a kill at any
// moment leaves either the previous checkpoint or the new one.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stokesian/core/digest.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/observables/saved_state.hpp"

namespace stokesian::io {

struct run_checkpoint {
    std::map<std::string, std::string> run;  // identity and settings, as text (run/run.hpp)
    std::uint64_t frames_written = 0;        // trajectory frames in the output at this step
    std::uint64_t last_good_step = 0;        // the last sample that passed the blow-up checks
    double wall_seconds = 0.0;               // wall time of the run up to here, all sessions
    std::string last_frame_digest;           // of the last trajectory frame (trajectory_digest); "" if none
    engine_state engine;                     // engine.step is the checkpoint's step
    std::vector<std::pair<std::string, saved_state>> observables;  // kind, state; in run order
};

// The sidecar of an output file: "<output>.checkpoint".
std::filesystem::path checkpoint_path_for(const std::filesystem::path& output);

// Writes atomically (above). Throws std::runtime_error naming the file when the disk refuses.
void write_checkpoint(const std::filesystem::path& path, const run_checkpoint& checkpoint);

// Reads and checks the structure: every object present with its type and shape, N consistent,
// the precision a valid mode, stored words that fit it (a float is a float, a float-float low
// word is at most half an ulp of its high word). Throws input_error of one line naming the file
// and the object for anything else (truncated, corrupted, not a checkpoint, another version,
// a content digest that does not match).
run_checkpoint read_checkpoint(const std::filesystem::path& path);

// Digest (hex) of every value of a checkpoint, in a fixed order: the reader
// recomputes it, so a bit changed on disk after the write (a bad sector, a stray editor) is
// caught, not resumed.
std::string checkpoint_digest(const run_checkpoint& checkpoint);

// Digest (hex) of a trajectory frame as the H5MD file stores it: step, time, positions.
std::string trajectory_digest(std::int64_t step, double time, const std::vector<double>& positions);

}  // namespace stokesian::io
