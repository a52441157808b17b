// One device per MPI rank (core/rank_devices.hpp): the mapping and its one-line refusals.
#include "stokesian/core/rank_devices.hpp"

#include <algorithm>
#include <stdexcept>

#include "stokesian/core/communicator.hpp"

namespace stokesian {

namespace {

std::string kind(const rank_device& d) {
    return "cc " + std::to_string(d.major) + "." + std::to_string(d.minor) + ", " + std::to_string(d.multiprocessors) +
           " SMs";
}

std::vector<std::string> problems_of(const std::vector<rank_device>& ranks) {
    std::vector<std::string> problems;
    problems.reserve(ranks.size());
    for (const rank_device& d : ranks) problems.push_back(d.problem_text());
    return problems;
}

}  // namespace

int rank_ordinal(const device_selection& selection, unsigned local_rank, unsigned ranks) {
    if (selection.all || selection.ordinals.size() > 1)
        throw std::invalid_argument(
            "under " + std::to_string(ranks) + " MPI ranks each rank drives one device (its host-local rank's); '" +
            to_string(selection) +
            "' names several: leave --devices (run.devices) out, or name one device for a single rank per host");
    if (selection.given()) return selection.ordinals.front();
    return int(local_rank);
}

void rank_device::set_problem(const std::string& text) {
    problem.fill('\0');
    std::copy_n(text.begin(), std::min(text.size(), problem.size() - 1), problem.begin());
}

std::string rank_device::problem_text() const { return std::string(problem.data()); }

std::string first_rank_problem(std::span<const std::string> problems) {
    for (std::size_t r = 0; r < problems.size(); ++r)
        if (!problems[r].empty()) return "MPI rank " + std::to_string(r) + ": " + problems[r];
    return "";
}

std::string gather_rank_problems(communicator& ranks, const std::string& mine) {
    // rank_device's problem field, alone: fixed size, so that MPI moves it byte for byte.
    std::vector<rank_device> table(ranks.size());
    table.at(ranks.rank()).set_problem(mine);
    allgather_slices(ranks, std::span<rank_device>(table));
    return first_rank_problem(problems_of(table));
}

std::string check_rank_devices(const std::vector<rank_device>& ranks) {
    const std::string rank_word = "MPI rank ";
    if (std::string why = first_rank_problem(problems_of(ranks)); !why.empty()) return why;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const rank_device& d = ranks[r];
        try {
            check_ordinals({d.ordinal}, d.present);  // the core rule's message
        } catch (const std::invalid_argument& e) {
            return rank_word + std::to_string(r) + " (rank " + std::to_string(d.local_rank) +
                   " of its host) has no device of its own: " + e.what() +
                   "; each rank drives one device, so start at most as many ranks per host as it has devices "
                   "(mpirun --npernode)";
        }
    }
    for (std::size_t r = 0; r < ranks.size(); ++r)
        for (std::size_t q = 0; q < r; ++q)
            if (ranks[q].host == ranks[r].host && ranks[q].identity == ranks[r].identity)
                return "MPI ranks " + std::to_string(q) + " and " + std::to_string(r) +
                       " would drive the same device (device " + std::to_string(ranks[q].ordinal) + " of rank " +
                       std::to_string(q) + ", device " + std::to_string(ranks[r].ordinal) + " of rank " +
                       std::to_string(r) +
                       ", one host): each rank needs a device of its own (leave --devices out: rank r of a host "
                       "drives its device r)";
    for (std::size_t r = 1; r < ranks.size(); ++r)
        if (kind(ranks[r]) != kind(ranks[0]))
            return "MPI ranks 0 (" + kind(ranks[0]) + ") and " + std::to_string(r) + " (" + kind(ranks[r]) +
                   ") drive devices of different kinds: a run across ranks is bit for bit the one-device run only "
                   "on devices of one kind";
    return "";
}

}  // namespace stokesian
