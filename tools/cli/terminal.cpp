#include "terminal.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>

namespace stokesian::cli {

namespace {
std::atomic<int> stop_requested{0};

extern "C" void on_stop_signal(int sig) {
    if (stop_requested.load() != 0) {
        // Second signal: the user insists. The output stays under its .partial name.
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    stop_requested.store(sig);
}
}  // namespace

const std::atomic<int>& install_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    return stop_requested;
}

std::string format_duration(double seconds) {
    char buf[64];
    if (seconds < 10) std::snprintf(buf, sizeof buf, "%.2g s", seconds);  // "0.42 s", "3.1 s": never "0 s"
    else if (seconds < 60) std::snprintf(buf, sizeof buf, "%.0f s", seconds);
    else if (seconds < 3600) std::snprintf(buf, sizeof buf, "%d min %02d s", int(seconds) / 60, int(seconds) % 60);
    else std::snprintf(buf, sizeof buf, "%d h %02d min", int(seconds) / 3600, (int(seconds) % 3600) / 60);
    return buf;
}

progress_line::progress_line() : enabled_(isatty(STDERR_FILENO) != 0) {}

std::string progress_text(const run_progress& p) {
    const double fraction = p.total_steps ? double(p.step) / double(p.total_steps) : 1.0;
    // The rate of this process: a resumed run started at first_step, not at 0.
    const std::uint64_t done_here = p.step > p.first_step ? p.step - p.first_step : 0;
    const double rate = p.wall_seconds > 0 ? double(done_here) / p.wall_seconds : 0.0;
    const double eta = rate > 0 ? double(p.total_steps - p.step) / rate : 0.0;
    char text[256];
    std::snprintf(text, sizeof text, "[%3.0f%%] step %llu/%llu  t = %.6g tau_s  %.3g steps/s  ETA %s", 100.0 * fraction,
                  static_cast<unsigned long long>(p.step), static_cast<unsigned long long>(p.total_steps),
                  p.simulated_time, rate, rate > 0 ? format_duration(eta).c_str() : "-");
    return text;
}

void progress_line::update(const run_progress& p) {
    if (!enabled_) return;
    const std::string text = progress_text(p);
    std::fprintf(stderr, "%s%s", clear_line, text.c_str());
    std::fflush(stderr);
    printed_ = true;
}

void progress_line::finish() {
    if (enabled_ && printed_) std::fputc('\n', stderr);
    printed_ = false;
}

std::string count_of(std::size_t n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace stokesian::cli
