#pragma once
// Option families shared by several subcommands, so that each is spelled, explained and checked
// once (docs/reference/cli.md "Command-line vocabulary"): the scenario case, CPU threads, concurrent runs.
#include <CLI/CLI.hpp>
#include <string>

#include "stokesian/core/engine.hpp"

namespace stokesian::cli {

// `--case NAME`: a case of a scenario file with [cases].
inline CLI::Option* add_case_option(CLI::App& cmd, std::string& case_name) {
    return cmd.add_option("--case", case_name, "case of a scenario file with [cases] (default: the first)");
}

// `--threads N`: CPU worker threads (T: unsigned or std::optional<unsigned>).
template <class T>
CLI::Option* add_threads_option(CLI::App& cmd, T& threads) {
    return cmd.add_option("--threads", threads, "CPU worker threads (0: all cores)")
        ->check(CLI::Range(0u, max_cpu_threads));
}

// `--jobs N`: runs at once.
inline CLI::Option* add_jobs_option(CLI::App& cmd, unsigned& jobs) {
    return cmd.add_option("--jobs", jobs, "runs at once (default: all on CUDA, one per core on the CPU)")
        ->check(CLI::Range(1u, 4096u));
}

}  // namespace stokesian::cli
