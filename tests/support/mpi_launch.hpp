#pragma once
// `mpirun -n R stokesian ...` for the tests of MPI ranks (quick: CPU ranks; gpu: one GPU per rank).
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_process.hpp"

namespace stokesian::test_support {

// mpiexec's arguments for `stokesian args...` as `ranks` ranks: oversubscribed (more ranks than
// cores), unbound, as root where the tests run as root (containers), each "NAME=VALUE" of
// `environment` exported to every rank.
inline std::vector<std::string> mpi_rank_arguments(unsigned ranks, const std::vector<std::string>& environment,
                                                   const std::vector<std::string>& args) {
    std::vector<std::string> line{"-n", std::to_string(ranks), "--oversubscribe", "--bind-to", "none"};
    for (const std::string& variable : environment) line.insert(line.end(), {"-x", variable});
    if (::geteuid() == 0) line.emplace_back("--allow-run-as-root");
    line.emplace_back(cli_program());  // beside the test binary: a GPU bundle travels without build/
    line.insert(line.end(), args.begin(), args.end());
    return line;
}

// The MPI launcher CMake found (STOKESIAN_MPIEXEC, set on the test files that launch ranks), or ""
// (those tests then skip with a message).
#if defined(STOKESIAN_MPIEXEC)
inline const std::string mpiexec = STOKESIAN_MPIEXEC;
#else
inline const std::string mpiexec;
#endif

// `stokesian args...` as `ranks` ranks in `dir`, `environment` exported to every rank; a run longer
// than `patience_seconds` (a rank left waiting) is killed and fails the test.
inline cli_outcome launch_ranks(unsigned ranks, const std::vector<std::string>& args, const std::filesystem::path& dir,
                                double patience_seconds, const std::vector<std::string>& environment = {}) {
    cli_process p(mpi_rank_arguments(ranks, environment, args), dir, mpiexec);
    return p.wait_at_most(patience_seconds);
}

// The lines of `text` that stokesian wrote (mpirun adds its own banner around an abort).
inline std::vector<std::string> stokesian_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("stokesian", 0) == 0) lines.push_back(line);
    return lines;
}

inline std::string what_ran(const cli_outcome& o) {
    return "exit " + std::to_string(o.exit_code) + ": " + o.err + o.out;
}

}  // namespace stokesian::test_support
