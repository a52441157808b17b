#pragma once
// One device per MPI rank (`mpirun -n R stokesian run --backend cuda`; engine/docs/multi-gpu.md,
// "Several hosts"): which device each rank drives, and the rule that every rank has one of its own.
// Plain C++: the CUDA backend fills in what its devices say, every rank all-gathers every rank's
// entry and applies check_rank_devices to the same table, so that every rank reaches the same
// verdict and rank 0 says it (tests/core/rank_devices_test.cpp).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "stokesian/core/device_selection.hpp"

namespace stokesian {

// The ordinal a rank drives: the one `selection` names (every rank the same: meant for one rank
// per host), else its host-local rank (rank r of a host drives device r there: mpirun places ranks
// so, and CUDA_VISIBLE_DEVICES may renumber them). Throws std::invalid_argument when `selection`
// names more than one device ("all" included): under `ranks` > 1 processes each drives one.
int rank_ordinal(const device_selection& selection, unsigned local_rank, unsigned ranks);

// What one rank found, all-gathered byte for byte (trivially copyable, fixed size).
struct rank_device {
    std::uint32_t host = 0;  // an id of the rank's host: the lowest world rank there
    std::uint32_t local_rank = 0;
    std::int32_t ordinal = -1;  // the device it is to drive
    std::uint32_t present = 0;  // CUDA devices visible to it
    // Where ordinal is present: the device's UUID (two ranks naming different ordinals under
    // different CUDA_VISIBLE_DEVICES may still name one device), compute capability and
    // multiprocessor count (the split kernels' lane count depends on them: one kind of device,
    // or the result is not bit for bit one device's).
    std::array<unsigned char, 16> identity{};
    std::int32_t major = 0, minor = 0, multiprocessors = 0;
    std::array<char, 240> problem{};  // what this rank could not do (load NCCL): "" when nothing

    void set_problem(const std::string& text);
    std::string problem_text() const;
};

// What every rank says when some rank cannot go on: "" when no entry of `problems` (rank r's at
// index r, "" for none) is a problem, else "MPI rank R: PROBLEM" for the first rank in rank order
// that has one. Every rank computes it from the same gathered table, so all reach one verdict, all
// throw it alike and rank 0 prints it (the CLI prints rank 0's bad input only).
std::string first_rank_problem(std::span<const std::string> problems);

class communicator;

// Collective: this rank's problem ("" when none) all-gathered (cut to 239 bytes), then
// first_rank_problem of the table. A problem that only one rank can see (a backend its host cannot
// run, a device missing there) must go through here -- or the device group's check_rank_devices --
// before any rank throws: a rank that throws alone leaves the others waiting in their next
// collective call and its message is never printed (rank 0 prints; run/rank_protocol.hpp).
std::string gather_rank_problems(communicator& ranks, const std::string& mine);

// "" when every rank can go on: no rank had a problem, each drives a device present on its host,
// no two drive the same device (same identity on one host), all devices are of one kind. Else one
// line naming the first rank (in rank order) that cannot, and what to do about it.
std::string check_rank_devices(const std::vector<rank_device>& ranks);

}  // namespace stokesian
