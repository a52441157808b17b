#include "run_files.hpp"

#include "stokesian/core/errors.hpp"
#include "stokesian/io/h5md.hpp"

namespace stokesian {

namespace fs = std::filesystem;

fs::path partial_of(const fs::path& output) { return fs::path(output) += ".partial"; }

void refuse_stale_checkpoint(const fs::path& output, const fs::path& checkpoint, bool force) {
    std::error_code error;
    if (fs::is_directory(checkpoint, error))
        throw input_error(checkpoint.string(), "", "", "is a directory, expected room for the run's checkpoint file");
    if (force || !fs::exists(checkpoint, error)) return;
    throw input_error(checkpoint.string(), "", "",
                      "an interrupted run left this checkpoint: continue it with `stokesian run --resume " +
                          output.string() + "`, or pass --force to start afresh");
}

void remove_checkpoint(const fs::path& checkpoint) noexcept {
    std::error_code ignored;
    fs::remove(checkpoint, ignored);
    fs::remove(fs::path(checkpoint) += ".tmp", ignored);
}

void require_checkpoint(const fs::path& output, const fs::path& checkpoint) {
    std::error_code error;
    if (fs::exists(checkpoint, error)) return;
    const std::string why = fs::exists(output, error)
                                ? "no checkpoint to resume from: the run completed or stopped for good"
                                : "no checkpoint to resume from: the run stopped before its first checkpoint "
                                  "(start it again)";
    throw input_error(checkpoint.string(), "", "", why);
}

bool reclaim_output_for_resume(const fs::path& output) {
    std::error_code error;
    const fs::path partial = partial_of(output);
    if (fs::exists(partial, error)) return false;
    if (!fs::exists(output, error)) return false;  // the resume rebuilds the output all the same
    std::string status;
    {
        const io::h5md_file file(output);
        status =
            file.exists("/parameters/run") ? file.parameter_attribute("/parameters/run", "status").value_or("") : "";
    }
    if (!status.starts_with("interrupted") && !status.starts_with("stopped"))
        throw input_error(
            output.string(), "", "",
            "cannot resume a run with status '" + echoed(status) + "' (only an interrupted run continues)");
    fs::rename(output, partial, error);
    if (error)
        throw input_error(output.string(), "", "",
                          "cannot move it back to '" + partial.string() + "': " + error.message());
    return true;
}

void undo_reclaim(const fs::path& output) noexcept {
    std::error_code ignored;
    fs::rename(partial_of(output), output, ignored);
}

}  // namespace stokesian
