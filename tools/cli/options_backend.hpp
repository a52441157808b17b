#pragma once
// The backend and HI-kernel option families (docs/reference/cli.md "Command-line vocabulary"): `--backend NAME`
// wherever a backend is chosen (a list where a command times several), NAME a registered backend
// or auto (stokesian/backends/registry.hpp), `--hi-kernel NAME` (a list where a command times
// several). The kernel names are checked by the backend that runs them.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace stokesian::cli {

// The names a backend is chosen by: the registered backends (cpu, cuda), then auto.
const std::vector<std::string>& backend_names();

// `--backend NAME` into `backend`; `default_help` says what applies without it.
CLI::Option* add_backend_option(CLI::App& cmd, std::string& backend, const std::string& default_help);

// `--backend LIST` (comma-separated or given again) into `backends`, each name once, replacing the
// default.
CLI::Option* add_backend_list_option(CLI::App& cmd, std::vector<std::string>& backends,
                                     const std::string& default_help);

// `--hi-kernel NAME` into `kernel`.
CLI::Option* add_hi_kernel_option(CLI::App& cmd, std::string& kernel, const std::string& default_help);

// `--hi-kernel LIST` (comma-separated or given again) into `kernels`, each once, replacing the
// default.
CLI::Option* add_hi_kernel_list_option(CLI::App& cmd, std::vector<std::string>& kernels,
                                       const std::string& default_help);

}  // namespace stokesian::cli
