#pragma once
// Names that become file names (scenario and case names, suite and study run names): the default
// output <scenario>[_<case>].h5, a suite's <run>.h5, a reference file <scenario>.h5. A safe name
// stays inside the directory it is put in and names one file there, whatever the file system:
// 1 to max_safe_name_length characters of [A-Za-z0-9._+-], not starting with '.' or '-' (no
// hidden files, no "..", nothing a command line reads as an option); so no '/', no NUL, no
// control or non-ASCII character. Checked on load and again when read back from a file
// (engine/docs/reliability.md, "Names").
#include <string>
#include <string_view>

namespace stokesian {

// 100 keeps <scenario>_<case>.h5.checkpoint.tmp and the like below NAME_MAX (255 bytes).
inline constexpr std::size_t max_safe_name_length = 100;

// Why `name` is not a safe file name ("" when it is).
std::string unsafe_name_reason(std::string_view name);

// Throws input_error "FILE: key 'KEY' = \"NAME\": not a safe file name: WHY" (the name with its
// control characters escaped) when `name` is not safe.
void require_safe_name(std::string_view name, const std::string& file, const std::string& key);

// `text` with control and non-ASCII bytes as \xNN, in double quotes: fit for a one-line message.
std::string quoted_printable(std::string_view text);

}  // namespace stokesian
