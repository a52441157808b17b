// The CUDA engine on several devices (multi_device_engine.cuh) and its instantiation for every
// precision mode.
#include <string>
#include <utility>

#include "cuda_check.hpp"
#include "cuda_engine_lubrication.cuh"
#include "device_failure.hpp"
#include "multi_device_engine.cuh"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/target_slices.hpp"

namespace stokesian::cuda {

template <class Policy>
multi_device_engine<Policy>::multi_device_engine(const engine_config& config, const device_context& device,
                                                 const initial_state& state)
    : group_(device.ordinals, device.ranks), ranks_(spread(device.ranks) ? device.ranks : nullptr) {
    if (group_.parts() < 2) throw std::invalid_argument("multi_device_engine: needs at least two devices");
    slices_ = slices_of(state.size(), static_cast<unsigned>(group_.parts()));
    for (std::size_t d = 0; d < group_.size(); ++d) {
        device_context one;
        one.ordinals = {group_.ordinal(d)};
        // Each replica rounds, wraps and uploads the initial state exactly as one device does.
        replicas_.push_back(std::make_unique<replica>(config, one, state, /*initial_velocities=*/false));
    }
    use_device(group_.ordinal(0));
    // The initial forces and velocities, as cuda_engine's constructor evaluates them.
    guarded([&] {
        update_forces();
        update_velocities();
        group_.wait_all();
    });
}

template <class Policy>
multi_device_engine<Policy>::~multi_device_engine() {
    // Never free memory on a device whose stream may hold a collective waiting on a failed peer:
    // wait_all() finds such a peer and aborts the communicators first.
    try {
        group_.wait_all();
    } catch (...) {  // a destructor reports nothing; the failure was (or will never be) thrown
    }
    for (std::size_t d = 0; d < replicas_.size(); ++d) {
        cudaSetDevice(group_.ordinal(d));
        replicas_[d].reset();
    }
    cudaGetLastError();
}

template <class Policy>
template <class F>
void multi_device_engine<Policy>::on_each(F&& f) {
    for (std::size_t d = 0; d < replicas_.size(); ++d) {
        use_device(group_.ordinal(d));
        f(*replicas_[d], d);
    }
    use_device(group_.ordinal(0));
}

template <class Policy>
template <class F>
decltype(auto) multi_device_engine<Policy>::guarded(F&& f) const {
    try {
        return on_device(-1, std::forward<F>(f));
    } catch (const device_error& e) {
        group_.failed(e);  // aborts; across ranks names this rank and tells the others
    }
}

template <class Policy>
void multi_device_engine<Policy>::advance(std::uint64_t steps) {
    guarded([&] {
        use_device(group_.ordinal(0));
        const integrator_kind integrator = replicas_.front()->config_.integrator;
        const injected_fault& fault = replicas_.front()->fault_;
        for (std::uint64_t s = 0; s < steps; ++s) {
            if (fault.armed && step_ == fault.step)
                for (std::size_t d = 0; d < replicas_.size(); ++d)
                    if (group_.ordinal(d) == (fault.ordinal < 0 ? group_.ordinal(0) : fault.ordinal))
                        launch_trap(group_.ordinal(d), group_.ordinal(0));
            integrate_observed_step(integrator, *this, phase_timer_);
            ++step_;
            for (auto& r : replicas_) r->step_ = step_;
            if (ranks_) group_.check_peers();  // a peer's failure: leave before the launch queue fills
        }
        // Whoever waits on the first device next (a frame, a timer) must not wait on a collective a
        // failed peer will never finish: a failure in these steps is thrown here.
        group_.wait_all();
    });
}

template <class Policy>
void multi_device_engine<Policy>::set_phase_timer(step_observer* timer) {
    phase_timer_ = timer;
    group_.set_timing(timer != nullptr);
}

// --- the step primitives: the same on every device, the HI sum sliced ---

template <class Policy>
void multi_device_engine<Policy>::drift() {
    on_each([](replica& r, std::size_t) { r.drift(); });
}

template <class Policy>
void multi_device_engine<Policy>::begin_step() {
    on_each([](replica& r, std::size_t) { r.begin_step(); });
}

template <class Policy>
void multi_device_engine<Policy>::store_stage(int s) {
    on_each([&](replica& r, std::size_t) { r.store_stage(s); });
}

template <class Policy>
void multi_device_engine<Policy>::drift_from_start(const double* c, int m) {
    on_each([&](replica& r, std::size_t) { r.drift_from_start(c, m); });
}

template <class Policy>
void multi_device_engine<Policy>::drift_with_history(double c0, double c1) {
    on_each([&](replica& r, std::size_t) { r.drift_with_history(c0, c1); });
}

template <class Policy>
void multi_device_engine<Policy>::remember_velocity() {
    on_each([](replica& r, std::size_t) { r.remember_velocity(); });
}

template <class Policy>
void multi_device_engine<Policy>::update_forces() {
    // A replica's lists may wait for a build some steps back (lagged_readback.hpp) and the implicit
    // scheme reads its count of lubricated pairs back: first make sure no device is still inside a
    // collective that a failed peer would never complete.
    if (replicas_.front()->short_range_) group_.wait_all();
    on_each([](replica& r, std::size_t) { r.update_forces(); });
    solve_pending_ = replicas_.front()->solve_pending_;
}

template <class Policy>
void multi_device_engine<Policy>::sliced_velocities() {
    on_each([&](replica& r, std::size_t d) { r.launch_velocities(slice(d)); });
    std::vector<void*> velocities;
    for (auto& r : replicas_) velocities.push_back(r->velocity_.data());
    group_.all_gather(velocities, sizeof(vec3<typename replica::A>), slices_);
}

template <class Policy>
void multi_device_engine<Policy>::update_velocities() {
    replica& first = *replicas_.front();
    if (solve_pending_) {
        solve_lubrication();
        solve_pending_ = false;
        for (auto& r : replicas_) r->solve_pending_ = false;
        return;
    }
    sliced_velocities();
    if (first.implicit_lubrication_) first.solver_statistics_.record({});  // v = mu F: nothing to solve
}

// The Krylov primitives (core/lubrication_solver.hpp) on every replica; mobility products sliced.
template <class Policy>
struct multi_device_engine<Policy>::krylov_ops {
    multi_device_engine& e;
    using replica_ops = typename replica::krylov_ops;

