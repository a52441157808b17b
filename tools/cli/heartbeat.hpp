#pragma once
// The heartbeat of a long command in a CI log: when stderr is not a terminal (where the live
// progress line is), one line on stderr every `--heartbeat SECONDS` (default 60; 0: none), so a log
// shows the job alive and how far it is: `stokesian run` (from the run's sample events,
// run_request::on_event), `suite run` and `study` (the suite's status line).
#include <chrono>
#include <string>

#include <CLI/CLI.hpp>

namespace stokesian::cli {

inline constexpr double default_heartbeat_seconds = 60.0;

class heartbeat {
public:
    // `what` names the job in each line ("run tetrahedron.h5", "suite nightly").
    heartbeat(double interval_seconds, std::string what);
    heartbeat(double interval_seconds, std::string what, bool stderr_is_terminal);
    bool enabled() const { return interval_ > 0.0 && !terminal_; }
    // Prints "heartbeat 04:31:07Z <what>: <text>" when enabled and `interval` has passed since the
    // last line (or the start); returns whether it printed.
    bool beat(const std::string& text);
    double interval() const { return interval_; }

private:
    double interval_;
    std::string what_;
    bool terminal_;
    std::chrono::steady_clock::time_point last_;
};

// --heartbeat SECONDS on a command (>= 0; fractions allowed).
void add_heartbeat_option(CLI::App& cmd, double& seconds);

}  // namespace stokesian::cli
