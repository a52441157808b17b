// The fused engines and the one place where their precision modes are instantiated (all nine; each
// mode compiles fused_pair_warp_kernel and fused_block_kernel here, fused_thread_kernel for
// N = 1 ... 8 in fused_thread_launch.cu and fused_grid_kernel in fused_grid_launch.cu).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "device_failure.hpp"
#include "fused_engine.cuh"
#include "stokesian/core/host_state.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/physics/tensor_registry.hpp"
#include "stokesian/physics/tensors/far_form.hpp"

namespace stokesian::cuda {

namespace {

// Launch size: a launch must stay well under a second (watchdogs, responsiveness, and so that an
// error surfaces soon), while launches stay rare enough that their ~5 us overhead is negligible.
// Budget: 2^27 pair evaluations per launch -- about 0.1 s even in f64 with one SM per system --
// counting a batch as one system per 64 members (the device runs many members side by side), and
// at most 2^18 steps (N = 4: 2^18 steps take ~0.05-0.3 s at 1-5 million steps/s).
// The grid kernel spreads one system over every SM: 2^33 pairs (~40 ms at ordered-split's ~2e11
// pairs/s at N = 10 976 on an H100, far-kernels.md).
constexpr double pair_budget_per_launch = double(1u << 27);
constexpr double grid_pair_budget_per_launch = double(std::uint64_t(1) << 33);
constexpr std::uint64_t max_steps_per_launch = std::uint64_t(1) << 18;

void check_particle_count(std::size_t n) {
    if (n == 0) throw std::invalid_argument("the fused CUDA path (--hi-kernel fused) needs at least one particle");
    if (n > fused_max_particles)
        throw std::invalid_argument("the fused CUDA path (--hi-kernel fused) runs at most " +
                                    std::to_string(fused_max_particles) + " particles: N = " + std::to_string(n) +
                                    " is too large (use the step-by-step kernels, e.g. --hi-kernel ordered-split)");
}

bool has_far_form(hydrodynamic_tensor key) {
    return dispatch_tensor(key, [](auto t) { return far_form<decltype(t)>::available; });
}

unsigned round_up_to_warp(unsigned n) { return (n + 31u) / 32u * 32u; }

// The device state of particles [first, first + count) on the host, and back (checkpoints of the
// whole run: every system; of one batch member: its own particles only).
template <class Policy, class Position, class Image, class Velocity, class Force>
host_state<Policy> download_state(const Position& position, const Image& image, const Velocity& velocity,
                                  const Force& force, std::uint64_t step, std::size_t first, std::size_t count) {
    host_state<Policy> h;
    position.download(h.position, first, count);
    image.download(h.image, first, count);
    velocity.download(h.velocity, first, count);
    force.download(h.force, first, count);
    h.step = step;
    return h;
}

template <class Policy, class Position, class Image, class Velocity, class Force>
void upload_state(const host_state<Policy>& h, Position& position, Image& image, Velocity& velocity, Force& force,
                  std::size_t first) {
    position.upload(h.position, first);
    image.upload(h.image, first);
    velocity.upload(h.velocity, first);
    force.upload(h.force, first);
}

// The default kernel for N systems of n particles, from the H100 measurements of 2026-11-27
// (engine/docs/fused-performance.md; stokesian_bench_small --kernels all): per
// system the pair-warp kernel is 3-4.5x faster than one thread per system in every mode (one
// system's step is a latency chain, which 16 pair lanes shorten and one thread lengthens), so it
// stays the choice for N <= 5; only a large batch, where 32 systems share a warp's instruction
// stream, gains from the thread kernel (8192 tetrahedra: 1.05-1.7x the pair-warp aggregate in
// 8 of 9 modes). Batches between 1 and 8192 systems were not measured: they keep the per-system choice.
// One system of fused_grid_from particles or more runs on the whole device (the grid kernel) where
// it can: on an H200 the block kernel took 8.3 us a step at N = 32 (one SM walks the sources one
// after the other), the grid kernel 2.8 us at N = 32 and 5.8 us at N = 128
// (engine/docs/gpu-runs/2026-11-28-h200-fused-grid-vs-block.txt, -bound.csv). Below N = 32 nothing
// was measured: the block kernel stays; the pair-warp kernel keeps N <= 5.
constexpr unsigned fused_thread_min_batch = 8192;
constexpr unsigned fused_grid_from = 32;
fused_kernel_choice automatic_fused_kernel(unsigned n, unsigned systems, bool grid_possible) {
    if (systems >= fused_thread_min_batch && n <= fused_thread_max_particles) return fused_kernel_choice::thread;
    if (systems == 1 && grid_possible && (n >= fused_grid_from || n > fused_block_max_particles))
        return fused_kernel_choice::grid;
    return n <= fused_pair_max_particles ? fused_kernel_choice::pair_warp : fused_kernel_choice::block;
}

fused_kernel_choice resolve_fused_kernel(fused_kernel_choice kernel, unsigned n, unsigned systems,
                                         const std::string& grid_refusal) {
    if (kernel == fused_kernel_choice::automatic) kernel = automatic_fused_kernel(n, systems, grid_refusal.empty());
    if (kernel == fused_kernel_choice::grid) {
        if (systems != 1)
            throw std::invalid_argument("the fused grid kernel runs one system, not a batch of " +
                                        std::to_string(systems));
        if (!grid_refusal.empty()) throw std::invalid_argument("the fused grid kernel " + grid_refusal);
        return kernel;
    }
    if (n > fused_block_max_particles)
        throw std::invalid_argument(
            "the fused CUDA path runs a batch member or the block kernel in one block of at most " +
            std::to_string(fused_block_max_particles) + " threads: N = " + std::to_string(n) +
            (grid_refusal.empty() ? std::string(" is too large")
                                  : "; a larger system runs on the whole device, but that kernel " + grid_refusal));
    if (kernel == fused_kernel_choice::thread && n > fused_thread_max_particles)
        throw std::invalid_argument("the one-thread fused kernel runs N <= " +
                                    std::to_string(fused_thread_max_particles) + ", not N = " + std::to_string(n));
    if (kernel == fused_kernel_choice::pair_warp && n > fused_pair_max_particles)
        throw std::invalid_argument("the pair-warp fused kernel runs N <= " + std::to_string(fused_pair_max_particles) +
                                    ", not N = " + std::to_string(n));
    return kernel;
}

}  // namespace

template <class Policy>
fused_systems<Policy>::fused_systems(const engine_config& config, const device_context& device,
                                     const std::vector<const initial_state*>& states, const std::vector<double>& dt,
                                     fused_kernel_choice kernel)
    : config_(config),
      device_(device.primary_ordinal()),
      params_(make_interaction_parameters<W>(config.system)),
      dt_(dt) {
    if (states.empty()) throw std::invalid_argument("the fused CUDA path needs at least one system");
    check_particle_count(states.front()->size());
    if (states.size() > 0x7fffffffu) throw std::invalid_argument("the fused CUDA path runs at most 2^31 - 1 systems");
    // The kernels hard-code the paper's step (drift, forces, velocities): explicit Euler.
    if (config.integrator != integrator_kind::euler)
        throw std::invalid_argument("the fused CUDA path implements the explicit Euler step only");
    // ... and the paper's explicit lubrication scheme: a solve per step would need the whole
    // Krylov iteration inside the kernel.
    if (config.system.lubrication.implicit())
        throw std::invalid_argument(
            "the fused CUDA path implements the explicit lubrication scheme only: "
            "physics.lubrication.scheme = \"implicit\" runs with the step-by-step kernels "
            "(e.g. --hi-kernel tiling) or on the CPU");
    // The fused kernels evaluate the pair-form tensors only (selected_tensor): a block evaluator's
    // loops over images and wave vectors would raise the register count of every fused kernel.
    if (is_block_tensor(config.system.tensor))
        throw std::invalid_argument("the fused CUDA path evaluates the pair-form tensors only: tensor '" +
                                    std::string(to_string(config.system.tensor)) +
                                    "' runs with the step-by-step kernels (backend 'cuda') or on the CPU");
    if (!device_available()) throw cuda_error("no CUDA device is available (backend 'cuda' was requested)");
    use_device(device_);
    device_name_of(device_);  // known before a fault could hide it (device_failure.hpp)
    n_ = static_cast<unsigned>(states.front()->size());
    systems_ = static_cast<unsigned>(states.size());
    kernel_ = resolve_fused_kernel(kernel, n_, systems_, fused_grid_refusal(config));
    box_ = storage_box<P>(config.system.box);

    // Initial states, rounded and wrapped on the host exactly as the other engines do.
    const std::size_t total = std::size_t(n_) * systems_;
    std::vector<vec3<P>> position(total);
    std::vector<vec3<int>> image(total);
    std::vector<vec3<W>> external(total);
    std::vector<P> dt_p(systems_);
    for (unsigned s = 0; s < systems_; ++s) {
        const initial_state& state = *states[s];
        if (state.size() != n_ || state.external_forces.size() != n_)
            throw std::invalid_argument(
                "the fused CUDA path needs systems of the same N, each with one force per particle");
        dt_p[s] = value_cast<P>(dt_[s]);
        const std::size_t base = std::size_t(s) * n_;
        round_initial_positions(state.positions, box_, position.data() + base, image.data() + base);
        round_forces(state.external_forces, n_, external.data() + base);
    }
    dt_device_.upload(dt_p);
    position_.upload(position);
    image_.upload(image);
    external_force_.upload(external);
    force_.upload(external);  // a defined "last force" before the first evaluation
    if (kernel_ == fused_kernel_choice::grid) {
        grid_position_w_.resize(2 * total, "fused grid positions");
        grid_force_w_.resize(total, "fused grid forces");
    }
    velocity_.resize(total, "velocities");
    check(cudaMemset(velocity_.data(), 0, total * sizeof(vec3<A>)), "cudaMemset velocities");

    if (kernel_ == fused_kernel_choice::block)
        shared_bytes_ = fused_block_shared_bytes<W>(n_, params_.short_range_cutoff > W(0));
    if (shared_bytes_ > 48 * 1024)
        check(cudaFuncSetAttribute(fused_block_kernel<P, A, W>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(shared_bytes_)),
              "cudaFuncSetAttribute (fused block kernel shared memory)");
    // Initial forces (zero previous velocities) and velocities, as the other engines' constructors.
    launch(0, true, fused_samples<P, A, W>{nullptr, nullptr, nullptr, nullptr, 0, 0});
    // This thread's default stream only (per-thread with --default-stream=per-thread): a device-wide
    // synchronisation would wait for the kernels of every other run of a concurrent suite.
    check(cudaStreamSynchronize(0), "initial velocities (fused)");
}

template <class Policy>
std::uint64_t fused_systems<Policy>::steps_per_launch() const {
    const double pairs_per_step = double(n_) * double(n_) * std::max(1.0, double(systems_) / 64.0);
    const double budget = kernel_ == fused_kernel_choice::grid ? grid_pair_budget_per_launch : pair_budget_per_launch;
    const double steps = std::floor(budget / pairs_per_step);
    if (steps < 1.0) return 1;
    return std::min<std::uint64_t>(static_cast<std::uint64_t>(steps), max_steps_per_launch);
}

template <class Policy>
void fused_systems<Policy>::launch(std::uint64_t steps, bool initialise, const fused_samples<P, A, W>& samples) {
    fused_arguments<P, A, W> a{};
    a.position = position_.data();
    a.image = image_.data();
    a.velocity = velocity_.data();
    a.force = force_.data();
    a.external_force = external_force_.data();
    a.dt = dt_device_.data();
    a.n = n_;
    a.systems = systems_;
    a.box = box_;
    a.params = params_;
    a.short_range = params_.short_range_cutoff > W(0);
    a.samples = samples;
    if (kernel_ == fused_kernel_choice::thread) {
        fused_thread_launcher<Policy>::launch(a, steps, initialise);
    } else if (kernel_ == fused_kernel_choice::grid) {
        fused_grid_launcher<Policy>::launch(a, {grid_position_w_.data(), grid_force_w_.data()}, steps, initialise);
    } else if (kernel_ == fused_kernel_choice::pair_warp) {
        fused_pair_warp_kernel<P, A, W><<<blocks(), 32u * pair_warps_per_block()>>>(a, steps, initialise);
        check_launch("fused_pair_warp_kernel");
    } else {
        fused_block_kernel<P, A, W><<<blocks(), round_up_to_warp(n_), shared_bytes_>>>(a, steps, initialise);
        check_launch("fused_block_kernel");
    }
}

template <class Policy>
void fused_systems<Policy>::advance(std::uint64_t steps) {
    use_device(device_);
    const std::uint64_t chunk = steps_per_launch();
    const fused_samples<P, A, W> none{nullptr, nullptr, nullptr, nullptr, 0, 0};
    for (std::uint64_t done = 0; done < steps;) {
        const std::uint64_t now = std::min(chunk, steps - done);
        launch(now, false, none);
        done += now;
        step_ += now;
    }
}

template <class Policy>
void fused_systems<Policy>::advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) {
    if (interval == 0) throw std::invalid_argument("advance_sampled: the sampling interval must be at least one step");
    use_device(device_);
    out.clear();
    if (samples == 0) return;
    // Launches of whole intervals when an interval fits the step budget of a launch (then `capacity`
    // intervals per launch), otherwise launches of at most the budget, each recording at most one
    // sample, an interval spanning several launches (the kernel resumes counting from `phase`).
    // The device sample buffer holds one launch's samples; they are copied back after each launch.
    const std::uint64_t chunk = steps_per_launch();
    const std::uint64_t capacity = std::min(samples, std::max<std::uint64_t>(1, chunk / interval));
    const std::size_t records = static_cast<std::size_t>(capacity) * systems_ * n_;
    sample_position_.resize(records, "fused samples");
    sample_image_.resize(records, "fused samples");
    sample_velocity_.resize(records, "fused samples");
    sample_force_.resize(records, "fused samples");
    out.reserve(static_cast<std::size_t>(samples) * systems_);
    std::vector<vec3<P>> position;
    std::vector<vec3<int>> image;
    std::vector<vec3<A>> velocity;
    std::vector<vec3<W>> force;
    const std::uint64_t first_step = step_;
    std::uint64_t phase = 0, recorded = 0;
    while (recorded < samples) {
        const std::uint64_t now =
            interval <= chunk ? std::min(capacity, samples - recorded) * interval : std::min(chunk, interval - phase);
        launch(now, false,
               fused_samples<P, A, W>{sample_position_.data(), sample_image_.data(), sample_velocity_.data(),
                                      sample_force_.data(), interval, phase});
        step_ += now;
        const std::uint64_t fresh = (phase + now) / interval;  // samples this launch recorded
        phase = (phase + now) % interval;
        if (fresh == 0) continue;
        // download() copies the whole buffer; its first `fresh` samples are this launch's.
        sample_position_.download(position);
        sample_image_.download(image);
        sample_velocity_.download(velocity);
        sample_force_.download(force);
        for (std::uint64_t k = 0; k < fresh; ++k) {
            const std::uint64_t step = first_step + (recorded + k + 1) * interval;
            for (unsigned sys = 0; sys < systems_; ++sys) {
                const std::size_t base = (static_cast<std::size_t>(k) * systems_ + sys) * n_;
                out.push_back(make_frame(sys, step, position.data() + base, image.data() + base, velocity.data() + base,
                                         force.data() + base));
            }
        }
        recorded += fresh;
    }
}

