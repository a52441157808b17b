#pragma once
// A file a command writes besides its main result: --json, --junit, --csv, --h5, the files of
// `port-check compare --report DIR`, suite-summary.json. Every such file follows the main
// output's rule (stokesian/io/output_target.hpp), checked when the command starts, before any
// long computation: an existing file is replaced only with --force, never a directory, device or
// FIFO, never a file the command reads, never a name too long for its temporary. It is written at
// the end in one piece, atomically; a failed write (a full disk) is an input_error, exit status 2
// (engine/docs/reliability.md, "Outputs").
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stokesian::cli {

class secondary_output {
public:
    secondary_output() = default;  // none asked for
    // An empty `path` (the option not given) is none; otherwise the path is checked now.
    secondary_output(const std::filesystem::path& path, bool force, const std::vector<std::filesystem::path>& inputs,
                     const std::string& option);

    explicit operator bool() const { return !path_.empty(); }
    const std::filesystem::path& path() const { return path_; }
    const std::string& option() const { return option_; }
    // The whole content, replacing any earlier file only once it is complete on disk.
    void write(std::string_view content) const;

private:
    std::filesystem::path path_;
    std::string option_;
};

// Two outputs of one command that name one file (io::same_file: another spelling, a link, a derived
// name such as bench's <csv>_fits file) would leave one of them lost: an input_error naming the
// file and both options (exit status 2). Called with every output of the command, before any work.
void require_distinct(const std::vector<const secondary_output*>& outputs);

}  // namespace stokesian::cli
