#pragma once
// Registration of the subcommands; each cmd_*.cpp defines one register_* function.
#include <CLI/CLI.hpp>
#include <functional>

namespace stokesian::cli {

// Each register_* adds a subcommand and returns the action to run when it is selected.
using action = std::function<int()>;
action register_run(CLI::App& app);
action register_analyze(CLI::App& app);
action register_mobility_check(CLI::App& app);
action register_bench(CLI::App& app);
action register_suite(CLI::App& app);
action register_reference(CLI::App& app);
action register_port_check(CLI::App& app);
action register_study(CLI::App& app);

void register_commands(CLI::App& app);

// The process's argc/argv, recorded by main() for provenance.
void set_invocation(int argc, char** argv);
int invocation_argc();
char** invocation_argv();
int run_selected(CLI::App& app);

}  // namespace stokesian::cli
