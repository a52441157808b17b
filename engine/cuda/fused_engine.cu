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
#include "fused_kernel_choice.hpp"
#include "stokesian/core/host_state.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/core/target_slices.hpp"
#include "stokesian/cuda/cuda_backend.hpp"

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

}  // namespace

template <class Policy>
fused_systems<Policy>::fused_systems(const engine_config& config, const device_context& device,
                                     const std::vector<const initial_state*>& states, const std::vector<double>& dt,
                                     fused_kernel_choice kernel)
    : config_(config),
      params_(make_interaction_parameters<W>(config.system)),
      dt_(dt),
      fault_(injected_fault_from_environment()) {
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
    const std::vector<int> ordinals = device.ordinals.empty() ? std::vector<int>{0} : device.ordinals;
    for (const int ordinal : ordinals) device_name_of(ordinal);  // known before a fault could hide it
    n_ = static_cast<unsigned>(states.front()->size());
    systems_ = static_cast<unsigned>(states.size());
    kernel_ =
        resolve_fused_kernel(kernel, n_, systems_, static_cast<unsigned>(ordinals.size()), fused_grid_refusal(config));
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
    for (std::size_t k = 0; k < ordinals.size(); ++k) {
        use_device(ordinals[k]);
        fused_part<Policy>& p = parts_.emplace_back();
        p.device = ordinals[k];
        p.index = static_cast<unsigned>(k);
        p.slice = slice_of(n_, static_cast<unsigned>(ordinals.size()), static_cast<unsigned>(k));
        p.dt.upload(dt_p);
        p.position.upload(position);
        p.image.upload(image);
        p.external_force.upload(external);
        p.force.upload(external);  // a defined "last force" before the first evaluation
        if (kernel_ == fused_kernel_choice::grid) {
            p.grid_position_w.resize(2 * total, "fused grid positions");
            p.grid_force_w.resize(total, "fused grid forces");
        }
        p.velocity.resize(total, "velocities");
        check(cudaMemset(p.velocity.data(), 0, total * sizeof(vec3<A>)), "cudaMemset velocities");
    }
    if (parts_.size() > 1) connect_parts(parts_);
    use_device(parts_.front().device);

    if (kernel_ == fused_kernel_choice::block)
        shared_bytes_ = fused_block_shared_bytes<W>(n_, params_.short_range_cutoff > W(0));
    if (shared_bytes_ > 48 * 1024)
        check(cudaFuncSetAttribute(fused_block_kernel<P, A, W>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(shared_bytes_)),
              "cudaFuncSetAttribute (fused block kernel shared memory)");
    // Initial forces (zero previous velocities) and velocities, as the other engines' constructors.
    launch(0, true);
    // This thread's default stream only (per-thread with --default-stream=per-thread): a device-wide
    // synchronisation would wait for the kernels of every other run of a concurrent suite.
    if (parts_.size() > 1) finish();
    else check(cudaStreamSynchronize(0), "initial velocities (fused)");
}

