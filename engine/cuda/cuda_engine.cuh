#pragma once
// The CUDA backend's engine: particle data stay on the device for the whole run; only sampled
// frames come back (read_frame). The step primitives mirror the CPU backend's
// (cpu/cpu_engine.hpp), and the integrators (core/integrator.hpp) drive both.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "device_types.cuh"
#include "fault_injection.hpp"
#include "lagged_readback.hpp"
#include "neighbour_rows.cuh"
#include "stokesian/core/device_context.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/host_state.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/step_observer.hpp"
#include "stokesian/cuda/hi_kernel_names.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/target_range.hpp"

namespace stokesian::cuda {

template <class Policy>
class cuda_engine final : public engine {
public:
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;

    // Runs on device.primary_ordinal(), on the calling thread's default stream. Without
    // initial_velocities the forces and velocities of the initial state are left to the caller (a
    // replica of multi_device_engine, which evaluates them across its devices).
    cuda_engine(const engine_config& config, const device_context& device, const initial_state& state,
                bool initial_velocities = true);

    void advance(std::uint64_t steps) override;
    std::uint64_t step() const override { return step_; }
    std::size_t size() const override { return n_; }
    void read_frame(frame& out) const override;
    void save_state(engine_state& out) const override;
    void restore_state(const engine_state& state) override;
    engine_description description() const override;

    void drift();
    void update_forces();
    void update_velocities();
    // Multi-stage and multistep integrators (core/integrator.hpp).
    void begin_step();
    void store_stage(int s);
    void drift_from_start(const double* c, int m);
    void drift_with_history(double c0, double c1);
    void remember_velocity();
    bool has_history() const { return has_history_; }

    // Optional per-phase timing for the benchmarks (bench/cuda_phase_benchmark.hpp): while set, advance()
    // records CUDA events around each primitive into `timer` (not owned); nullptr (the default)
    // switches it off.
    void set_phase_timer(step_observer* timer) noexcept { phase_timer_ = timer; }

private:
    // The engine on several devices drives one cuda_engine per device as a replica of the whole
    // state (multi_device_engine.cuh).
    template <class>
    friend class multi_device_engine;

    // v <- mu F for the targets t (all of them on one device; a device's slice on several).
    void launch_velocities(target_range t);
    void build_neighbour_list();
    // The cell indices' significant bits: the radix sort passes over these only (every index is
    // below the cell count, one less than cell_first_'s size), so a small grid takes fewer of its
    // digit passes than 32-bit keys would.
    int cell_bits() const { return std::max(1, static_cast<int>(std::bit_width(cell_first_.size() - 2))); }
    // The state on the host (core/host_state.hpp): frames and checkpoints; history only when asked.
    void download(host_state<Policy>& h, bool with_history) const;

    // The implicit lubrication scheme (core/lubrication_solver.hpp; cuda_engine_lubrication.cuh).
    struct krylov_ops;
    packed4<W>* krylov_data(krylov_vector k);
    bool prepare_lubrication_solve();  // right-hand side and lubricated-pair count; false: none
    void solve_lubrication();

    engine_config config_;
    int device_;  // ordinal
    interaction_parameters<W> params_;
    hi_kernel kernel_;
    unsigned block_size_ = 128;
    unsigned n_ = 0;
    P dt_;
    vec3<P> edge_, half_edge_;
    bool short_range_ = false;

    // The words of the longest neighbour rows (build_neighbour_list), declared before every device
    // buffer so that it is destroyed after them: their cudaFree waits for the device, so no launch
    // still writes a word when its page-locked memory goes.
    static constexpr unsigned longest_row_lag = 4;
    lagged_readback<unsigned, longest_row_lag> longest_row_;
    device_buffer<vec3<P>> position_;
    device_buffer<vec3<int>> image_;
    device_buffer<vec3<A>> velocity_;
    device_buffer<packed4<W>> position_w_;
    device_buffer<packed4<W>> force_;
    device_buffer<vec3<W>> external_force_;
    // Without short-range forces F = F_ext, which no step changes: once force_ holds it, a step's
    // forces phase has nothing to do (until a restore writes force_).
    bool force_is_external_ = false;
    // Integrator storage: r_n and its images, the stages k[0..3], Adams-Bashforth's v_{n-1}.
    device_buffer<vec3<P>> start_position_;
    device_buffer<vec3<int>> start_image_;
    device_buffer<vec3<A>> stage_[4];
    device_buffer<vec3<A>> previous_velocity_;
    bool has_history_ = false;

    // Neighbour lists: the capacity follows the longest row the host has read (longest_row_, above),
    // up to longest_row_lag builds late (build_neighbour_list); a longer row is summed from every
    // particle.
    unsigned capacity_ = 32;
    device_buffer<unsigned> neighbour_list_, neighbour_count_, max_count_;
    neighbour_rows rows() const { return {neighbour_list_.data(), neighbour_count_.data(), capacity_}; }
    device_buffer<unsigned> cell_, index_, sorted_cell_, sorted_index_, cell_first_;
    device_buffer<unsigned char> sort_scratch_;
    bool use_cells_ = false;
    int cells_[3] = {0, 0, 0};

    // Implicit lubrication: solve pending after update_forces(), the solver's vectors (solution is
    // force_), the mobility's accumulator-precision output, dot-product partials, statistics.
    bool implicit_lubrication_ = false;
    bool solve_pending_ = false;
    std::uint64_t lubricated_pairs_ = 0;
    device_buffer<packed4<W>> krylov_[krylov_vector_count];
    device_buffer<vec3<A>> mobility_output_;
    device_buffer<double> dot_partials_;
    device_buffer<unsigned long long> lubricated_entries_;
    pinned_readback<unsigned long long> lubricated_entries_read_;
    std::vector<double> host_partials_;
    lubrication_solver_statistics solver_statistics_;

    std::uint64_t step_ = 0;
    step_observer* phase_timer_ = nullptr;
    injected_fault fault_;  // tests of device failures only (fault_injection.hpp)
};

}  // namespace stokesian::cuda
