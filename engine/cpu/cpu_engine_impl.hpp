#pragma once
// Member definitions of cpu_engine; included once, by instantiate_cpu.cpp.
#include <stdexcept>

#include "cpu_engine.hpp"
#include "hi_loops.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/physics/drift.hpp"

namespace stokesian::cpu {

template <class Policy>
cpu_engine<Policy>::cpu_engine(const engine_config& config, const initial_state& state, communicator* ranks)
    : config_(config),
      ranks_(spread(ranks) ? ranks : nullptr),
      params_(make_interaction_parameters<W>(config.system)),
      loop_(parse_hi_loop(config.hi_kernel)),
      dt_(value_cast<P>(config.dt)),
      implicit_lubrication_(config.system.lubrication.implicit()),
      pool_(config.threads) {
    if (const std::string why = lubrication_model_refusal(config.system); !why.empty())
        throw std::invalid_argument(why);
    const drift_box<P> box = storage_box<P>(config.system.box);
    edge_ = box.edge;
    half_edge_ = box.half_edge;
    host_.load_initial(state, box);
    const std::size_t n = state.size();
    external_force_.resize(n);
    round_forces(state.external_forces, n, external_force_.data());
    velocity_w_.assign(n, vec3<W>{});
    // Initial velocities: forces with zero previous velocities, then v = mu F. A signal stops
    // them at any size (nothing to go back to: the constructor throws).
    refresh_working_positions();
    const bool may_interrupt = config_.interrupt != nullptr && ranks_ == nullptr;
    interruptible_ = may_interrupt;
    update_forces();
    update_velocities();
    interruptible_ = may_interrupt && step_worth_interrupting();
}

// A step of at most 1e7 pair terms, counting every conjugate-gradient iteration the implicit
// scheme may take, ends within 0.6 s even at the slowest rate measured (1.7e7 terms/s, two loaded
// cores): the run loop's check between steps answers a signal in time, without the O(N) copy per
// advance() call (a third of the time of a 4-particle run sampled every step).
template <class Policy>
bool cpu_engine<Policy>::step_worth_interrupting() const {
    const double n = double(position_.size());
    const double evaluations = double(evaluations_per_step(config_.integrator)) *
                               (implicit_lubrication_ ? 1.0 + double(config_.system.lubrication.max_iterations) : 1.0);
    return n * n * evaluations > 1e7;
}

// A long step abandoned half-way on a signal is undone: the state of the call's start is kept (an
// O(N) copy per call, against the O(N^2) of every step) and restored. Checkpoints use the same pair
// of functions, which continue a run bit for bit.
template <class Policy>
void cpu_engine<Policy>::advance(std::uint64_t steps) {
    if (!interruptible_) return advance_uninterruptible(steps);
    save_state(committed_);
    committed_statistics_ = solver_statistics_;
    try {
        advance_uninterruptible(steps);
    } catch (const step_interrupted&) {
        restore_state(committed_);
        solver_statistics_ = committed_statistics_;  // restore_state starts them afresh (a resume)
        throw;
    }
}

template <class Policy>
void cpu_engine<Policy>::check_interrupt() const {
    if (interruptible_)
        if (const int signal = config_.interrupt->load(std::memory_order_relaxed); signal != 0)
            throw step_interrupted(signal);
}

template <class Policy>
void cpu_engine<Policy>::advance_uninterruptible(std::uint64_t steps) {
    for (std::uint64_t s = 0; s < steps; ++s) {
        integrate_observed_step(config_.integrator, *this, phase_timer_);
        ++step_;
    }
}

template <class Policy>
void cpu_engine<Policy>::drift() {
    const drift_box<P> box{config_.system.box.periodic, edge_, half_edge_};
    pool_.parallel_for(
        position_.size(),
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) drift_particle(position_[i], image_[i], velocity_[i], dt_, box);
        },
        4096);
    refresh_working_positions();
}

template <class Policy>
void cpu_engine<Policy>::begin_step() {
    start_position_ = position_;
    start_image_ = image_;
    stage_[0] = velocity_;
}

template <class Policy>
void cpu_engine<Policy>::store_stage(int s) {
    stage_[s] = velocity_;
}

template <class Policy>
void cpu_engine<Policy>::drift_from_start(const double* c, int m) {
    const drift_box<P> box{config_.system.box.periodic, edge_, half_edge_};
    P coefficient[4];
    const vec3<A>* stage[4];
    for (int s = 0; s < m; ++s) {
        coefficient[s] = value_cast<P>(c[s]);
        stage[s] = stage_[s].data();
    }
    pool_.parallel_for(
        position_.size(),
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                position_[i] = start_position_[i];
                image_[i] = start_image_[i];
                displace_particle(position_[i], image_[i], combine_stages<P, A>(stage, coefficient, m, unsigned(i)),
                                  dt_, box);
            }
        },
        4096);
    refresh_working_positions();
}

