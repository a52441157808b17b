#pragma once
// Terminal helpers: progress lines on a TTY (quiet otherwise) and clean stops on SIGINT/SIGTERM.
#include <atomic>
#include <string>

#include "stokesian/run/run.hpp"

namespace stokesian::cli {

// Installs SIGINT/SIGTERM handlers that record the signal number (a second Ctrl-C exits at once).
const std::atomic<int>& install_stop_handlers();

// Back to the start of the line and clear it (ANSI): a shorter line leaves nothing of a longer one.
inline constexpr const char* clear_line = "\r\033[K";

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

// "[ 42%] step 420/1000  t = 4.2 tau_s  1.2e+05 steps/s  ETA 0.0048 s": the rate and ETA are those
// of this process (steps since p.first_step over its wall time).
std::string progress_text(const run_progress& p);

// "0.42 s", "12 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds);

// "1 run", "3 runs": a count with its noun in the right number.
std::string count_of(std::size_t n, const std::string& noun);

}  // namespace stokesian::cli