template <class Policy>
frame fused_systems<Policy>::make_frame(std::size_t system, std::uint64_t step, const vec3<P>* position,
                                        const vec3<int>* image, const vec3<A>* velocity, const vec3<W>* force) const {
    frame f;
    fill_frame(f, step, dt_[system], n_, position, image, velocity, force);
    return f;
}

template <class Policy>
void fused_systems<Policy>::read_frames(std::vector<frame>& out) const {
    use_device(device_);
    std::vector<vec3<P>> position;
    std::vector<vec3<int>> image;
    std::vector<vec3<A>> velocity;
    std::vector<vec3<W>> force;
    position_.download(position);
    image_.download(image);
    velocity_.download(velocity);
    force_.download(force);
    out.resize(systems_);
    for (unsigned s = 0; s < systems_; ++s) {
        const std::size_t base = std::size_t(s) * n_;
        out[s] = make_frame(s, step_, position.data() + base, image.data() + base, velocity.data() + base,
                            force.data() + base);
    }
}

template <class Policy>
engine_description fused_systems<Policy>::description() const {
    // The CUDA backend's kernel "fused" (backends/cuda_registration.cpp).
    engine_description description{"cuda", "fused", device_description(device_)};
    auto& d = description.details;
    switch (kernel_) {
        case fused_kernel_choice::thread:
            d["fused_kernel"] = "thread (one thread per system, N unrolled, each pair tensor once for both rows)";
            d["threads_per_system"] = "1";
            break;
        case fused_kernel_choice::pair_warp:
            d["fused_kernel"] = "pair-warp (one warp per system, one lane per pair, shuffles)";
            d["threads_per_system"] = "32";
            break;
        case fused_kernel_choice::grid:
            d["fused_kernel"] = "grid (one system on the whole device, a block of " +
                                std::to_string(fused_grid_adders<W>) + " adding and " +
                                std::to_string(fused_grid_producers<W>) + " producing warps per tile of up to " +
                                std::to_string(fused_grid_tile_max<W>) + " particles, grid barriers)";
            d["threads_per_system"] = "all resident blocks of " + std::to_string(fused_grid_block<W>);
            break;
        default:
            d["fused_kernel"] = "block (one block per system, one thread per particle, shared memory)";
            d["threads_per_system"] = std::to_string(round_up_to_warp(n_));
    }
    d["steps_per_launch"] = std::to_string(steps_per_launch());
    d["systems"] = std::to_string(systems_);
    d["particles_per_system"] = std::to_string(n_);
    d["precision"] = to_string(Policy::mode);
    d["neighbour_search"] = params_.short_range_cutoff > W(0) ? "all pairs (fused)" : "none";
    return description;
}

