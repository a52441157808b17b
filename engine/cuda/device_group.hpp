#pragma once
// The devices of one multi-device engine (multi_device_engine.cuh) and what connects them: one
// NCCL communicator per device (ncclCommInitAll: one process, one host thread), a communication
// stream per device, and the events that order the all-gather after the HI kernels on each
// device's default stream and the work after it. Plain C++ header (the CUDA and NCCL handles live
// in device_group.cpp), so that it can be built without nccl.h: then construction is refused.
//
// A failed device must not hang the others: a device that dies mid-collective leaves its peers'
// NCCL kernels waiting for ever. So the engine never blocks on one device while another may have
// failed: wait_all() polls every device's streams and NCCL's asynchronous error state, and on a
// failure aborts every communicator (which ends the waiting kernels) and throws device_error.
//
// Across MPI ranks (`mpirun -n R stokesian run --backend cuda`) the group is this rank's one device
// of R: the communicator spans the ranks (rank 0's ncclGetUniqueId, broadcast through MPI,
// ncclCommInitRank), and device d of this process computes slice part(d) of parts(). A peer's
// failure cannot be seen in this process's streams: the failing rank posts it
// (communicator::post_failure) and wait_all() polls for it, so that every rank leaves its waiting
// collective and rank 0 can write the checkpoint.
#include <memory>
#include <string>
#include <vector>

#include "stokesian/core/device_error.hpp"
#include "stokesian/physics/target_range.hpp"

namespace stokesian {
class communicator;
}

namespace stokesian::cuda {

class device_group {
public:
    // Checks the ordinals (present, distinct: input_error), that the devices are of one kind
    // (compute capability and multiprocessor count, which the split kernels' lane count depends
    // on: input_error otherwise), loads NCCL (input_error where it is missing) and makes the
    // communicators. Leaves the first device current.
    //
    // Communicators cost up to seconds to make (topology discovery, buffers on every device), so a
    // group that ends without a failure goes to a process-wide pool, idle, and the next group of
    // the same ordinals takes it over instead (a benchmark or a test makes many engines in turn).
    // Pooled groups live until the process ends.
    //
    // With `ranks` naming several MPI ranks: this rank's one device ordinals[0] in a run across them
    // (one device per rank). Collective: every
    // rank all-gathers what it found (core/rank_devices.hpp) and all refuse alike (input_error: more
    // ranks on a host than devices, two ranks on one device, devices of different kinds, NCCL
    // missing) before any waits in ncclCommInitRank. Never pooled; its communicator is left to the
    // end of the process (ncclCommDestroy may wait for the peers, which wait for rank 0's messages).
    explicit device_group(const std::vector<int>& ordinals, communicator* ranks = nullptr);
    ~device_group();
    device_group(const device_group&) = delete;
    device_group& operator=(const device_group&) = delete;

    std::size_t size() const;  // devices of this process
    // The slices of a gather: every device of the run (across ranks: one per rank), and the slice
    // this process's device d computes.
    std::size_t parts() const;
    std::size_t part(std::size_t d) const;
    int ordinal(std::size_t d) const;
    const std::string& name(std::size_t d) const;
    std::string nccl_version() const;

    // buffers[d]: device d's array of items of item_bytes; slices[p]: the items part p computed
    // (parts() of them).
    // Enqueued after the work on each device's default stream (the calling thread's), and the work
    // enqueued there afterwards waits for it. Leaves the first device current.
    void all_gather(const std::vector<void*>& buffers, std::size_t item_bytes, const std::vector<target_range>& slices);

    // Returns once every device's default and communication streams are idle; a device that
    // failed is abort()ed and thrown as device_error naming it. Leaves the first device current.
    void wait_all();
    // Across ranks: throws (after abort()) the device error a peer rank posted, if one has; cheap (a
    // message probe), so the engine asks every step: a rank that went on queueing work behind a
    // collective that will never end would block in a kernel launch once the launch queue is full.
    void check_peers();
    // Aborts every communicator (NCCL kernels waiting on a dead peer end); the group is unusable
    // afterwards. Idempotent.
    void abort() noexcept;
    // A device error in this group's work: abort(), and across ranks name this rank in it and post it
    // to the others (the first time; a failure that came from a peer is thrown as it is).
    [[noreturn]] void failed(const device_error& e);

    // Communication time (bench fcc --devices): while on, each all_gather is timed on the first
    // device from when its HI work is done to when its collective ends (transfers and the wait for
    // the slowest device). take_communication_ms() returns the total since the last call and
    // synchronises the first device.
    void set_timing(bool on);
    double take_communication_ms();

private:
    // After a failed collective: the device whose stream or communicator reports an error (else
    // the first) is named in the device_error thrown, after abort().
    [[noreturn]] void fail(const std::string& what);
    void join_ranks(int ordinal, communicator& ranks);

    struct impl;
    static std::vector<std::unique_ptr<impl>>& pool();  // idle groups (guarded by a mutex)
    std::unique_ptr<impl> impl_;
};

}  // namespace stokesian::cuda
