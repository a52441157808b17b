#include "commands.hpp"

namespace stokesian::cli {
action register_run(CLI::App& app) {
    auto* cmd = app.add_subcommand("run", "run a scenario and write an H5MD file");
    (void)cmd;
    return [] { return 0; };
}
}  // namespace stokesian::cli
