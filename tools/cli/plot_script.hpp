#pragma once
// The plotting scripts of tools/plot/ as the CLI finds and runs them (`stokesian study`,
// `stokesian port-check compare`): Python with Debian's matplotlib, h5py and numpy, in a child
// process whose failure costs the figures only, never the data.
#include <filesystem>
#include <string>
#include <vector>

namespace stokesian::cli {

// tools/plot/<name>: from $STOKESIAN_PLOT_DIR, else beside the binary (build/bin/../../tools/plot,
// bin/../tools/plot, bin/../share/stokesian), else ./tools/plot; empty when none exists.
std::filesystem::path find_plot_script(const std::string& name);

// `requested` when given, else $STOKESIAN_PYTHON, else /usr/bin/python3 (Debian's, where the
// python3-* packages are; a python3 first on PATH often lacks matplotlib), else python3.
std::string python_interpreter(const std::string& requested = {});

// Runs `interpreter script args...` through the shell, every word quoted; stdout and stderr go to
// `log` when given. Returns the command line and its exit status.
struct plot_run {
    std::string command;
    int status = 0;
};
plot_run run_plot_script(const std::string& interpreter, const std::filesystem::path& script,
                         const std::vector<std::string>& args, const std::filesystem::path& log = {});

}  // namespace stokesian::cli
