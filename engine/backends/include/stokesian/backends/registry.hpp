#pragma once
// The backend registry: every backend registers its name, what it can run and its factories; the
// engine factory (stokesian/backends/engine_factory.hpp) and the regression suite choose through it,
// "auto" is resolved here and nowhere else, and every place that names a backend (run.backend,
// --backend, suite manifests) accepts choices(). Adding a backend: engine/README.md, "How to add a
// backend".
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/device_context.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/integrator.hpp"
#include "stokesian/core/mobility_operator.hpp"
#include "stokesian/core/phase_timing.hpp"
#include "stokesian/core/system.hpp"

namespace stokesian::backends {

// capabilities::devices of a backend that drives any number of devices in one engine.
inline constexpr unsigned any_device_count = ~0u;

// What a backend can run. An empty list means "every one the build knows".
struct capabilities {
    std::vector<integrator_kind> integrators;
    std::vector<lubrication_scheme> lubrication_schemes;
    std::size_t max_particles = 0;                // 0: no limit
    std::vector<precision_mode> precision_modes;  // empty: all nine
    unsigned devices = 0;                         // devices one engine drives (0: the host only; any_device_count)
    bool ranks = false;  // splits its targets over the MPI ranks of device_context::ranks (else refuses them)
    // --hi-kernel names: the requests auto (the default) and fast first (registry::add puts them
    // there; stokesian/backends/hi_kernel_choice.hpp), then the backend's kernels, its default first.
    std::vector<std::string> hi_kernels;
    bool batches = false;  // has a batch factory (stokesian/core/batch.hpp)
    // A batch member computes what the backend's engine computes for the run alone, bit for bit, so
    // runs of this backend may share a batch (stokesian/run/batched_runs.hpp). False where the
    // batch factory runs another engine than the run's.
    bool batches_runs = false;
    // Where it names one: only runs of this HI kernel share a batch (cuda: "fused", the engine its
    // batch factory runs); empty: runs of every kernel.
    std::string batch_kernel;
    // Runs only tensors of the pair form mu0 [A I + B r r] (not block evaluators such as rpy-ewald;
    // physics/tensor_registry.hpp is_block_tensor), so that auto never picks it for one.
    bool pair_tensors_only = false;
    // The HI kernels whose runs are the CPU's bits whatever the device, the device count or the
    // split over MPI ranks (they sum in the CPU's order): any of them continues another's checkpoint
    // bit for bit, so a resumed run of auto takes the one auto takes now (the fused engine's
    // checkpoint resumed across MPI ranks, where it does not run).
    std::vector<std::string> cpu_order_kernels;

    // Why this backend cannot run `config` with `particles` particles; empty when it can.
    std::string refusal(const engine_config& config, std::size_t particles) const;
    bool sums_in_cpu_order(std::string_view hi_kernel) const;
};

// Whether a registered backend can run here and now (a device present, a build that has it).
struct availability {
    bool available = true;
    std::string refusal;           // the reason, for an explicit request (exit code 2)
    std::string notice;            // the same, short, for the fallback notice of "auto"
    unsigned devices_present = 0;  // the devices the probe found (backends that drive devices)
};

struct backend;
// Asks b.probe (no probe: available when built).
availability check_availability(const backend& b);

using engine_factory =
    std::function<std::unique_ptr<engine>(const engine_config&, const device_context&, const initial_state&)>;
// Resolves the request `request` (automatic or fastest) of `config` with `particles` particles on
// `device` to one of the backend's kernels, with the reason (provenance).
using kernel_chooser = std::function<kernel_choice(const engine_config&, std::size_t particles, const device_context&,
                                                   kernel_request request)>;
using batch_factory = std::function<std::unique_ptr<batch_engine>(const engine_config&, const device_context&,
                                                                  const std::vector<batch_member>&)>;
// Times the phases of the backend's steps (core/phase_timing.hpp; `bench fcc`), a kernel request
// (auto, fast) resolved to the step-by-step kernel it stands for; an engine without phases (the
// fused CUDA engine) by whole steps (phase_timing::phases_timed false).
using phase_timer = std::function<phase_timing(const engine_config&, const initial_state&, const phase_run&)>;
// Why the phase timer cannot time `config` with `particles` particles (empty: it can), asked before
// a benchmark starts so that a long one does not stop at its first such size.
using timing_refusal = std::function<std::string(const engine_config&, std::size_t particles)>;
// The device of ordinal `ordinal` (-1: the current one) in words: device_name, compute_capability,
// multiprocessors, sm_clock_khz, ... (the keys a run's provenance gives it; `bench fcc`'s header).
using device_describer = std::function<std::map<std::string, std::string>(int ordinal)>;

struct backend {
    std::string name;   // --backend / run.backend value
    std::string title;  // for messages: "the CPU backend"
    capabilities can;
    // "auto" picks the available backend of highest preference that can run the configuration;
    // negative: never chosen by "auto" (an explicit choice only).
    int auto_preference = -1;
    // "auto" passes this backend over for one system of at most this many particles run alone (one
    // process, no device list: how it was measured), where the committed measurement
    // `auto_slower_measured` showed the next backend faster on the same host; 0: never.
    std::size_t auto_slower_up_to = 0;
    std::string auto_slower_measured;     // the measurement file and what it showed, for the provenance
    std::function<availability()> probe;  // empty: always available
    engine_factory make_engine;           // empty: registered but not built (probe says why)
    batch_factory make_batch;             // empty: no batches
    // v = mu F in double for one configuration (core/mobility_operator.hpp); empty: none (not built).
    mobility_operator_factory make_mobility;
    // The dense mobility factorised on the backend's device; empty: the backend has none (the host's
    // LAPACK factorisation, observables/positive_definiteness.hpp, is then the dense method).
    device_cholesky_factory device_cholesky;
    // auto and fast; empty: both resolve to the backend's default kernel (the first it lists).
    kernel_chooser choose_kernel;
    phase_timer time_phases;           // empty: the backend's phases cannot be timed (not built)
    timing_refusal cannot_time;        // empty: time_phases times every configuration it is given
    device_describer describe_device;  // empty: the backend computes on the host (or is not built)
};

class registry {
public:
    // Throws std::invalid_argument for an empty or already registered name, or "auto".
    void add(backend b);
    const backend* find(const std::string& name) const;  // nullptr when unknown
    const std::vector<backend>& all() const { return backends_; }
    // "cpu, cuda or auto": the accepted names, in registration order.
    std::string names() const;
    // The same as a list: every registered name, then "auto".
    std::vector<std::string> choices() const;
    // Whether `name` is one of choices().
    bool accepts(std::string_view name) const;
    // Why `name` is not one: "expected cpu, cuda, or auto", and for a backend's name joined to a
    // kernel's ("cuda-fused") the one spelling of it: "; the backend cuda with hi-kernel fused".
    std::string refusal_of(std::string_view name) const;
    // What "auto" picks, in words: "cuda where it can run (not for one system of N <= 4 run alone:
    // measured slower), else cpu" (preference order).
    std::string automatic_order() const;

