#pragma once
// Provenance stored with every output (/parameters in the H5MD file): what built the binary and
// who ran it where, so a result can be traced back to its build and its command line.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace stokesian::io {

// version (git describe), compiler, host_fp_flags, build_type: fixed at build time.
std::map<std::string, std::string> build_provenance();

// host, user, date (UTC, ISO 8601), command (argv, shell-quoted where needed), working_directory.
std::map<std::string, std::string> run_provenance(int argc, char** argv);

// The account running this process: $USER, else the password database's name, else "unknown".
std::string user_name();

// The /h5md/author name of a new output (author.cpp): `given` (the --author option) when set, else
// the environment variable STOKESIAN_AUTHOR when set, else `scenario_author` (the scenario's
// output.author) when not empty, else user_name() when that is a valid name, else "unknown". A valid name is 1 to max_author_bytes bytes of UTF-8 without control characters
// (one line). A name given by option or variable that is not valid throws input_error: one line
// naming the option or the variable and what is wrong, never the raw bytes.
inline constexpr std::size_t max_author_bytes = 256;
std::string h5md_author(const std::optional<std::string>& given, const std::string& scenario_author = {});

}  // namespace stokesian::io
