#pragma once
// The rule every file a command writes follows, its main output and its secondary ones (--json,
// --csv, --h5, --report files, suite-summary.json); engine/docs/reliability.md, "Outputs":
//   - the name is not empty, its directory exists;
//   - an existing file is replaced only with --force, and only a regular file: a directory, FIFO,
//     device or socket at the name is refused even with --force (replacing /dev/null or a pipe
//     with a regular file is never what was meant);
//   - a file this command reads is never written over, --force or not (compared by file-system
//     identity, st_dev and st_ino, so another spelling or a link is caught too);
//   - the longest name the command creates from it (a temporary, a partial file) fits NAME_MAX
//     and PATH_MAX, so that an over-long name is refused before the work, not after it.
// Violations throw input_error (exit status 2) naming the path.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stokesian::io {

// `option` names where the path came from in the message ("--json"; "" for the main output);
// `longest_suffix` is the longest the command appends to the path for a file it creates
// (temporary_suffix() for write_file_atomically(), ".partial.rebuild" for a run's output).
void check_output_target(const std::filesystem::path& path, bool force,
                         const std::vector<std::filesystem::path>& inputs = {}, const std::string& option = "",
                         std::string_view longest_suffix = {});

// Whether two names name one file: by st_dev/st_ino where both exist; a name not there yet by the
// identity of its folder and its last name. So "o", "o/", "./o", a link to "o" and a hard link
// all name one file, whether it exists or is yet to be written.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// ".tmp-PID": what write_file_atomically() appends to a name for its temporary.
std::string temporary_suffix();

// Writes `content` to `path` under a temporary name in the same directory, syncs it and renames
// it onto `path`: readers see the old file or the complete new one. A failed write, sync or close
// (a full disk, a file size limit) removes the temporary and throws input_error naming the path
// and the system's reason (exit status 2); the old file is kept.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace stokesian::io
