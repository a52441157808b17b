// stokesian: the command-line tool. Each subcommand lives in its own file (cmd_*.cpp) and
// registers itself here.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>

#include "commands.hpp"
#include "options_deprecated.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"

namespace {
// "PATH: cannot create directories (Not a directory)" from libstdc++'s "filesystem error: cannot
// create directories: Not a directory [PATH]".
std::string filesystem_error_line(const std::filesystem::filesystem_error& e) {
    std::string operation = e.what();
    const std::string prefix = "filesystem error: ";
    if (operation.rfind(prefix, 0) == 0) operation.erase(0, prefix.size());
    const std::string reason = e.code().message();
    if (const std::size_t at = operation.find(": " + reason); at != std::string::npos) operation.erase(at);
    std::string line = e.path1().string();
    if (!e.path2().empty()) line += " -> " + e.path2().string();
    return (line.empty() ? "" : line + ": ") + operation + " (" + reason + ")";
}
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"stokesian: reproducibility and regression-test toolkit for GPU Stokesian dynamics"};
    app.set_version_flag("--version", std::string("stokesian ") + stokesian::git_describe());
    app.require_subcommand(1);
    // One line, as for every other bad input (exit code 2 below).
    app.failure_message(
        [](const CLI::App*, const CLI::Error& e) { return "stokesian: " + std::string(e.what()) + "\n"; });
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
        const int status = stokesian::cli::run_selected(app);
        stokesian::cli::print_deprecation_notes(std::cerr);
        return status;
    } catch (const stokesian::input_error& e) {
        std::cerr << "stokesian: " << e.what() << "\n";
        return 2;
    } catch (const std::invalid_argument& e) {
        std::cerr << "stokesian: " << e.what() << "\n";
        return 2;
    } catch (const std::filesystem::filesystem_error& e) {
        // Not a directory, permission denied, read-only, no space: the environment's to fix.
        std::cerr << "stokesian: " << filesystem_error_line(e) << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "stokesian: out of memory: the request needs more memory than this machine gives the process\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "stokesian: error: " << e.what() << "\n";
        stokesian::cli::print_deprecation_notes(std::cerr);  // not after bad input (exit 2): one line there
        return 1;
    }
}
