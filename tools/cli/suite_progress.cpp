#include "suite_progress.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <utility>

#include <unistd.h>

#include "terminal.hpp"

namespace stokesian::cli {

using regression::suite_run_status;

std::string suite_status_line(const std::vector<suite_run_status>& runs, double elapsed) {
    std::size_t running = 0, done = 0, failed = 0;
    std::uint64_t steps = 0, total = 0;
    const suite_run_status* slowest = nullptr;
    double slowest_fraction = 2.0;
    for (const auto& r : runs) {
        if (r.state == "running") {
            ++running;
            const double fraction = r.total_steps ? double(r.steps) / double(r.total_steps) : 0.0;
            if (fraction < slowest_fraction) {
                slowest_fraction = fraction;
                slowest = &r;
            }
        } else if (r.state != "waiting") {
            ++done;
            failed += r.state == "completed" ? 0 : 1;
        }
        steps += r.state == "completed" ? r.total_steps : r.steps;
        total += r.total_steps;
    }
    const double fraction = total ? double(steps) / double(total) : 0.0;
    char text[256];
    std::snprintf(text, sizeof text, "%zu/%zu runs done, %zu running, %zu failed; %.0f%% of all steps, %s elapsed",
                  done, runs.size(), running, failed, 100.0 * fraction, format_duration(elapsed).c_str());
    std::string line = text;
    // Several manifests in one pool: how far each is ("nightly 3/17, negative_control 1/5 done").
    std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> suites;  // name, (done, runs)
    for (const auto& r : runs) {
        if (r.suite.empty()) continue;
        auto it = std::find_if(suites.begin(), suites.end(), [&](const auto& s) { return s.first == r.suite; });
        if (it == suites.end()) it = suites.insert(suites.end(), {r.suite, {0, 0}});
        it->second.first += r.state != "waiting" && r.state != "running" ? 1 : 0;
        ++it->second.second;
    }
    for (std::size_t i = 0; i < suites.size(); ++i)
        line += (i == 0 ? " (" : ", ") + suites[i].first + " " + std::to_string(suites[i].second.first) + "/" +
                std::to_string(suites[i].second.second) + (i + 1 == suites.size() ? " done)" : "");
    if (fraction > 0.02) line += ", about " + format_duration(elapsed * (1.0 - fraction) / fraction) + " left";
    if (slowest != nullptr) {
        std::snprintf(text, sizeof text, "; furthest behind: %s %.0f%%", regression::run_label(*slowest).c_str(),
                      100.0 * slowest_fraction);
        line += text;
    }
    return line;
}

double run_suite_with_progress(
    regression::suite_execution& suite, heartbeat& pulse,
    const std::function<void(const suite_run_status&, std::size_t, std::size_t)>& print_finished) {
    const bool terminal = isatty(STDERR_FILENO) != 0;
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::size_t finished = 0;
    const std::size_t total = suite.size();
    suite.start([&](const suite_run_status& r) {  // one call at a time (suite_runner.hpp)
        ++finished;
        if (terminal) std::fputs(clear_line, stderr);
        print_finished(r, finished, total);
        std::fflush(stdout);
    });
    // Look every second on a terminal; elsewhere as often as the heartbeat needs, at most every 2 s.
    const auto poll = std::chrono::milliseconds(
        terminal          ? 1000
        : pulse.enabled() ? std::clamp(static_cast<long>(pulse.interval() * 1000.0), 20L, 2000L)
                          : 2000);
    while (!suite.wait_for(poll)) {
        if (terminal) {
            std::fprintf(stderr, "%s%s", clear_line, suite_status_line(suite.snapshot(), elapsed()).c_str());
            std::fflush(stderr);
        } else {
            pulse.beat(suite_status_line(suite.snapshot(), elapsed()));
        }
    }
    if (terminal) std::fputs(clear_line, stderr);
    return elapsed();
}

}  // namespace stokesian::cli
