#pragma once
// The backend registry: every backend registers its name, what it can run and its factories; the
// engine factory (stokesian/backends/engine_factory.hpp) and the regression suite choose through it,
// "auto" is resolved here and nowhere else, and every place that names a backend (run.backend,
// --backend, suite manifests) accepts choices(). Adding a backend: engine/README.md, "How to add a
// backend".
#include <cstddef>
#include <functional>
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
    // batch factory runs another engine than the run's (cuda: the fused one).
    bool batches_runs = false;
    // Runs only tensors of the pair form mu0 [A I + B r r] (not block evaluators such as rpy-ewald;
    // physics/tensor_registry.hpp is_block_tensor), so that auto never picks it for one.
    bool pair_tensors_only = false;

    // Why this backend cannot run `config` with `particles` particles; empty when it can.
    std::string refusal(const engine_config& config, std::size_t particles) const;
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

struct backend {
    std::string name;   // --backend / run.backend value
    std::string title;  // for messages: "the CPU backend"
    capabilities can;
    // "auto" picks the available backend of highest preference that can run the configuration;
    // negative: never chosen by "auto" (an explicit choice only).
    int auto_preference = -1;
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
    // An older spelling that selects this backend: run.backend = legacy_backend with
    // run.hi_kernel = legacy_hi_kernel (e.g. cuda + fused -> cuda-fused). Empty: none.
    std::string legacy_backend, legacy_hi_kernel;
};

class registry {
public:
    // Throws std::invalid_argument for an empty or already registered name, or "auto".
    void add(backend b);
    const backend* find(const std::string& name) const;  // nullptr when unknown
    const std::vector<backend>& all() const { return backends_; }
    // "cpu, cuda, cuda-fused or auto": the accepted names, in registration order.
    std::string names() const;
    // The same as a list: every registered name, then "auto".
    std::vector<std::string> choices() const;
    // Whether `name` is one of choices().
    bool accepts(std::string_view name) const;
    // What "auto" picks, in words: "cuda where it can run, else cpu" (preference order).
    std::string automatic_order() const;

    // The backend `config` names, with "auto" and legacy spellings resolved. For auto, prints
    // "stokesian: <notice>, running <what> on <title>" to stderr when it falls back from the
    // preferred backend, and then resets hi_kernel to the fallback's default. Throws
    // std::invalid_argument for an unknown name, input_error (key run.backend) for a backend
    // this build lacks or that has no device here.
    struct resolved {
        const backend* chosen = nullptr;
        engine_config config;  // backend = chosen->name unless a legacy spelling named it
        // resolve_on: why config.hi_kernel is the kernel it is, when a request (auto, fast, the
        // default) chose it ("auto: tiling (table cc 9.0, ...)"); empty for a named kernel.
        std::string hi_kernel_choice;
    };
    resolved resolve(const engine_config& config, std::size_t particles, const char* what) const;
    // resolve(), then the HI kernel on `device`: a request (auto, fast, or none: auto) becomes the
    // chosen backend's kernel (backend::choose_kernel) and hi_kernel_choice says why; a choice of
    // the fused engine selects cuda-fused (its legacy spelling cuda + fused). The one place a
    // request is resolved; make_engine calls it.
    resolved resolve_on(const engine_config& config, std::size_t particles, const char* what,
                        const device_context& device) const;

    // The backend "auto" stands for with this configuration (particles = 0: any size), and the
    // fallback notice (empty when the preferred backend was chosen). No output.
    struct automatic_choice {
        const backend* chosen = nullptr;
        std::string notice;
    };
    automatic_choice choose_automatic(const engine_config* config, std::size_t particles) const;

private:
    // cuda + fused -> cuda-fused (backend::legacy_backend); `asked` names the request in messages.
    void apply_legacy_spelling(resolved& r, const std::string& asked) const;
    std::vector<backend> backends_;
};

// The process-wide registry, the built-in backends registered on first use. Register further
// backends (tests, plug-ins) before engines are made; the registry is not locked.
registry& backend_registry();

// backend_registry().choices() at the first call, kept for the rest of the process: the choices of a
// settings field (stokesian/settings/field_table.hpp), which need storage that outlives them.
// Backends registered later (tests) are not among them.
std::span<const std::string_view> backend_choices();

// The device context of a run of `config` (its backend resolved as make_engine does) on the devices
// `selection` names (run.devices; not given: one device, ordinal 0) and the MPI ranks `ranks`.
// Throws input_error (key run.devices) when the backend runs on the host, names fewer devices
// than selected, or a selected ordinal is not present (the backend's probe counts them).
device_context device_context_for(const engine_config& config, std::size_t particles, const device_selection& selection,
                                  communicator* ranks);

// One line per backend: name, availability and capabilities (for `stokesian` listings and tests).
std::string describe(const backend& b);

// Whether the registered backend `name` computes on a device (capabilities::devices > 0): its state
// can be lost with the device and is kept on the host too, its provenance names the device, its
// results are the gpu class of the stored references. False for a name not registered.
bool computes_on_device(const std::string& name);

}  // namespace stokesian::backends
