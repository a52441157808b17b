#pragma once
// Provenance stored with every output (/parameters in the H5MD file): what built the binary and
// who ran it where, so a result can be traced back to its build and its command line.
#include <map>
#include <string>

namespace stokesian::io {

// version (git describe), compiler, host_fp_flags, build_type: fixed at build time.
std::map<std::string, std::string> build_provenance();

// host, user, date (UTC, ISO 8601), command (argv, shell-quoted where needed), working_directory.
std::map<std::string, std::string> run_provenance(int argc, char** argv);

}  // namespace stokesian::io
