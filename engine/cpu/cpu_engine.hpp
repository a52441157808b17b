#pragma once
// The CPU backend: loops over the physics functions of engine/physics/include/stokesian/physics.
//
// Two ways to sum the hydrodynamic interactions (--hi-kernel):
//  - all-pairs (default): one task per target particle i summing j = 0 ... N-1 in index order,
//    self term at j = i, exactly as the CUDA kernels do (paper, Algorithm 1), threaded over i.
//    With the same compiler flags (no FMA contraction) it rounds exactly like the GPU.
//  - symmetric: the serial reference of the paper's CPU code, which evaluates each pair tensor once
//    and uses mu_ij = mu_ji (half the tensor evaluations). It sums in a different order
//    (for target i: the self term, then pairs in the order the double loop meets them), so its
//    results differ from all-pairs by rounding.
//
// Across MPI ranks (device_context::ranks): every rank holds the whole state and computes every
// step the same way, except the HI sum, where it computes the targets of its slice
// (core/target_slices.hpp) against all N sources with the loop above and then gathers the other
// slices' velocities. A target's sum is the same whatever its slice, so every rank ends each step
// with the one-process state bit for bit. Forces, the lubrication solve's other products and the
// update are replicated on every rank (O(N) against the sum's O(N^2)).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "neighbour_list.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/host_state.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/step_observer.hpp"
#include "stokesian/physics/accumulate.hpp"
#include "stokesian/physics/interactions.hpp"
#include "thread_pool.hpp"

namespace stokesian::cpu {

enum class hi_loop { all_pairs, symmetric };
hi_loop parse_hi_loop(const std::string& name);  // "" -> all_pairs; throws std::invalid_argument

template <class Policy>
class cpu_engine final : public engine {
public:
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;

    // `ranks`: the MPI ranks to split the HI sums over (null: this process alone; not owned).
    cpu_engine(const engine_config& config, const initial_state& state, communicator* ranks = nullptr);

    void advance(std::uint64_t steps) override;
    std::uint64_t step() const override { return step_; }
    std::size_t size() const override { return position_.size(); }
    void read_frame(frame& out) const override;
    void save_state(engine_state& out) const override;
    void restore_state(const engine_state& state) override;
    engine_description description() const override;

    // Step primitives used by the integrators (stokesian/core/integrator.hpp).
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

    // Optional observer of the steps, e.g. the benchmarks' phase timer (cpu/phase_clock.hpp): while
    // set, advance() reports each primitive to it (not owned); nullptr (the default) switches it off.
    void set_phase_timer(step_observer* timer) noexcept { phase_timer_ = timer; }

private:
    void advance_uninterruptible(std::uint64_t steps);
    // Throws step_interrupted when config_.interrupt is raised and interruptible_ (checked once per
    // target particle's HI sum).
    void check_interrupt() const;
    bool step_worth_interrupting() const;
    void refresh_working_positions();
    // velocity <- mu force (the selected HI loop of hi_loops.hpp); velocity must not alias force.
    void apply_mobility(const std::vector<vec3<W>>& force, std::vector<vec3<A>>& velocity);

    // The implicit lubrication scheme (core/lubrication_solver.hpp; cpu_engine_lubrication.hpp).
    struct krylov_ops;
    std::uint64_t count_lubricated_pairs() const;
    void conservative_forces(std::vector<vec3<W>>& out);                                // F_ext + sum_j F_int
    void lubrication_forces(const std::vector<vec3<W>>& u, std::vector<vec3<W>>& out);  // -zeta u
    void solve_lubrication();

    engine_config config_;
    communicator* ranks_;  // null or one rank: alone
    interaction_parameters<W> params_;
    hi_loop loop_;
    P dt_;
    vec3<P> edge_, half_edge_;

    // The state the engines share (core/host_state.hpp), under the names the loops use.
    host_state<Policy> host_;
    std::vector<vec3<P>>& position_ = host_.position;
    std::vector<vec3<int>>& image_ = host_.image;
    std::vector<vec3<A>>& velocity_ = host_.velocity;
    std::vector<vec3<W>>& force_ = host_.force;
    std::vector<vec3<A>>& previous_velocity_ = host_.history;
    bool& has_history_ = host_.has_history;
    std::uint64_t& step_ = host_.step;
    std::vector<vec3<W>> external_force_;
    std::vector<vec3<W>> position_w_;  // positions in working precision, refreshed after each drift
    std::vector<vec3<W>> velocity_w_;
    // Integrator storage: r_n and its images, the stages k[0..3] (v_{n-1} is host_.history).
    std::vector<vec3<P>> start_position_;
    std::vector<vec3<int>> start_image_;
    std::vector<vec3<A>> stage_[4];

    // Implicit lubrication: solve pending after update_forces(), the solver's vectors (solution is
    // force_), the mobility's accumulator-precision output, statistics.
    bool implicit_lubrication_ = false;
    bool solve_pending_ = false;
    std::uint64_t lubricated_pairs_ = 0;
    std::vector<vec3<W>> krylov_[krylov_vector_count];
    std::vector<vec3<A>> mobility_output_;
    std::vector<double> dot_partials_;
    lubrication_solver_statistics solver_statistics_;

    // config_.interrupt is set and a step may be long; never across ranks, whose steps must not
    // be abandoned by one rank alone (the run stops them between steps, run/rank_leader.hpp).
    bool interruptible_ = false;
    engine_state committed_;  // when interruptible_: the state when advance() began, to go back to
    lubrication_solver_statistics committed_statistics_;  // and the solver's statistics then
    neighbour_list neighbours_;
    thread_pool pool_;
    step_observer* phase_timer_ = nullptr;
};

}  // namespace stokesian::cpu
