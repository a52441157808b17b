#pragma once
// The subcommands of `stokesian bench` that live in their own files (cmd_bench.cpp registers
// them): each adds itself under `bench` and returns the action to run when it is selected.
#include <CLI/CLI.hpp>
#include <string>

#include "commands.hpp"
#include "stokesian/core/precision_modes.hpp"

namespace stokesian::cli {

struct bench_subcommand {
    CLI::App* app;
    action run;
};

bench_subcommand register_bench_fcc(CLI::App& bench);     // bench_fcc.cpp
bench_subcommand register_bench_memory(CLI::App& bench);  // bench_memory.cpp
bench_subcommand register_bench_tune(CLI::App& bench);    // bench_tune.cpp

// Bench commands that time the CUDA backend ask the backend registry whether it can run here (its
// probe: a build with CUDA, a device present), as every command that makes an engine does through
// registry::resolve: where it cannot, that is the environment's to change, one line and exit code 2
// (input_error): "WHAT: no CUDA device found (INSTEAD)".
void require_cuda_backend(const std::string& what, const std::string& instead);

}  // namespace stokesian::cli
