#pragma once
// The CUDA engine on several devices of one host (backend "cuda" with a device context naming two
// or more ordinals; engine/docs/multi-gpu.md). One process, one host thread drives every device.
//
// Each device holds a whole replica of the state (a cuda_engine<Policy>, positions, forces and
// velocities of all N particles) and runs every step primitive on it with the same kernels as one
// device does. Only the HI sum is divided: device d computes the velocities of its target slice
// slice_of(N, D, d) (core/target_slices.hpp) against all N sources -- a target's sum does not
// depend on the range it is computed in (physics/target_range.hpp) -- and the slices are then
// all-gathered with NCCL (device_group.hpp) into every replica. Drift, neighbour lists, short-range
// and lubrication forces are computed in full on every device: O(N) work against the O(N^2) sum,
// and no other data to exchange. Every kernel is deterministic (no atomics touch a sum), so every
// replica equals the one-device engine bit for bit after every primitive, in every precision mode
// and with every HI kernel (the fast ones equal one device running the same fast kernel). The
// implicit lubrication solve runs its Krylov iteration on all replicas alike; each mobility
// product is sliced and gathered, and the dot products (the host's scalars) are read from the
// first device only. Frames and checkpoints come from the first device (core/host_state.hpp), so
// they do not depend on the device count: a checkpoint resumes on any number of devices.
//
// Across MPI ranks (`mpirun -n R`, a device context with several ranks: engine/docs/multi-gpu.md,
// "Several hosts") the same engine runs one replica per rank: slice r of R on rank r's device, the
// communicator spanning the ranks (device_group). Every rank's replica is the whole state; rank 0
// writes (run/rank_protocol.hpp), so nothing else changes.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cuda_engine.cuh"
#include "device_group.hpp"
#include "stokesian/core/lubrication_solver.hpp"

namespace stokesian::cuda {

template <class Policy>
class multi_device_engine final : public engine {
public:
    using replica = cuda_engine<Policy>;

    // device.ordinals: at least two, checked by device_group (present, distinct, one kind); or,
    // across device.ranks, this rank's one device (checked by every rank together).
    multi_device_engine(const engine_config& config, const device_context& device, const initial_state& state);
    ~multi_device_engine() override;

    void advance(std::uint64_t steps) override;
    std::uint64_t step() const override { return step_; }
    std::size_t size() const override { return replicas_.front()->size(); }
    void read_frame(frame& out) const override;
    void save_state(engine_state& out) const override;
    void restore_state(const engine_state& state) override;
    engine_description description() const override;

    // The step primitives (core/integrator.hpp), each on every device.
    void drift();
    void update_forces();
    void update_velocities();
    void begin_step();
    void store_stage(int s);
    void drift_from_start(const double* c, int m);
    void drift_with_history(double c0, double c1);
    void remember_velocity();
    bool has_history() const { return replicas_.front()->has_history(); }

    // The phase timer (bench/cuda_phase_benchmark.hpp) records on the first device; while it is
    // set the all-gathers are timed too (take_communication_ms).
    void set_phase_timer(step_observer* timer);
    double take_communication_ms() { return group_.take_communication_ms(); }
    std::size_t devices() const { return replicas_.size(); }  // of this process

private:
    struct krylov_ops;

    // f(replica, index) on every device in turn, each current while it runs; then the first.
    template <class F>
    void on_each(F&& f);
    // A CUDA or NCCL failure inside f becomes device_error naming the device, after the
    // communicators are aborted (device_group::abort).
    template <class F>
    decltype(auto) guarded(F&& f) const;
    // v <- mu F over every device's slice, then all-gathered.
    void sliced_velocities();
    // The targets this process's device d computes.
    const target_range& slice(std::size_t d) const { return slices_[group_.part(d)]; }
    void solve_lubrication();

    mutable device_group group_;
    std::vector<std::unique_ptr<replica>> replicas_;
    communicator* ranks_ = nullptr;     // across MPI ranks; null in one process
    std::vector<target_range> slices_;  // every part's (device's, across ranks: rank's)
    bool solve_pending_ = false;
    lubrication_solver_statistics solver_statistics_;
    std::uint64_t step_ = 0;
    step_observer* phase_timer_ = nullptr;
};

// The engine above in config.precision (make_cuda_engine calls it for two or more ordinals).
std::unique_ptr<engine> make_multi_device_engine(const engine_config& config, const device_context& device,
                                                 const initial_state& state);

}  // namespace stokesian::cuda
