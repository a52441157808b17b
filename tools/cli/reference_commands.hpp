#pragma once
// The subcommands of `stokesian reference` (cmd_reference_record.cpp, cmd_reference_check.cpp,
// cmd_reference_show.cpp);
// each adds itself under the parent and returns its action.
#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace stokesian::cli {

action register_reference_record(CLI::App& reference);
action register_reference_check(CLI::App& reference);
action register_reference_show(CLI::App& reference);

}  // namespace stokesian::cli
