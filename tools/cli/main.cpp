// stokesian: the command-line tool. Each subcommand lives in its own file (cmd_*.cpp) and
// registers itself here.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"

int main(int argc, char** argv) {
    CLI::App app{"stokesian: reproducibility and regression-test toolkit for GPU Stokesian dynamics"};
    app.set_version_flag("--version", std::string("stokesian ") + stokesian::git_describe());
    app.require_subcommand(1);
    stokesian::cli::set_invocation(argc, argv);
    stokesian::cli::register_commands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Usage errors exit with 2 (CLI11's own codes are for --help/--version).
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    try {
        return stokesian::cli::run_selected(app);
    } catch (const stokesian::input_error& e) {
        std::cerr << "stokesian: " << e.what() << "\n";
        return 2;
    } catch (const std::invalid_argument& e) {
        std::cerr << "stokesian: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "stokesian: error: " << e.what() << "\n";
        return 1;
    }
}
