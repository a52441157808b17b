// The CUDA engine and the one place where the CUDA backend's precision modes are instantiated.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cuda_check.hpp"
#include "cuda_engine.cuh"
#include "cuda_engine_lubrication.cuh"
#include "device_failure.hpp"
#include "drift_kernel.cuh"
#include "hi_launch.cuh"
#include "multi_device_engine.cuh"
#include "short_range_kernels.cuh"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "stokesian/physics/cell_grid.hpp"

namespace stokesian::cuda {

namespace {
constexpr unsigned max_neighbour_capacity = 4096;
}  // namespace

template <class Policy>
cuda_engine<Policy>::cuda_engine(const engine_config& config, const device_context& device, const initial_state& state,
                                 bool initial_velocities)
    : config_(config),
      device_(device.primary_ordinal()),
      params_(make_interaction_parameters<W>(config.system)),
      kernel_(parse_hi_kernel(config.hi_kernel)),
      n_(static_cast<unsigned>(state.size())),
      dt_(value_cast<P>(config.dt)),
      implicit_lubrication_(config.system.lubrication.implicit()),
      fault_(injected_fault_from_environment()) {
    if (const std::string why = lubrication_model_refusal(config.system); !why.empty())
        throw std::invalid_argument(why);
    if (!device_available()) throw cuda_error("no CUDA device is available (backend 'cuda' was requested)");
    use_device(device_);
    device_name_of(device_);  // known before a fault could hide it (device_failure.hpp)
    const auto& box = config.system.box;
    const drift_box<P> storage = storage_box<P>(box);
    edge_ = storage.edge;
    half_edge_ = storage.half_edge;

    // Initial state, rounded and wrapped on the host exactly as the CPU backend does.
    host_state<Policy> initial;
    initial.load_initial(state, storage);
    std::vector<vec3<W>> external(n_);
    round_forces(state.external_forces, n_, external.data());
    std::vector<packed4<W>> position_w(n_);
    for (unsigned i = 0; i < n_; ++i) position_w[i] = pack(value_cast<W>(initial.position[i]));
    position_.upload(initial.position);
    image_.upload(initial.image);
    position_w_.upload(position_w);
    external_force_.upload(external);
    velocity_.resize(n_, "velocities");
    check(cudaMemset(velocity_.data(), 0, n_ * sizeof(vec3<A>)), "cudaMemset velocities");
    force_.resize(n_, "forces");
    // Zero: the implicit lubrication scheme's first starting guess (the CPU's value-initialised forces).
    check(cudaMemset(force_.data(), 0, n_ * sizeof(packed4<W>)), "cudaMemset forces");

    short_range_ = params_.short_range_cutoff > W(0);
    if (short_range_) {
        neighbour_count_.resize(n_, "neighbour counts");
        max_count_.resize(1, "neighbour maximum");
        // Zero before the first build; each build's publish_longest_row_kernel clears it for the next.
        check(cudaMemset(max_count_.data(), 0, sizeof(unsigned)), "cudaMemset");
        if (box.periodic) {
            // Cells a little larger than the cutoff, so rounding of coordinates near a cell
            // boundary can never hide a neighbour two cells away.
            const double cell = config.system.short_range_cutoff() * (1.0 + 1e-6);
            const cell_counts counts = cell_counts_for(box.edges, cell, n_);
            use_cells_ = counts.use_cells;  // at most 8 n + 64 cells: the indices below fit an int
            cells_[0] = static_cast<int>(counts.nx);
            cells_[1] = static_cast<int>(counts.ny);
            cells_[2] = static_cast<int>(counts.nz);
            if (use_cells_) {
                const std::size_t cells = std::size_t(cells_[0]) * cells_[1] * cells_[2];
                cell_.resize(n_, "cell indices");
                index_.resize(n_, "cell list");
                sorted_cell_.resize(n_, "cell list");
                sorted_index_.resize(n_, "cell list");
                cell_first_.resize(cells + 1, "cell list");
                std::size_t scratch = 0;
                check(cub::DeviceRadixSort::SortPairs(nullptr, scratch, cell_.data(), sorted_cell_.data(),
                                                      index_.data(), sorted_index_.data(), int(n_), 0, cell_bits()),
                      "cub::DeviceRadixSort (size query)");
                sort_scratch_.resize(std::max<std::size_t>(scratch, 1), "cell-list sort scratch");
            }
        }
    }
    if (!initial_velocities) return;
    update_forces();
    update_velocities();
    // This thread's default stream only (per-thread with --default-stream=per-thread): a device-wide
    // synchronisation would wait for the kernels of every other run of a concurrent suite.
    check(cudaStreamSynchronize(0), "initial velocities");
}

template <class Policy>
void cuda_engine<Policy>::advance(std::uint64_t steps) {
    on_device(device_, [&] {
        use_device(device_);
        for (std::uint64_t s = 0; s < steps; ++s) {
            if (fault_.armed && step_ == fault_.step && (fault_.ordinal < 0 || fault_.ordinal == device_))
                launch_trap(device_, device_);
            integrate_observed_step(config_.integrator, *this, phase_timer_);
            ++step_;
        }
    });
}

namespace {
// Device-to-device copy on this thread's default stream.
template <class T>
void copy_on_device(device_buffer<T>& to, const device_buffer<T>& from, std::size_t n, const char* what) {
    to.resize(n, what);
    check(cudaMemcpyAsync(to.data(), from.data(), n * sizeof(T), cudaMemcpyDeviceToDevice, 0), what);
}
}  // namespace

template <class Policy>
void cuda_engine<Policy>::begin_step() {
    copy_on_device(start_position_, position_, n_, "integrator: positions at the step's start");
    copy_on_device(start_image_, image_, n_, "integrator: images at the step's start");
    copy_on_device(stage_[0], velocity_, n_, "integrator: stage velocities");
}

template <class Policy>
void cuda_engine<Policy>::store_stage(int s) {
    copy_on_device(stage_[s], velocity_, n_, "integrator: stage velocities");
}

template <class Policy>
void cuda_engine<Policy>::drift_from_start(const double* c, int m) {
    stage_set<P, A> k{};
    for (int s = 0; s < m; ++s) {
        k.stage[s] = stage_[s].data();
        k.coefficient[s] = value_cast<P>(c[s]);
    }
    k.count = m;
    const drift_box<P> box{config_.system.box.periodic, edge_, half_edge_};
    combine_drift_kernel<P, A, W><<<blocks_for(n_, 256), 256>>>(position_.data(), image_.data(), start_position_.data(),
                                                                start_image_.data(), k, n_, dt_, box,
                                                                position_w_.data());
    check_launch("combine_drift_kernel");
}

template <class Policy>
void cuda_engine<Policy>::drift_with_history(double c0, double c1) {
    stage_set<P, A> k{{velocity_.data(), previous_velocity_.data()}, {value_cast<P>(c0), value_cast<P>(c1)}, 2};
    const drift_box<P> box{config_.system.box.periodic, edge_, half_edge_};
    // In place: each thread reads its particle's position and image before writing them.
    combine_drift_kernel<P, A, W><<<blocks_for(n_, 256), 256>>>(position_.data(), image_.data(), position_.data(),
                                                                image_.data(), k, n_, dt_, box, position_w_.data());
    check_launch("combine_drift_kernel");
}

template <class Policy>
void cuda_engine<Policy>::remember_velocity() {
    copy_on_device(previous_velocity_, velocity_, n_, "integrator: previous velocities");
    has_history_ = true;
}

template <class Policy>
void cuda_engine<Policy>::drift() {
    drift_kernel<P, A, W><<<blocks_for(n_, 256), 256>>>(position_.data(), image_.data(), velocity_.data(), n_, dt_,
                                                        config_.system.box.periodic, edge_, half_edge_,
                                                        position_w_.data());
    check_launch("drift_kernel");
}

// The lists at the current positions. The capacity follows the longest rows of earlier builds,
// read without waiting for the device (lagged_readback.hpp); a row longer than the capacity is summed
// from every particle by the kernels that read the lists (neighbour_rows.cuh), with the same bits.
template <class Policy>
void cuda_engine<Policy>::build_neighbour_list() {
    longest_row_.take_written(
        [&](unsigned longest) {
            if (longest > max_neighbour_capacity)
                throw cuda_error("a particle has " + std::to_string(longest) +
                                 " neighbours within the short-range cutoff "
                                 "(more than " +
                                 std::to_string(max_neighbour_capacity) + "): overlapping configuration?");
            if (longest > capacity_) capacity_ = std::max(longest, 2 * capacity_);
        },
        "longest neighbour row");
    neighbour_list_.resize(std::size_t(n_) * capacity_, "neighbour list");
    const W cutoff = params_.short_range_cutoff;
    if (use_cells_) {
        cell_grid g{};
        g.nx = cells_[0];
        g.ny = cells_[1];
        g.nz = cells_[2];
        const auto& e = config_.system.box.edges;
        g.inv_cell_x = float(cells_[0] / e.x);
        g.inv_cell_y = float(cells_[1] / e.y);
        g.inv_cell_z = float(cells_[2] / e.z);
        g.origin_x = float(-0.5 * e.x);
        g.origin_y = float(-0.5 * e.y);
        g.origin_z = float(-0.5 * e.z);
        cell_index_kernel<<<blocks_for(n_, 256), 256>>>(position_w_.data(), n_, g, cell_.data(), index_.data());
        check_launch("cell_index_kernel");
        std::size_t scratch = sort_scratch_.size();
        check(cub::DeviceRadixSort::SortPairs(sort_scratch_.data(), scratch, cell_.data(), sorted_cell_.data(),
                                              index_.data(), sorted_index_.data(), int(n_), 0, cell_bits()),
              "cub::DeviceRadixSort");
        const auto cells = static_cast<unsigned>(cell_first_.size() - 1);
        cell_first_kernel<<<blocks_for(cells + 1ull, 256), 256>>>(sorted_cell_.data(), n_, cells, cell_first_.data());
        check_launch("cell_first_kernel");
        neighbour_cell_kernel<W><<<blocks_for_particle_warps(n_), particle_warp_threads>>>(
            position_w_.data(), n_, params_.box, cutoff, g, cell_first_.data(), sorted_index_.data(), capacity_,
            neighbour_list_.data(), neighbour_count_.data(), max_count_.data());
        check_launch("neighbour_cell_kernel");
    } else {
        neighbour_scan_kernel<W><<<blocks_for_particle_warps(n_), particle_warp_threads>>>(
            position_w_.data(), n_, params_.box, cutoff, capacity_, neighbour_list_.data(), neighbour_count_.data(),
            max_count_.data());
        check_launch("neighbour_scan_kernel");
    }
    publish_longest_row_kernel<<<1, 1>>>(max_count_.data(), longest_row_.word("longest neighbour row"));
    check_launch("publish_longest_row_kernel");
    longest_row_.written("longest neighbour row");
}

template <class Policy>
void cuda_engine<Policy>::update_forces() {
    solve_pending_ = false;
    if (!short_range_) {
        if (force_is_external_) return;
        external_force_kernel<W><<<blocks_for(n_, 256), 256>>>(external_force_.data(), n_, force_.data());
        check_launch("external_force_kernel");
        force_is_external_ = true;
        return;
    }
    build_neighbour_list();
    // Implicit scheme: the right-hand side now, the solve in update_velocities(). Without a
    // lubricated pair the explicit scheme's forces below are exactly F and v = mu F bit for bit.
    if (implicit_lubrication_ && prepare_lubrication_solve()) {
        solve_pending_ = true;
        return;
    }
    short_range_force_kernel<W, A><<<blocks_for_particle_warps(n_), particle_warp_threads>>>(
        position_w_.data(), velocity_.data(), external_force_.data(), n_, rows(), params_, force_.data());
    check_launch("short_range_force_kernel");
}

template <class Policy>
void cuda_engine<Policy>::update_velocities() {
    if (solve_pending_) {
        solve_lubrication();
        solve_pending_ = false;
        return;
    }
    launch_velocities(target_range{0, n_});
    if (implicit_lubrication_) solver_statistics_.record({});  // v = mu F: nothing to solve
}

template <class Policy>
void cuda_engine<Policy>::launch_velocities(target_range t) {
    launch_hi_kernel<Policy::hi>(kernel_, block_size_, position_w_.data(), force_.data(), velocity_.data(), t, n_,
                                 params_);
}

template <class Policy>
void cuda_engine<Policy>::download(host_state<Policy>& h, bool with_history) const {
    use_device(device_);
    std::vector<packed4<W>> force;
    position_.download(h.position);
    image_.download(h.image);
    velocity_.download(h.velocity);
    force_.download(force);
    h.force.resize(n_);
    for (unsigned i = 0; i < n_; ++i) h.force[i] = unpack(force[i]);
    h.step = step_;
    h.has_history = with_history && has_history_;
    if (h.has_history) previous_velocity_.download(h.history);
}

template <class Policy>
void cuda_engine<Policy>::read_frame(frame& out) const {
    host_state<Policy> h;
    on_device(device_, [&] { download(h, false); });
    h.read_frame(out, config_.dt);
    out.lubrication = solver_statistics_.last;
}

template <class Policy>
void cuda_engine<Policy>::save_state(engine_state& out) const {
    host_state<Policy> h;
    on_device(device_, [&] { download(h, true); });
    h.save(out);
}

template <class Policy>
void cuda_engine<Policy>::restore_state(const engine_state& state) {
    host_state<Policy> h;
    h.restore(state, n_);
    use_device(device_);
    std::vector<packed4<W>> position_w(n_), force(n_);
    for (unsigned i = 0; i < n_; ++i) {
        position_w[i] = pack(value_cast<W>(h.position[i]));
        force[i] = pack(h.force[i]);
    }
    position_.upload(h.position);
    position_w_.upload(position_w);
    image_.upload(h.image);
    velocity_.upload(h.velocity);
    force_.upload(force);
    force_is_external_ = false;
    has_history_ = h.has_history;
    if (has_history_) previous_velocity_.upload(h.history);
    step_ = h.step;
    // The stored forces are the implicit scheme's starting guess: nothing else to restore.
    solve_pending_ = false;
    solver_statistics_ = {};
}

template <class Policy>
engine_description cuda_engine<Policy>::description() const {
    engine_description description{"cuda", to_string(kernel_), device_description(device_)};
    auto& d = description.details;
    d["hi_summation_order"] =
        sums_in_cpu_order(kernel_) ? "index order (as the CPU backend)" : "split over lanes, fixed tree";
    d["hi_math"] = uses_fast_math(kernel_) ? "fast (hardware rsqrt, FMA contraction)"
                                           : "exact (IEEE sqrt and division, no contraction)";
    d["block_size"] = block_size_description(kernel_, block_size_);
    d["precision"] = to_string(Policy::mode);
    d["neighbour_search"] = !short_range_ ? "none" : use_cells_ ? "cell list" : "all pairs";
    solver_statistics_.describe(d, config_.system.lubrication, lubrication_tolerance<W>());
    return description;
}

STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(cuda_engine)

std::unique_ptr<engine> make_cuda_engine(const engine_config& config, const device_context& device,
                                         const initial_state& state) {
    // Several devices, or one device per MPI rank: the multi-device engine.
    if (device.ordinals.size() > 1 || spread(device.ranks)) return make_multi_device_engine(config, device, state);
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) -> std::unique_ptr<engine> {
        return std::make_unique<cuda_engine<Policy>>(config, device, state);
    });
}

}  // namespace stokesian::cuda
