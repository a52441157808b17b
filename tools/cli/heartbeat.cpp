// The heartbeat in CI logs (heartbeat.hpp).
#include "heartbeat.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>

#include "option_values.hpp"

namespace stokesian::cli {

heartbeat::heartbeat(double interval_seconds, std::string what)
    : heartbeat(interval_seconds, std::move(what), isatty(STDERR_FILENO) != 0) {}

heartbeat::heartbeat(double interval_seconds, std::string what, bool stderr_is_terminal)
    : interval_(interval_seconds),
      what_(std::move(what)),
      terminal_(stderr_is_terminal),
      last_(std::chrono::steady_clock::now()) {}

bool heartbeat::beat(const std::string& text) {
    if (!enabled()) return false;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < interval_) return false;
    last_ = now;
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char stamp[16];
    std::strftime(stamp, sizeof stamp, "%H:%M:%SZ", &utc);
    std::fprintf(stderr, "heartbeat %s %s: %s\n", stamp, what_.c_str(), text.c_str());
    std::fflush(stderr);
    return true;
}

void add_heartbeat_option(CLI::App& cmd, double& seconds) {
    cmd.add_option("--heartbeat", seconds,
                   "when stderr is not a terminal (a CI log), a progress line on stderr every SECONDS (default 60; 0: "
                   "none)")
        ->check(seconds_check("none"));
}

}  // namespace stokesian::cli
