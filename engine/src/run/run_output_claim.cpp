// Output names and the run's lock (run_output_claim.hpp).
#include "run/run_output_claim.hpp"

#include "io/path_limits.hpp"
#include "run/run_files.hpp"
#include "stokesian/io/output_target.hpp"

namespace stokesian {

io::file_lock claim_run_output(const std::filesystem::path& output, bool force, bool resume) {
    // Before the lock file is made, so that an over-long name is said as such. ".partial.rebuild"
    // is the longest name a run derives from its output (io/h5md_writer.cpp).
    io::check_path_lengths(output, ".partial.rebuild");
    std::error_code error;
    const std::filesystem::path partial = partial_of(output);
    const bool interrupted_file_at_output = resume && !std::filesystem::exists(partial, error);
    // A fresh run meets an existing output later, after the checkpoint check, whose message tells
    // how to continue an interrupted run (run_files.hpp); here only what no --force allows.
    io::check_output_target(output, force || interrupted_file_at_output || !resume);
    return io::lock_run_output(output);
}

}  // namespace stokesian
