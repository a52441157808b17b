#pragma once
// A file a command writes besides its main result: --json, --junit, --csv, --h5, the files of
// `port-check compare --report DIR`, suite-summary.json. Every such file follows the main
// output's rule (stokesian/io/output_target.hpp), checked when the command starts, before any
// long computation: an existing file is replaced only with --force, never a directory, device or
// FIFO, never a file the command reads. It is written at the end in one piece, atomically; a
// failed write (a full disk) is an input_error, exit status 2 (engine/docs/reliability.md,
// "Outputs").
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
    // The whole content, replacing any earlier file only once it is complete on disk.
    void write(std::string_view content) const;

private:
    std::filesystem::path path_;
};

}  // namespace stokesian::cli
