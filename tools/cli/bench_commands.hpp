#pragma once
// The subcommands of `stokesian bench` that live in their own files (cmd_bench.cpp registers
// them): each adds itself under `bench` and returns the action to run when it is selected.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "stokesian/core/precision_modes.hpp"

namespace stokesian::cli {

struct bench_subcommand {
    CLI::App* app;
    action run;
};

bench_subcommand register_bench_fcc(CLI::App& bench);     // bench_fcc.cpp
bench_subcommand register_bench_memory(CLI::App& bench);  // bench_memory.cpp

// Shared by the bench subcommands.
std::vector<std::string> split_list(const std::string& text, char separator);
// "all": the paper's four modes and f64; otherwise modes separated by ';' ("hi=ds,int=f32;...").
std::vector<precision_mode> precision_modes_from(const std::string& text);

}  // namespace stokesian::cli
