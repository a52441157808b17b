// The CUDA backend in the registry: "cuda", the step-by-step engine (every integrator and scheme, any
// N, on any number of devices where the build has NCCL: engine/docs/multi-gpu.md) with its HI
// kernels, and the fused engine as its kernel "fused" (whole Euler steps inside one launch,
// N <= 1024 in one block, one system up to 65 536 on the whole device where the tensor has a far
// form, explicit lubrication, one device; fused_engine.cu), bit for bit the
// step-by-step engine: named (--hi-kernel fused, a suite's cuda_hi_kernel) or chosen by auto where
// it can run the configuration. A build without CUDA registers it as absent, so a request names what
// is missing instead of "unknown backend".
#include <algorithm>
#include <stdexcept>
#include <string>

#include "builtin_backends.hpp"
#include "stokesian/backends/hi_kernel_cache.hpp"
#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "stokesian/cuda/mobility_backend.hpp"
#include "stokesian/cuda/phase_benchmark.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "stokesian/cuda/cuda_errors.hpp"
#include "stokesian/cuda/hi_kernel_names.hpp"
#endif

namespace stokesian::backends {

namespace {

// The kernel name of the fused engine.
constexpr const char* fused_kernel = "fused";

backend cuda_step_backend() {
    backend b;
    b.name = "cuda";
    b.title = "the CUDA backend";
    b.can.devices = 1;
    // Its batch factory runs the fused kernel (fused_backend.hpp): runs of that kernel batch (auto
    // picks it, or --hi-kernel fused), bit for bit as alone.
    b.can.batches = b.can.batches_runs = true;
    b.can.batch_kernel = fused_kernel;
    b.auto_preference = 10;
    // One system alone: one CPU core steps the tetrahedron 1.4-2.3x faster than the fused engine on
    // an H100 in every precision mode (engine/docs/fused-performance.md); larger N is not measured
    // against the CPU, so auto keeps the device there.
    b.auto_slower_up_to = 4;
    b.auto_slower_measured =
        "engine/docs/gpu-runs/2026-11-27-h100-tetrahedron-cpu-cuda.csv: one CPU core 1.4-2.3x the fused engine's "
        "steps/s on an H100";
    return b;
}

#if defined(STOKESIAN_HAVE_CUDA)

// What the fused engine runs, less than the step-by-step engine does: Euler, explicit lubrication,
// at most fused_max_particles, pair-form tensors (fused_engine.cu).
capabilities fused_capabilities() {
    capabilities c;
    c.integrators = {integrator_kind::euler};
    c.lubrication_schemes = {lubrication_scheme::explicit_update};
    c.max_particles = cuda::fused_max_particles;
    c.pair_tensors_only = true;
    return c;
}

// Why the fused engine cannot run `config` with `particles` particles on `device`; empty when it
// can. It stays in one process: on one device, or with its grid kernel on several devices of this
// host that reach each other's memory (peer access), at least one particle each.
std::string fused_refusal(const engine_config& config, std::size_t particles, const device_context& device) {
    if (std::string why = fused_capabilities().refusal(config, particles); !why.empty()) return why;
    const std::size_t devices = device.ordinals.size();
    // Beyond one block, or on several devices, only the grid kernel runs a system.
    if (particles > cuda::fused_block_max_particles || devices > 1)
        if (std::string why = cuda::fused_grid_refusal(config); !why.empty())
            return (devices > 1 ? std::string("runs one system on several devices")
                                : "runs N = " + std::to_string(particles) + " (more than one block's " +
                                      std::to_string(cuda::fused_block_max_particles) + ")") +
                   " on the grid kernel, which " + why;
    if (spread(device.ranks)) return "does not run across MPI ranks";
    if (std::string why = cuda::fused_devices_refusal(particles, devices); !why.empty()) return why + " (run.devices)";
    if (devices > 1)
        if (std::string why = cuda::peer_access_refusal(device.ordinals); !why.empty())
            return "on several devices needs each to reach the others' memory: " + why;
    return "";
}

availability device_probe() {
    if (const unsigned present = cuda::device_count(); present > 0) {
        availability a;
        a.devices_present = present;
        return a;
    }
    return {false, "no CUDA device is available here (use cpu, or auto to fall back)", "no CUDA device found"};
}

// The CUDA engines take the thread's default stream for now; a context naming another one is refused.
// The ordinals must exist here and be distinct (input_error, exit code 2). Across MPI ranks each
// rank's one device is checked by all ranks together (cuda/device_group.hpp): a rank that refused
// alone here would leave the others waiting and its message unsaid.
void check_context(const device_context& device) {
    if (device.stream != nullptr)
        throw std::invalid_argument("the CUDA backends launch on the thread's default stream only (device_context)");
    if (!spread(device.ranks)) cuda::check_device_ordinals(device.ordinals);
}

// A system too large for the device is the input's fault, not the program's.
template <class Make>
std::unique_ptr<engine> sized_for_device(Make make, std::size_t particles) {
    try {
        return make();
    } catch (const cuda::device_out_of_memory& e) {
        throw input_error("backend 'cuda'", "", "",
                          std::string(e.what()) + " for N = " + std::to_string(particles) +
                              " particles (a smaller system, or a device with more memory)");
    }
}

std::unique_ptr<batch_engine> fused_batch(const engine_config& config, const device_context& device,
                                          const std::vector<batch_member>& members) {
    check_context(device);
    // A batch is many small systems in one launch: one device (the fused path stays on one).
    if (device.ordinals.size() > 1)
        throw std::invalid_argument("a CUDA batch runs on one device; the device context names " +
                                    std::to_string(device.ordinals.size()));
    return cuda::make_cuda_batch_engine(config, device, members);
}

// The query of the kernel choice for device `ordinal`: its name and compute capability, the
// kernels this build has; the fused engine not possible unless the caller says so.
kernel_query device_query(kernel_request request, std::size_t particles, precision hi, bool periodic, int ordinal) {
    kernel_query q;
    q.request = request;
    q.particles = particles;
    q.hi = hi;
    q.periodic = periodic;
    const cuda::device_identity device = cuda::identify_device(ordinal);
    q.device_name = device.name;
    q.compute_capability = device.compute_capability;
    q.candidates = cuda_kernel_candidates();
    return q;
}

// auto and fast (stokesian/backends/hi_kernel_choice.hpp): the device's class from its compute
// capability, the fused engine where it can run the configuration, the tuning cache of the user. Across MPI ranks only rank 0 asks (on
// its device; the others run the kernel it sends: run/rank_protocol.hpp): the ordinal check below
// would refuse a follower's missing device alone, before the ranks' device gather.
kernel_choice choose_cuda(const engine_config& config, std::size_t particles, const device_context& device,
                          kernel_request request) {
    cuda::check_device_ordinals(device.ordinals);  // a missing device is input_error, as the factory says
    kernel_query q =
        device_query(request, particles, config.precision.hi, config.system.box.periodic, device.primary_ordinal());
    q.fused_possible = fused_refusal(config, particles, device).empty();
    q.devices = std::max<std::size_t>(1, device.ordinals.size());
    q.short_range = config.system.short_range_cutoff() > 0.0;
    const tuning_cache cache = user_tuning_cache();
    return choose_cuda_kernel(q, &cache);
}

#endif

}  // namespace

kernel_choice choose_cuda_step_kernel(kernel_request request, std::size_t particles, precision hi, bool periodic,
                                      int ordinal) {
#if defined(STOKESIAN_HAVE_CUDA)
    const tuning_cache cache = user_tuning_cache();
    return choose_cuda_kernel(device_query(request, particles, hi, periodic, ordinal), &cache);
#else
    (void)request, (void)particles, (void)hi, (void)periodic, (void)ordinal;
    throw std::runtime_error("this build of stokesian has no CUDA backend");
#endif
}

kernel_candidates cuda_kernel_candidates() {
    kernel_candidates c;
#if defined(STOKESIAN_HAVE_CUDA)
    for (const std::string& name : cuda::step_kernel_names()) {
        const cuda::hi_kernel k = cuda::parse_hi_kernel(name);
        if (cuda::uses_fast_math(k)) c.fast.push_back(name);
        if (cuda::sums_in_cpu_order(k)) c.exact.push_back(name);
    }
#endif
    return c;
}

void register_cuda_backends(registry& r) {
    backend step = cuda_step_backend();
#if defined(STOKESIAN_HAVE_CUDA)
    step.can.hi_kernels = cuda::step_kernel_names();
    step.can.hi_kernels.emplace_back(fused_kernel);
    step.can.cpu_order_kernels = cuda_kernel_candidates().exact;
    step.can.cpu_order_kernels.emplace_back(fused_kernel);
    if (cuda::multi_device_build()) {
        step.can.devices = any_device_count;
        step.can.ranks = true;  // one device per MPI rank, gathered with NCCL (engine/docs/multi-gpu.md)
    }
    step.probe = device_probe;
    step.choose_kernel = choose_cuda;
    step.make_engine = [](const engine_config& config, const device_context& device, const initial_state& state) {
        check_context(device);
        if (config.hi_kernel != fused_kernel)
            return sized_for_device([&] { return cuda::make_cuda_engine(config, device, state); }, state.size());
        // Named, or chosen by auto only where it can run (choose_cuda): a named one it cannot run is
        // the user's to change (exit code 2).
        if (const std::string why = fused_refusal(config, state.size(), device); !why.empty())
            throw input_error("", "run.hi_kernel", fused_kernel,
                              "the fused engine " + why + " (name another kernel, or auto)");
        return sized_for_device(
            [&]() -> std::unique_ptr<engine> { return cuda::make_fused_engine(config, device, state); }, state.size());
    };
    step.make_batch = fused_batch;
    step.time_phases = [](engine_config config, const initial_state& state, const phase_run& run) {
        if (const kernel_request request = request_of(config.hi_kernel); request != kernel_request::named)
            config.hi_kernel =
                choose_cuda_step_kernel(request, state.size(), config.precision.hi, config.system.box.periodic, 0)
                    .kernel;
        return cuda::time_phases(config, state, run);
    };
    step.cannot_time = [](const engine_config& config, std::size_t particles) -> std::string {
        if (config.hi_kernel != fused_kernel) return "";
        const std::string why = fused_refusal(config, particles, device_context{});
        return why.empty() ? "" : "the fused engine " + why;
    };
    step.describe_device = [](int ordinal) { return cuda::device_description(ordinal); };
    // Mobility checks (core/mobility_operator.hpp) on the primary device.
    step.make_mobility = [](const system_parameters& system, const std::vector<vec3<double>>& positions,
                            const device_context& device, unsigned) {
        check_context(device);
        return cuda::make_cuda_mobility_operator(system, positions, device);
    };
    step.device_cholesky = [](const system_parameters& system, const std::vector<vec3<double>>& positions,
                              const device_context& device, double shift) {
        check_context(device);
        return cuda::cuda_dense_cholesky(system, positions, device, shift);
    };
#else
    const auto absent = [] {
        return availability{false, "this build of stokesian has no CUDA backend (use cpu or auto)",
                            "this build has no CUDA backend"};
    };
    step.probe = absent;
#endif
    r.add(std::move(step));
}

}  // namespace stokesian::backends
