#pragma once
// The corpus of broken HDF5 inputs: checkpoint files for `stokesian run --resume`, partial outputs
// a resume must continue, and H5MD outputs for `stokesian analyze`. Binary files are not
// committed; write_bad_hdf5_corpus() derives every one deterministically from valid files made by
// a short run (truncations, flipped bytes, objects removed or retyped, values changed), so the
// same call always writes the same bytes apart from HDF5's own layout of the base files.
// Used by tests/cli/quick_bad_inputs_test.cpp and as the fuzzers' seeds (tests/fuzz).
#include <filesystem>
#include <string>
#include <vector>

namespace stokesian::test_inputs {

// How the broken file is used.
enum class bad_file_role {
    checkpoint,  // <case>/out.h5.checkpoint next to a valid interrupted out.h5; `run --resume <case>/out.h5`
    output,      // <case>/out.h5 (the interrupted run's closed file) next to a valid checkpoint and frame
                 // journal; `run --resume`
    partial,     // <case>/out.h5.partial (what a kill leaves) next to a valid checkpoint and frame journal:
                 // the resume does not read it, so it must succeed and equal the intact one's
    journal,     // <case>/out.h5.frames next to a valid out.h5 and checkpoint; `run --resume`
    analyzed,    // <case>/out.h5, `stokesian analyze <case>/out.h5`
};

struct bad_file_case {
    std::string name;  // directory of the case under the corpus directory
    bad_file_role role;
    std::string expected;  // a part of the one-line error
    // Flipped bytes may land where they change nothing a reader uses (unused space) or, in an H5MD
    // file, in raw data (H5MD has no checksums): such a case may also succeed, but never crash or
    // print more than one line; a resume that succeeds must equal the one from the intact files.
    bool may_succeed = false;
};

// The valid files everything is derived from (written into `dir`):
//   interrupted.h5 + interrupted.h5.checkpoint + interrupted.h5.frames (its frame journal): the
//   head-on approaching pair stopped at step 300
//   complete.h5: a short completed tetrahedron run
void write_valid_base_files(const std::filesystem::path& dir);

// Writes every case into dir/<name>/ (with its companions: the valid output or checkpoint) and
// returns the list. Calls write_valid_base_files(dir / "base") first.
std::vector<bad_file_case> write_bad_hdf5_corpus(const std::filesystem::path& dir);

}  // namespace stokesian::test_inputs
