#pragma once
// Registration of the subcommands; each cmd_*.cpp defines one register_* function.
#include <CLI/CLI.hpp>
#include <functional>

namespace stokesian::cli {

// Each register_* adds a subcommand and returns the action to run when it is selected.
using action = std::function<int()>;
action register_run(CLI::App& app);

void register_commands(CLI::App& app);
int run_selected(CLI::App& app);

}  // namespace stokesian::cli
