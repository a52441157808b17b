#pragma once
// The subcommands of `stokesian bench` that live in their own files (cmd_bench.cpp registers
// them): each adds itself under `bench` and returns the action to run when it is selected.
#include <CLI/CLI.hpp>

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

}  // namespace stokesian::cli
