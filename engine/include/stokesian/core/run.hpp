#pragma once
// Runs a scenario from start to finish: engine, sampling, observables, H5MD output. Used by
// `stokesian run` and by every tool that needs a complete run (studies, regression tests).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "stokesian/core/scenario.hpp"
#include "stokesian/io/h5md.hpp"

namespace stokesian {

struct run_progress {
    std::uint64_t step;
    std::uint64_t total_steps;
    double simulated_time;
    double wall_seconds;
};

struct run_request {
    scenario scenario_;                              // with command-line overrides applied
    io::h5md_options output;
    std::map<std::string, std::string> invocation;   // host, user, date, command (provenance)
    std::function<void(const run_progress&)> on_progress;  // called a few times a second
    const std::atomic<int>* stop_signal = nullptr;   // non-zero: stop after the current step
    unsigned threads = 0;                            // CPU worker threads (0: all cores)
};

struct run_result {
    std::filesystem::path output;
    std::string status;                     // "completed", "interrupted by signal N ...", "numerical blow-up ..."
    bool failed = false;                    // a numerical blow-up stopped the run (the file is still valid)
    int signal = 0;
    std::uint64_t steps = 0;
    double simulated_time = 0.0;
    double wall_seconds = 0.0;
    std::map<std::string, double> summary;  // observables' headline numbers
    std::map<std::string, std::string> engine;
    std::string final_state_digest;         // FNV-1a 64 of the final positions and velocities (hex)
};

run_result run_scenario(const run_request& request);

// Digest of a frame's positions, images and velocities, bit for bit (FNV-1a, 64 bit, hex).
std::string state_digest(const frame& f);

}  // namespace stokesian
