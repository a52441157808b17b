#include "run_size_guard.hpp"

#include <cstdio>

#include "stokesian/core/errors.hpp"
#include "stokesian/run/run_size.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g GB", bytes / 1e9);
    return text;
}

// format_duration rounds to whole seconds; estimates and limits below ten seconds keep two digits.
std::string duration(double seconds) {
    if (seconds >= 10.0) return format_duration(seconds);
    char text[32];
    std::snprintf(text, sizeof text, "%.2g s", seconds);
    return text;
}

std::string describe(const run_size_estimate& e) {
    std::string text = std::to_string(e.particles) + " particles on " + e.backend + ": estimated " +
                       duration(e.seconds_per_evaluation * e.evaluations_per_step) + " per step";
    if (e.implicit_lubrication)
        text += " and " + duration(e.seconds_per_evaluation) + " per lubrication-solver iteration";
    text += ", " + duration(e.seconds_to_first_step) + " until the first step ends (timed on " +
            std::to_string(e.measured_particles) + " particles, scaled by N^2), " + gigabytes(e.bytes) + " of memory";
    if (e.available_bytes > 0.0) text += " (" + gigabytes(e.available_bytes) + " available)";
    return text;
}

}  // namespace

void guard_run_size(const scenario& s, unsigned threads, const std::atomic<int>* interrupt, double limit_seconds,
                    bool force) {
    engine_config config = make_engine_config(s);
    config.threads = threads;
    config.interrupt = interrupt;
    const run_size_estimate e = estimate_run_size(config, s.particles);
    if (!e.measured) return;
    const bool too_long = e.seconds_to_first_step > limit_seconds;
    const bool too_large = e.available_bytes > 0.0 && e.bytes > e.available_bytes;
    if ((too_long || too_large) && !force)
        throw input_error(s.source_path.string(), "", "",
                          describe(e) + ": " +
                              (too_long ? "more than the limit of " + duration(limit_seconds) + " to the first step"
                                        : std::string("more memory than is available")) +
                              "; add --force to run it anyway");
    std::fprintf(stderr, "stokesian: %s\n", describe(e).c_str());
}

}  // namespace stokesian::cli