    void mobility_of_solution() { e.sliced_velocities(); }

    void lubrication_of_velocities(krylov_vector out) {
        e.on_each([&](replica& r, std::size_t) { replica_ops{r}.lubrication_of_velocities(out); });
    }

    void apply_mobility(krylov_vector in, krylov_vector out) {
        e.on_each([&](replica& r, std::size_t d) { replica_ops{r}.mobility_into_output(in, e.slice(d)); });
        std::vector<void*> outputs;
        for (auto& r : e.replicas_) outputs.push_back(r->mobility_output_.data());
        e.group_.all_gather(outputs, sizeof(vec3<typename replica::A>), e.slices_);
        e.on_each([&](replica& r, std::size_t) { replica_ops{r}.output_to_working(out); });
    }

    void apply_lubrication(krylov_vector in, krylov_vector out) {
        e.on_each([&](replica& r, std::size_t) { replica_ops{r}.apply_lubrication(in, out); });
    }

    void combine(krylov_vector out, double a, krylov_vector x, double b, krylov_vector y) {
        e.on_each([&](replica& r, std::size_t) { replica_ops{r}.combine(out, a, x, b, y); });
    }

    // Every replica holds the same vectors: the first device's partials are the one device's.
    double dot(krylov_vector x, krylov_vector y) {
        e.group_.wait_all();
        return replica_ops{*e.replicas_.front()}.dot(x, y);
    }
};

template <class Policy>
void multi_device_engine<Policy>::solve_lubrication() {
    replica& first = *replicas_.front();
    krylov_ops ops{*this};
    lubrication_solve_report report = solve_implicit_lubrication(ops, first.config_.system.lubrication.max_iterations,
                                                                 lubrication_tolerance<typename replica::W>());
    report.lubricated_pairs = first.lubricated_pairs_;
    first.solver_statistics_.record(report);
}

// --- frames, checkpoints, provenance: the first device's replica ---

template <class Policy>
void multi_device_engine<Policy>::read_frame(frame& out) const {
    guarded([&] { group_.wait_all(); });
    replicas_.front()->read_frame(out);
}

template <class Policy>
void multi_device_engine<Policy>::save_state(engine_state& out) const {
    guarded([&] { group_.wait_all(); });
    replicas_.front()->save_state(out);
}

template <class Policy>
void multi_device_engine<Policy>::restore_state(const engine_state& state) {
    guarded([&] {
        group_.wait_all();
        for (auto& r : replicas_) r->restore_state(state);  // each makes its device current
        use_device(group_.ordinal(0));
    });
    step_ = replicas_.front()->step();
    solve_pending_ = false;
}

template <class Policy>
engine_description multi_device_engine<Policy>::description() const {
    engine_description description = replicas_.front()->description();
    auto& d = description.details;
    std::string ordinals, names, slices;
    for (std::size_t k = 0; k < replicas_.size(); ++k) {
        const std::string sep = k ? "," : "";
        ordinals += sep + std::to_string(group_.ordinal(k));
        names += (k ? ", " : "") + group_.name(k);
    }
    for (std::size_t k = 0; k < slices_.size(); ++k)
        slices += (k ? " " : "") + std::string("[") + std::to_string(slices_[k].begin) + ", " +
                  std::to_string(slices_[k].end) + ")";
    d["devices"] = ordinals;
    d["device_count"] = std::to_string(slices_.size());
    d["device_names"] = names;
    if (ranks_) {
        // Rank 0's devices above; every rank drives one (core/rank_devices.hpp).
        d["mpi_ranks"] = std::to_string(ranks_->size());
        d["hi_decomposition"] = "target slices " + slices + ", one per MPI rank (one device each), all-gathered " +
                                "with NCCL " + group_.nccl_version() +
                                " (communicator bootstrapped through MPI) after each HI evaluation; drift, forces " +
                                "and lubrication on every rank";
    } else {
        d["hi_decomposition"] = "target slices " + slices + ", one per device, all-gathered with NCCL " +
                                group_.nccl_version() +
                                " after each HI evaluation; drift, forces and lubrication on every device";
    }
    return description;
}

STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(multi_device_engine)

std::unique_ptr<engine> make_multi_device_engine(const engine_config& config, const device_context& device,
                                                 const initial_state& state) {
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) -> std::unique_ptr<engine> {
        return std::make_unique<multi_device_engine<Policy>>(config, device, state);
    });
}

}  // namespace stokesian::cuda