template <class Policy>
fused_systems<Policy>::~fused_systems() {
    int current = 0;
    cudaGetDevice(&current);
    for (const fused_part<Policy>& p : parts_) {
        cudaSetDevice(p.device);
        cudaStreamSynchronize(cudaStreamPerThread);  // a destructor reports nothing: the error was thrown
    }
    for (fused_part<Policy>& p : parts_) {
        cudaSetDevice(p.device);
        p = fused_part<Policy>{};
    }
    cudaSetDevice(current);
    cudaGetLastError();
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
void fused_systems<Policy>::launch(std::uint64_t steps, bool initialise, std::uint64_t interval, std::uint64_t phase) {
    // The test seam: the launch that runs step fault_.step begins with a trap on its device.
    if (fault_.armed && fault_.step >= step_ && fault_.step - step_ < std::max<std::uint64_t>(steps, 1)) {
        launch_trap(fault_.ordinal < 0 ? parts_.front().device : fault_.ordinal, parts_.front().device);
        fault_.armed = false;
    }
    // Every device's launch is queued before any is waited for: on several devices each waits for
    // the others at its first barrier.
    for (fused_part<Policy>& p : parts_) launch_on(p, steps, initialise, interval, phase);
    use_device(parts_.front().device);
}

template <class Policy>
void fused_systems<Policy>::launch_on(fused_part<Policy>& on, std::uint64_t steps, bool initialise,
                                      std::uint64_t interval, std::uint64_t phase) {
    use_device(on.device);
    fused_arguments<P, A, W> a{};
    a.position = on.position.data();
    a.image = on.image.data();
    a.velocity = on.velocity.data();
    a.force = on.force.data();
    a.external_force = on.external_force.data();
    a.dt = on.dt.data();
    a.n = n_;
    a.systems = systems_;
    a.box = box_;
    a.params = params_;
    a.short_range = params_.short_range_cutoff > W(0);
    a.samples = {nullptr, nullptr, nullptr, nullptr, 0, 0};
    if (interval != 0)
        a.samples = {on.sample_position.data(),
                     on.sample_image.data(),
                     on.sample_velocity.data(),
                     on.sample_force.data(),
                     interval,
                     phase};
    if (kernel_ == fused_kernel_choice::thread) {
        fused_thread_launcher<Policy>::launch(a, steps, initialise);
    } else if (kernel_ == fused_kernel_choice::grid) {
        const fused_grid_slice<P, A, W> slice = on.grid_slice(parts_.size());
        fused_grid_launcher<Policy>::launch(a, {on.grid_position_w.data(), on.grid_force_w.data()}, slice, steps,
                                            initialise);
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
    use_device(parts_.front().device);
    const std::uint64_t chunk = steps_per_launch();
    for (std::uint64_t done = 0; done < steps;) {
        const std::uint64_t now = std::min(chunk, steps - done);
        launch(now, false);
        done += now;
        step_ += now;
    }
    finish();
}

template <class Policy>
void fused_systems<Policy>::download_samples(std::uint64_t count, std::vector<vec3<P>>& position,
                                             std::vector<vec3<int>>& image, std::vector<vec3<A>>& velocity,
                                             std::vector<vec3<W>>& force) const {
    if (parts_.size() == 1) {
        const std::size_t records = static_cast<std::size_t>(count) * systems_ * n_;
        const fused_part<Policy>& p = parts_.front();
        p.sample_position.download(position, 0, records);
        p.sample_image.download(image, 0, records);
        p.sample_velocity.download(velocity, 0, records);
        p.sample_force.download(force, 0, records);
        return;
    }
    gather_samples(parts_, n_, count, position, image, velocity, force);  // one system on several devices
}

template <class Policy>
void fused_systems<Policy>::advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) {
    if (interval == 0) throw std::invalid_argument("advance_sampled: the sampling interval must be at least one step");
    use_device(parts_.front().device);
    out.clear();
    if (samples == 0) return;
    // Launches of whole intervals when an interval fits the step budget of a launch (then `capacity`
    // intervals per launch), otherwise launches of at most the budget, each recording at most one
    // sample, an interval spanning several launches (the kernel resumes counting from `phase`).
    // The device sample buffers hold one launch's samples; they are copied back after each launch.
    const std::uint64_t chunk = steps_per_launch();
    const std::uint64_t capacity = std::min(samples, std::max<std::uint64_t>(1, chunk / interval));
    const std::size_t records = static_cast<std::size_t>(capacity) * systems_ * n_;
    for (fused_part<Policy>& p : parts_) {
        use_device(p.device);
        p.sample_position.resize(records, "fused samples");
        p.sample_image.resize(records, "fused samples");
        p.sample_velocity.resize(records, "fused samples");
        p.sample_force.resize(records, "fused samples");
    }
    use_device(parts_.front().device);
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
        launch(now, false, interval, phase);
        step_ += now;
        finish();
        const std::uint64_t fresh = (phase + now) / interval;  // samples this launch recorded
        phase = (phase + now) % interval;
        if (fresh == 0) continue;
        download_samples(fresh, position, image, velocity, force);
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
    // On several devices every one holds the whole state once all have finished (their stores).
    finish();
    const fused_part<Policy>& p = parts_.front();
    use_device(p.device);
    std::vector<vec3<P>> position;
    std::vector<vec3<int>> image;
    std::vector<vec3<A>> velocity;
    std::vector<vec3<W>> force;
    p.position.download(position);
    p.image.download(image);
    p.velocity.download(velocity);
    p.force.download(force);
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
    engine_description description{"cuda", "fused", device_description(parts_.front().device)};
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
    if (parts_.size() > 1) {
        std::string ordinals, names, slices;
        for (std::size_t k = 0; k < parts_.size(); ++k) {
            ordinals += (k ? "," : "") + std::to_string(parts_[k].device);
            names += (k ? ", " : "") + device_name_of(parts_[k].device);
            slices += (k ? " [" : "[") + std::to_string(parts_[k].slice.begin) + ", " +
                      std::to_string(parts_[k].slice.end) + ")";
        }
        d["devices"] = ordinals;
        d["device_count"] = std::to_string(parts_.size());
        d["device_names"] = names;
        d["hi_decomposition"] = "target slices " + slices +
                                ", one per device, each device's state stored into every other through peer access, "
                                "barriers across the devices (fused_grid_devices.cuh)";
    }
    d["neighbour_search"] = params_.short_range_cutoff > W(0) ? "all pairs (fused)" : "none";
    return description;
}

template <class Policy>
void fused_systems<Policy>::save_state(engine_state& out) const {
    finish();
    const fused_part<Policy>& p = parts_.front();
    use_device(p.device);
    download_state<Policy>(p.position, p.image, p.velocity, p.force, step_, 0, std::size_t(n_) * systems_).save(out);
}

template <class Policy>
void fused_systems<Policy>::restore_state(const engine_state& state) {
    host_state<Policy> h;
    h.restore(state, std::size_t(n_) * systems_);
    finish();  // no launch still storing into a device
    for (fused_part<Policy>& p : parts_) {
        use_device(p.device);
        upload_state(h, p.position, p.image, p.velocity, p.force, 0);
    }
    use_device(parts_.front().device);
    step_ = h.step;
}

template <class Policy>
void fused_systems<Policy>::save_system_state(std::size_t system, engine_state& out) const {
    if (system >= systems_) throw std::invalid_argument("save_member_state: no member " + std::to_string(system));
    const fused_part<Policy>& p = parts_.front();  // a batch runs on one device
    use_device(p.device);
    download_state<Policy>(p.position, p.image, p.velocity, p.force, step_, system * n_, n_).save(out);
}

template <class Policy>
void fused_systems<Policy>::restore_system_state(std::size_t system, const engine_state& state) {
    if (system >= systems_) throw std::invalid_argument("restore_member_state: no member " + std::to_string(system));
    host_state<Policy> h;
    h.restore(state, n_);  // checks mode and size before the device is touched
    fused_part<Policy>& p = parts_.front();
    use_device(p.device);
    upload_state(h, p.position, p.image, p.velocity, p.force, system * n_);
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
