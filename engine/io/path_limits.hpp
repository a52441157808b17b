#pragma once
// The lengths the operating system allows a path: checked before a file is created, so that an
// over-long name is said as such (not as "cannot remove stale ..." or "directory ... does not
// exist", which is what the failing system calls would otherwise make of it).
#include <filesystem>
#include <string_view>

namespace stokesian::io {

// Throws input_error naming `path` when it, with the longest `suffix` the program appends to it
// (".checkpoint.tmp" for a run's output), exceeds PATH_MAX, or one of its names exceeds NAME_MAX.
void check_path_lengths(const std::filesystem::path& path, std::string_view suffix);

}  // namespace stokesian::io