template <class Policy>
void fused_systems<Policy>::save_state(engine_state& out) const {
    use_device(device_);
    download_state<Policy>(position_, image_, velocity_, force_, step_, 0, std::size_t(n_) * systems_).save(out);
}

template <class Policy>
void fused_systems<Policy>::restore_state(const engine_state& state) {
    host_state<Policy> h;
    h.restore(state, std::size_t(n_) * systems_);
    use_device(device_);
    upload_state(h, position_, image_, velocity_, force_, 0);
    step_ = h.step;
}

template <class Policy>
void fused_systems<Policy>::save_system_state(std::size_t system, engine_state& out) const {
    if (system >= systems_) throw std::invalid_argument("save_member_state: no member " + std::to_string(system));
    use_device(device_);
    download_state<Policy>(position_, image_, velocity_, force_, step_, system * n_, n_).save(out);
}

template <class Policy>
void fused_systems<Policy>::restore_system_state(std::size_t system, const engine_state& state) {
    if (system >= systems_) throw std::invalid_argument("restore_member_state: no member " + std::to_string(system));
    host_state<Policy> h;
    h.restore(state, n_);  // checks mode and size before the device is touched
    use_device(device_);
    upload_state(h, position_, image_, velocity_, force_, system * n_);
}

template <class Policy>
void fused_engine_impl<Policy>::read_frame(frame& out) const {
    std::vector<frame> frames;
    on_device(systems_.device(), [&] { systems_.read_frames(frames); });
    out = std::move(frames.front());
}

