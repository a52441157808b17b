#pragma once
// The backend interface. An engine owns the particle state of one system in one precision mode
// and advances it; a backend is "how to loop and where the data live" (engine/README.md).
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/core/integrator.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/system.hpp"

namespace stokesian {

// The most CPU worker threads a command (--threads) or a suite run (threads) may ask for: a
// hundredfold any machine's cores here, and a bound on a typo such as 4294967295.
inline constexpr unsigned max_cpu_threads = 4096;

struct engine_config {
    system_parameters system;
    precision_mode precision = reference_precision_mode;
    integrator_kind integrator = integrator_kind::euler;
    std::string backend = "cpu";  // a registered backend (stokesian/backends/registry.hpp) or auto
    std::string hi_kernel;        // empty: the backend's default
    double dt = 0.01;             // tau_s
    unsigned threads = 0;         // CPU worker threads, 0: hardware concurrency
    // Non-zero (a signal number): the CPU engine abandons the step in progress, within one target
    // particle's sum, and throws step_interrupted (engine/docs/reliability.md). Not owned; null: never.
    const std::atomic<int>* interrupt = nullptr;
};

// Thrown by advance(), advance_sampled() or the engine's construction when engine_config::interrupt
// is raised inside a step. advance() leaves the engine at its state when the call began (step()
// included); advance_sampled() leaves the frames recorded before the abandoned interval, the engine
// at the last of them. No half-done step is ever visible.
class step_interrupted : public std::runtime_error {
public:
    explicit step_interrupted(int signal)
        : std::runtime_error("interrupted by signal " + std::to_string(signal) + " inside a step"), signal_(signal) {}
    int signal() const noexcept { return signal_; }

private:
    int signal_;
};

// What the implicit lubrication scheme's latest velocity evaluation did (core/lubrication_solver.hpp).
// With the explicit scheme nothing is solved: all zero.
struct lubrication_solve_report {
    bool solved = false;                     // false: explicit scheme, or no pair within s < 1 (v = mu F exactly)
    std::uint32_t iterations = 0;            // conjugate-gradient iterations (all passes)
    std::uint32_t refinements = 0;           // passes restarted from the true residual (core/lubrication_solver.hpp)
    std::uint64_t lubricated_pairs = 0;      // pairs with s < 1
    double initial_relative_residual = 0.0;  // ||F - w0 - zeta mu w0|| / ||F|| of the starting guess
    double relative_residual = 0.0;          // the same for the returned w, recomputed from it
};

// One sample of the state, converted to double (exactly: every stored type widens exactly).
struct frame {
    std::uint64_t step = 0;
    double time = 0.0;
    std::vector<vec3<double>> position;  // wrapped into the box
    std::vector<vec3<int>> image;        // periodic image counts: unwrapped = position + image * L
    std::vector<vec3<double>> velocity;
    std::vector<vec3<double>> force;       // total force of the last force evaluation
    lubrication_solve_report lubrication;  // the implicit lubrication scheme's latest solve
};

// The complete dynamical state of an engine, bit for bit, for checkpoints: every stored word,
// widened exactly to double. `*_lo` hold the low words of float_float values (zero otherwise).
// Forces are the last evaluation's (they appear in frames); the velocities double as the previous
// velocities of the explicit lubrication scheme.
struct engine_state {
    std::uint64_t step = 0;
    precision_mode precision = reference_precision_mode;
    std::vector<vec3<double>> position_hi, position_lo;
    std::vector<vec3<int>> image;
    std::vector<vec3<double>> velocity_hi, velocity_lo;
    std::vector<vec3<double>> force;
    // Adams-Bashforth's v_{n-1} (empty for the other integrators and before the first step).
    std::vector<vec3<double>> history_hi, history_lo;
};

// What an engine is (engine::description(), batch_engine::description()). The program's logic
// reads the typed fields; the details are provenance text only, written to the outputs that
// record the engine and never read back to decide anything.
struct engine_description {
    // The registered backend (stokesian/backends/registry.hpp) as outputs and checkpoints record
    // it; the fused engine is the CUDA backend's kernel, so it records cuda with hi_kernel fused.
    std::string backend;
    std::string hi_kernel;  // the HI kernel it runs
    // Threads, device, floating-point flags, solver statistics, batch members, the kernel choice...
    std::map<std::string, std::string> details;

    // What the outputs record (H5MD /parameters/engine, run --json, port-check records): the
    // details with backend and hi_kernel.
    std::map<std::string, std::string> provenance() const {
        std::map<std::string, std::string> text = details;
        text["backend"] = backend;
        text["hi_kernel"] = hi_kernel;
        return text;
    }
};

class engine {
public:
    virtual ~engine() = default;
    // Advances by `steps` time steps.
    virtual void advance(std::uint64_t steps) = 0;
    virtual std::uint64_t step() const = 0;
    virtual std::size_t size() const = 0;
    virtual void read_frame(frame& out) const = 0;
    // Advances samples x interval steps; out[k] is the frame after step() + (k + 1) x interval
    // steps, what advance(interval) + read_frame() gives. The fused CUDA engine records the samples
    // on the device, one transfer per launch. If a step throws, `out` holds the frames before it.
    virtual void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) {
        out.clear();
        for (std::uint64_t k = 0; k < samples; ++k) {
            advance(interval);
            read_frame(out.emplace_back());
        }
    }
    // What ran: backend, kernel, and as provenance threads, device...
    virtual engine_description description() const = 0;
    // Checkpoints: restore_state(save_state()) continues the run bit for bit, on any engine of
    // the same precision mode and size (throws std::invalid_argument otherwise).
    virtual void save_state(engine_state& out) const = 0;
    virtual void restore_state(const engine_state& state) = 0;
};

// Engines are made by the backends layer, which knows them all: make_engine()
// (stokesian/backends/engine_factory.hpp).

}  // namespace stokesian
