// Output names and the run's lock (run_output_claim.hpp).
#include "stokesian/run/run_output_claim.hpp"

#include "run_files.hpp"
#include "stokesian/io/output_target.hpp"

namespace stokesian {

void check_run_output(const std::filesystem::path& output, bool force,
                      const std::vector<std::filesystem::path>& inputs) {
    // ".partial.rebuild" is the longest name a run derives from its output (io/h5md_writer.cpp);
    // checked before the lock file is made, so that an over-long name is said as such.
    io::check_output_target(output, force, inputs, "", ".partial.rebuild");
}

io::file_lock claim_run_output(const std::filesystem::path& output, bool force, bool resume,
                               const std::vector<std::filesystem::path>& inputs) {
    std::error_code error;
    const std::filesystem::path partial = partial_of(output);
    const bool interrupted_file_at_output = resume && !std::filesystem::exists(partial, error);
    // A fresh run meets an existing output later, after the checkpoint check, whose message tells
    // how to continue an interrupted run (run_files.hpp); here only what no --force allows.
    check_run_output(output, force || interrupted_file_at_output || !resume, inputs);
    return io::lock_run_output(output);
}

}  // namespace stokesian
