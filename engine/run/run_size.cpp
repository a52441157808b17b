#include "stokesian/run/run_size.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "stokesian/core/lubrication_solver.hpp"

namespace stokesian {

namespace {

// The subset timed. On the CPU an evaluation of M particles is M^2 pair terms spread over the
// threads: 2048 gives ~4e6 terms (tens of ms), large enough that thread start-up and the O(M)
// neighbour list are noise. A GPU is only busy with tens of thousands of targets: 32768 (~1e9
// terms, milliseconds there).
constexpr std::size_t cpu_sample_particles = 2048;
constexpr std::size_t gpu_sample_particles = 32768;
constexpr double timing_seconds = 0.05;  // repeat steps until this much wall time has passed

// Bytes per particle, counted from the containers that hold one entry per particle, each vec3
// counted as 24 bytes (the largest, double or float_float) and each image as 12:
// - the CPU engine (cpu/cpu_engine.hpp): positions, velocities, forces, external forces, working
//   positions and velocities, the Runge-Kutta start and four stages, Adams-Bashforth's history,
//   the solver's vectors and output: 12 + krylov_vector_count vec3, two images; the state kept to
//   go back to after a signal: 7 vec3 + an image;
// - its neighbour list: a scratch vector and offset (32), a cell index (8), up to 8 cells of 24
//   bytes, and the neighbours themselves, 4 bytes each, 64 assumed within 3a (a dense suspension
//   has ~12 within the paper's lubrication range), scaled by the volume of the two-body model's
//   range (5.5a: 395; a close-packed suspension has 134 there);
// - the run loop: the scenario's positions and forces in three copies (scenario, request, engine
//   input; 3 x 48), a frame (3 vec3 + image), a checkpoint's engine state (7 vec3 + image), a
//   frame of the output writer (3 vec3 + image).
// The HI sums themselves need no memory per pair. The observables keep at most a few values per
// particle and sample; not counted.
double bytes_per_particle(const system_parameters& system) {
    const double vec = 24.0, image = 12.0;
    const double engine = (12 + krylov_vector_count) * vec + 2 * image + 7 * vec + image;
    double listed = 64.0;
    if (system.lubrication.enabled && system.lubrication.model == lubrication_model::two_body) {
        const double range = two_body_lubrication_cutoff / 3.0;
        listed = std::ceil(listed * range * range * range);
    }
    const double neighbours = 32.0 + 8.0 + 8 * 24.0 + listed * 4.0;
    const double run_loop = 3 * 48.0 + (3 * vec + image) + (7 * vec + image) + (3 * vec + image);
    return engine + neighbours + run_loop;
}

double available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            double kib = 0.0;
            if (fields >> kib) return kib * 1024.0;
        }
    return 0.0;
}

initial_state first_particles(const initial_state& state, std::size_t m) {
    initial_state subset;
    subset.positions.assign(state.positions.begin(), state.positions.begin() + long(m));
    subset.external_forces.assign(state.external_forces.begin(), state.external_forces.begin() + long(m));
    return subset;
}

// Seconds per step of an engine of the first m particles, and the backend that ran it.
std::pair<double, std::string> time_steps(const engine_config& config, const initial_state& state, std::size_t m) {
    const auto eng = make_engine(config, first_particles(state, m));
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    double elapsed = 0.0;
    std::uint64_t steps = 0;
    while (elapsed < timing_seconds) {
        eng->advance(1);
        ++steps;
        elapsed = std::chrono::duration<double>(clock::now() - start).count();
    }
    return {elapsed / double(steps), eng->description().backend};
}

}  // namespace

run_size_estimate estimate_run_size(const engine_config& config, const initial_state& state) {
    run_size_estimate e;
    e.particles = state.size();
    e.evaluations_per_step = evaluations_per_step(config.integrator);
    e.implicit_lubrication = config.system.lubrication.implicit();
    e.bytes = double(e.particles) * bytes_per_particle(config.system);
    e.available_bytes = available_memory_bytes();
    if (e.particles <= run_size_min_particles) return e;

    // One Euler step with explicit lubrication is exactly one velocity evaluation. (Backend "auto"
    // without a device prints make_engine's CPU notice here and again for the run.)
    engine_config probe = config;
    probe.integrator = integrator_kind::euler;
    probe.system.lubrication.scheme = lubrication_scheme::explicit_update;
    probe.system.lubrication.model = lubrication_model::paper;  // the explicit scheme's model
    std::size_t m = std::min(e.particles, cpu_sample_particles);
    auto [seconds, backend] = time_steps(probe, state, m);
    if (backends::computes_on_device(backend) && e.particles > m) {
        m = std::min(e.particles, gpu_sample_particles);
        std::tie(seconds, backend) = time_steps(probe, state, m);
    }
    const double scale = double(e.particles) / double(m);
    e.measured = true;
    e.backend = backend;
    e.measured_particles = m;
    e.seconds_per_evaluation = seconds * scale * scale;
    e.seconds_to_first_step = double(1 + e.evaluations_per_step) * e.seconds_per_evaluation;
    return e;
}

}  // namespace stokesian
