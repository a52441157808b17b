#pragma once
// Every text file the toolkit reads whole (scenario files, suite manifests, check rules) comes in
// through read_text_input: only a regular file (not /dev/zero, a FIFO or a directory), and at most
// max_text_input_bytes, so that a wrong path cannot exhaust the memory.
#include <cstdint>
#include <filesystem>
#include <string>

namespace stokesian {

// 64 MiB. The largest scenario written by hand or by a script is one with explicit positions:
// 10^6 particles at full double precision take about 64 bytes a line ("[12.345678901234567, ...],"),
// 61 MiB; larger systems are lattices ([particles.lattice], a few lines). toml++ holds about six
// times the text in memory, so the limit keeps a parse below half a gigabyte.
inline constexpr std::uintmax_t max_text_input_bytes = std::uintmax_t{64} << 20;

// The whole file; input_error "PATH: cannot read WHAT (why)" otherwise ("No such file or
// directory", "not a regular file", "3221225472 bytes, more than the 64 MiB a text input may have").
std::string read_text_input(const std::filesystem::path& path, const std::string& what);

}  // namespace stokesian
