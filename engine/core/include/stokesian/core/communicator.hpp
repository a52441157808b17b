#pragma once
// The processes (MPI ranks) one run is spread over, as the engine layers see them: plain C++, so no
// layer below the tools includes <mpi.h>. The MPI implementation lives in its own layer
// (stokesian/mpi/mpi_communicator.hpp); `single_process` is the communicator of a run alone.
// Every call is collective: all ranks make the same calls in the same order, or the run hangs.
// engine/README.md, "Runs across MPI ranks".
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "stokesian/core/target_slices.hpp"

namespace stokesian {

// The ranks that share this rank's host (MPI_Comm_split_type shared memory): this rank's index
// among them, their number, and an id of the host the same for all of them (their lowest world rank).
struct host_ranks {
    unsigned local_rank = 0, local_size = 1, host = 0;
};

class communicator {
public:
    virtual ~communicator() = default;
    virtual unsigned rank() const = 0;
    virtual unsigned size() const = 0;
    bool leads() const { return rank() == 0; }  // rank 0: the one that reads input and writes output

    // In place: rank p holds elements [offset[p], offset[p] + count[p]) of `data` (element_bytes
    // each); afterwards every rank holds all of them, byte for byte.
    virtual void allgather(void* data, std::size_t element_bytes, std::span<const std::size_t> counts,
                           std::span<const std::size_t> offsets) = 0;
    // `bytes` bytes of rank `root`'s `data` to every rank.
    virtual void broadcast(void* data, std::size_t bytes, unsigned root) = 0;
    virtual void barrier() = 0;
    // Ends every rank at once with `code` (the message is the caller's to print first).
    [[noreturn]] virtual void abort(int code) = 0;

    // Where this rank runs (a device per rank: core/rank_devices.hpp). Not collective. The default:
    // every rank on one host.
    virtual host_ranks host() const { return {rank(), size(), 0}; }

    // Not collective, never blocking: a failure on this rank (a device error) that the others must
    // stop for, told to every other rank once (later calls do nothing). A rank waiting on a failed
    // peer's device (an NCCL collective that will never end) polls posted_failure() and leaves;
    // rank 0 then checkpoints and ends them all (cuda/device_group.hpp). The default: nobody to tell.
    virtual void post_failure(const std::string& text) { (void)text; }
    // The text a peer posted, "" while none has.
    virtual std::string posted_failure() { return {}; }
};

// A run alone: rank 0 of 1; gathers and broadcasts have nothing to move.
class single_process final : public communicator {
public:
    unsigned rank() const override { return 0; }
    unsigned size() const override { return 1; }
    void allgather(void*, std::size_t, std::span<const std::size_t>, std::span<const std::size_t>) override {}
    void broadcast(void*, std::size_t, unsigned) override {}
    void barrier() override {}
    [[noreturn]] void abort(int code) override;
};

// True when `ranks` names more than this process.
inline bool spread(const communicator* ranks) { return ranks != nullptr && ranks->size() > 1; }

// The target slice of this rank (core/target_slices.hpp): the whole range when alone.
inline target_slice my_slice(const communicator* ranks, std::size_t n) {
    return spread(ranks) ? slice_of(n, ranks->size(), ranks->rank()) : target_slice{0, n};
}

// After each rank wrote its slice (slice_of(data.size(), size, rank)) of `data`: every rank holds all.
template <class T>
void allgather_slices(communicator& ranks, std::span<T> data) {
    static_assert(std::is_trivially_copyable_v<T>, "gathered byte for byte");
    if (ranks.size() < 2) return;
    std::vector<std::size_t> counts, offsets;
    for (const target_slice& s : slices_of(data.size(), ranks.size())) {
        counts.push_back(s.size());
        offsets.push_back(s.begin);
    }
    ranks.allgather(data.data(), sizeof(T), counts, offsets);
}

// Rank `root`'s vector (size and contents) on every rank.
template <class T>
void broadcast_vector(communicator& ranks, std::vector<T>& data, unsigned root = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "broadcast byte for byte");
    std::uint64_t n = data.size();
    ranks.broadcast(&n, sizeof n, root);
    data.resize(n);
    if (n > 0) ranks.broadcast(data.data(), n * sizeof(T), root);
}

void broadcast_string(communicator& ranks, std::string& text, unsigned root = 0);

}  // namespace stokesian