    // The backend `config` names, with "auto" resolved. For auto, prints
    // "stokesian: <notice>, running <what> on <title>" to stderr when it falls back from the
    // preferred backend, and resets hi_kernel to the chosen backend's default when it passes the
    // preferred one over. `alone`: one system run alone, in one process on no named devices, where
    // a measured pass-over (backend::auto_slower_up_to) holds. Throws std::invalid_argument for an
    // unknown name, input_error (key run.backend) for a backend this build lacks or that has no
    // device here. A run resolves its backend once and builds from the result (device_context_for,
    // choose_kernel, make_engine).
    struct resolved {
        const backend* chosen = nullptr;
        engine_config config;  // backend = chosen->name
        // Why "auto" stood for this backend ("auto: cpu (N = 4 <= 4: ...)"); empty for a named one.
        std::string backend_choice;
        // choose_kernel: why config.hi_kernel is the kernel it is, when a request (auto, fast, the
        // default) chose it ("auto: tiling (table cc 9.0, ...)"); empty for a named kernel.
        std::string hi_kernel_choice;
    };
    resolved resolve(const engine_config& config, std::size_t particles, const char* what, bool alone = false) const;
    // The HI kernel of a resolved backend on `device`: a request (auto, fast, or none: auto) becomes
    // the chosen backend's kernel (backend::choose_kernel) and hi_kernel_choice says why; a named
    // kernel stays. The one place a request is resolved.
    resolved choose_kernel(resolved r, std::size_t particles, const device_context& device) const;
    // resolve(), then choose_kernel().
    resolved resolve_on(const engine_config& config, std::size_t particles, const char* what,
                        const device_context& device) const;

    // The backend "auto" stands for with this configuration (particles = 0: any size; `alone` as
    // for resolve), the fallback notice (empty when the preferred backend was chosen or a
    // measurement passed it over) and the reason of the choice (provenance). No output.
    struct automatic_choice {
        const backend* chosen = nullptr;
        std::string notice;
        std::string reason;
    };
    automatic_choice choose_automatic(const engine_config* config, std::size_t particles, bool alone = false) const;

private:
    std::vector<backend> backends_;
};

// The process-wide registry, the built-in backends registered on first use. Register further
// backends (tests, plug-ins) before engines are made; the registry is not locked.
registry& backend_registry();

// backend_registry().choices() at the first call, kept for the rest of the process: the choices of a
// settings field (stokesian/settings/field_table.hpp), which need storage that outlives them.
// Backends registered later (tests) are not among them.
std::span<const std::string_view> backend_choices();

// The device context of a run on the resolved backend `b` on the devices `selection` names
// (run.devices; not given: one device, ordinal 0) and the MPI ranks `ranks`. Throws input_error
// (key run.devices) when the backend runs on the host, names fewer devices than selected, or a
// selected ordinal is not present (the backend's probe counts them).
device_context device_context_for(const backend& b, const device_selection& selection, communicator* ranks);

// One line per backend: name, availability and capabilities (for `stokesian` listings and tests).
std::string describe(const backend& b);

// Whether the registered backend `name` computes on a device (capabilities::devices > 0): its state
// can be lost with the device and is kept on the host too, its provenance names the device, its
// results are the gpu class of the stored references. False for a name not registered.
bool computes_on_device(const std::string& name);

}  // namespace stokesian::backends
