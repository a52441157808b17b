#pragma once
// Whether a file can be created, asked of the operating system directly: open(2) gives the real
// reason (permission denied, read-only file system, no such directory), which HDF5 would bury in
// its error stack ("unable to open file").
#include <filesystem>

namespace stokesian::io {

// Creates `file` exclusively and removes it again; throws input_error("FILE: cannot create it
// (reason)") when that fails. An existing `file` is left alone (a temporary name a killed run
// left behind, which the caller replaces).
void require_creatable(const std::filesystem::path& file);

}  // namespace stokesian::io