template <class Policy>
void cpu_engine<Policy>::drift_with_history(double c0, double c1) {
    const drift_box<P> box{config_.system.box.periodic, edge_, half_edge_};
    const P coefficient[2] = {value_cast<P>(c0), value_cast<P>(c1)};
    const vec3<A>* stage[2] = {velocity_.data(), previous_velocity_.data()};
    pool_.parallel_for(
        position_.size(),
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i)
                displace_particle(position_[i], image_[i], combine_stages<P, A>(stage, coefficient, 2, unsigned(i)),
                                  dt_, box);
        },
        4096);
    refresh_working_positions();
}

template <class Policy>
void cpu_engine<Policy>::remember_velocity() {
    previous_velocity_ = velocity_;
    has_history_ = true;
}

template <class Policy>
void cpu_engine<Policy>::refresh_working_positions() {
    position_w_.resize(position_.size());
    for (std::size_t i = 0; i < position_.size(); ++i) position_w_[i] = value_cast<W>(position_[i]);
}

template <class Policy>
void cpu_engine<Policy>::update_forces() {
    const std::size_t n = position_.size();
    for (std::size_t i = 0; i < n; ++i) velocity_w_[i] = value_cast<W>(velocity_[i]);
    const bool short_range = params_.short_range_cutoff > W(0);
    if (short_range) neighbours_.build(position_w_, params_.box, params_.short_range_cutoff);
    // Implicit scheme: the right-hand side F = F_ext + F_int now, the solve in update_velocities().
    // Without a lubricated pair zeta = 0 and the solve is the identity: the explicit scheme's forces
    // below are then exactly F (every lubrication term is +0), and v = mu F bit for bit.
    solve_pending_ = false;
    if (implicit_lubrication_) {
        lubricated_pairs_ = short_range ? count_lubricated_pairs() : 0;
        if (lubricated_pairs_ > 0) {
            conservative_forces(krylov_[int(krylov_vector::rhs)]);
            solve_pending_ = true;
            return;
        }
    }
    pool_.parallel_for(
        n,
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                vec3<W> f = external_force_[i];
                if (short_range)
                    for (const std::uint32_t* j = neighbours_.begin(i); j != neighbours_.end(i); ++j)
                        f += short_range_force(position_w_[i], position_w_[*j], velocity_w_[i], velocity_w_[*j],
                                               params_);
                force_[i] = f;
            }
        },
        1024);
}

template <class Policy>
void cpu_engine<Policy>::update_velocities() {
    if (solve_pending_) {
        solve_lubrication();
        solve_pending_ = false;
        return;
    }
    apply_mobility(force_, velocity_);
    if (implicit_lubrication_) solver_statistics_.record({});  // v = mu F: nothing to solve
}

template <class Policy>
void cpu_engine<Policy>::apply_mobility(const std::vector<vec3<W>>& force, std::vector<vec3<A>>& velocity) {
    const std::size_t n = position_.size();
    velocity.resize(force.size());
    // This rank's targets (all of them when alone); the sums do not depend on the slice.
    const target_slice mine = my_slice(ranks_, n);
    // N pair terms per target: a signal waits at most one sum (one row of the symmetric loop).
    const auto check = [this] { check_interrupt(); };
    dispatch_tensor(params_.mobility.tensor, [&]<class Tensor>(Tensor) {
        if (loop_ == hi_loop::symmetric)
            return mobility_symmetric<Tensor, W, A>(mine, position_w_, force, velocity, params_, check);
        pool_.parallel_for(
            mine.size(),
            [&](std::size_t begin, std::size_t end) {
                mobility_all_pairs<Tensor, W, A>({mine.begin + begin, mine.begin + end}, position_w_, force, velocity,
                                                 params_, check);
            },
            64);
    });
    if (ranks_) allgather_slices(*ranks_, std::span<vec3<A>>(velocity));
}

template <class Policy>
void cpu_engine<Policy>::read_frame(frame& out) const {
    host_.read_frame(out, config_.dt);
    out.lubrication = solver_statistics_.last;
}

template <class Policy>
void cpu_engine<Policy>::save_state(engine_state& out) const {
    host_.save(out);
}

template <class Policy>
void cpu_engine<Policy>::restore_state(const engine_state& state) {
    host_.restore(state, position_.size());
    refresh_working_positions();
    // The stored forces are the implicit scheme's starting guess: nothing else to restore.
    solve_pending_ = false;
    solver_statistics_ = {};
}

template <class Policy>
engine_description cpu_engine<Policy>::description() const {
    engine_description d{"cpu", loop_ == hi_loop::symmetric ? "symmetric" : "all-pairs", {}};
    d.details = {{"threads", std::to_string(loop_ == hi_loop::symmetric ? 1u : pool_.size())},
                 {"precision", to_string(Policy::mode)}};
    if (ranks_) d.details["mpi_ranks"] = std::to_string(ranks_->size());
    solver_statistics_.describe(d.details, config_.system.lubrication, lubrication_tolerance<W>());
    return d;
}

}  // namespace stokesian::cpu