namespace {
std::vector<const initial_state*> member_states(const std::vector<batch_member>& members) {
    std::vector<const initial_state*> states;
    states.reserve(members.size());
    for (const auto& m : members) states.push_back(&m.state);
    return states;
}
std::vector<double> member_dts(const std::vector<batch_member>& members) {
    std::vector<double> dt;
    dt.reserve(members.size());
    for (const auto& m : members) dt.push_back(m.dt);
    return dt;
}
}  // namespace

template <class Policy>
fused_batch_engine<Policy>::fused_batch_engine(const engine_config& config, const device_context& device,
                                               const std::vector<batch_member>& members, fused_kernel_choice kernel)
    : systems_(config, device, member_states(members), member_dts(members), kernel) {}

STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(fused_systems)
STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(fused_engine_impl)
STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(fused_batch_engine)

std::string fused_grid_refusal(const engine_config& config) {
    if (!has_far_form(config.system.tensor))
        return "needs a tensor with a far form (rotne-prager), not '" + std::string(to_string(config.system.tensor)) +
               "'";
    return "";
}

std::unique_ptr<fused_engine> make_fused_engine(const engine_config& config, const device_context& device,
                                                const initial_state& state, fused_kernel_choice kernel) {
    check_particle_count(state.size());
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) -> std::unique_ptr<fused_engine> {
        return std::make_unique<fused_engine_impl<Policy>>(config, device, state, kernel);
    });
}

std::unique_ptr<batch_engine> make_cuda_batch_engine(const engine_config& config, const device_context& device,
                                                     const std::vector<batch_member>& members,
                                                     fused_kernel_choice kernel) {
    if (!config.hi_kernel.empty() && config.hi_kernel != "fused")
        throw std::invalid_argument("a CUDA batch runs the fused kernel only: hi-kernel '" + config.hi_kernel +
                                    "' (expected \"\" or fused)");
    if (members.empty()) throw std::invalid_argument("make_batch_engine: the batch is empty (no members)");
    check_particle_count(members.front().state.size());
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) -> std::unique_ptr<batch_engine> {
        return std::make_unique<fused_batch_engine<Policy>>(config, device, members, kernel);
    });
}

}  // namespace stokesian::cuda
