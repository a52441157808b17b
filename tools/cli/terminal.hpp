#pragma once
// Terminal helpers: progress lines on a TTY (quiet otherwise) and clean stops on SIGINT/SIGTERM.
#include <atomic>
#include <string>

#include "stokesian/core/run.hpp"

namespace stokesian::cli {

// Installs SIGINT/SIGTERM handlers that record the signal number (a second Ctrl-C exits at once).
const std::atomic<int>& install_stop_handlers();

// Prints "\r[ 42%] step …  t = …  …steps/s  ETA …" to stderr when stderr is a terminal.
class progress_line {
public:
    progress_line();
    void update(const run_progress& p);
    void finish();  // ends the line
    bool enabled() const { return enabled_; }

private:
    bool enabled_;
    bool printed_ = false;
};

std::string format_duration(double seconds);

}  // namespace stokesian::cli
