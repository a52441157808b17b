// One device per MPI rank (core/rank_devices.hpp; `mpirun -n R stokesian run --backend cuda`): the
// rank -> device mapping and every refusal, without MPI or a GPU. The rule is a function of the
// table every rank all-gathers, so a table written out here is what R ranks on H hosts would see;
// backends::device_context_for is driven with a communicator that says where each rank runs. The
// runs themselves (two GPUs, mpirun) are tests/cli/mpi_ranks_gpu_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/rank_devices.hpp"
#include "support/thread_ranks.hpp"

using namespace stokesian;

namespace {

std::string refusal_of_ordinal(const std::string& selection, unsigned local_rank, unsigned ranks) {
    try {
        (void)rank_ordinal(parse_device_selection(selection), local_rank, ranks);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// Rank `rank` of `ranks`, on host `host` as local rank `local` (no messages: nothing here gathers).
class placed_rank final : public communicator {
public:
    placed_rank(unsigned rank, unsigned ranks, host_ranks where) : rank_(rank), size_(ranks), where_(where) {}
    unsigned rank() const override { return rank_; }
    unsigned size() const override { return size_; }
    host_ranks host() const override { return where_; }
    void allgather(void*, std::size_t, std::span<const std::size_t>, std::span<const std::size_t>) override {}
    void broadcast(void*, std::size_t, unsigned) override {}
    void barrier() override {}
    [[noreturn]] void abort(int) override { std::abort(); }

private:
    unsigned rank_, size_;
    host_ranks where_;
};

// A device-driving backend that runs across ranks, with four devices present (where this rank is).
const backends::backend& rank_device_backend() {
    static const backends::backend& b = []() -> const backends::backend& {
        backends::backend t;
        t.name = "test-rank-devices";
        t.title = "the test-rank-devices backend";
        t.can.devices = backends::any_device_count;
        t.can.ranks = true;
        t.probe = [] {
            backends::availability a;
            a.devices_present = 4;
            return a;
        };
        t.make_engine = [](const engine_config&, const device_context&, const initial_state&) {
            return std::unique_ptr<engine>();
        };
        backends::backend_registry().add(std::move(t));
        return *backends::backend_registry().find("test-rank-devices");
    }();
    return b;
}

// An entry as rank `rank` of a host with `present` devices of one kind (H100: cc 9.0, 132 SMs)
// would report it; the identity is the device's own (ordinal + 16 * host), as UUIDs would be.
rank_device found(unsigned host, unsigned local_rank, int ordinal, unsigned present) {
    rank_device d;
    d.host = host;
    d.local_rank = local_rank;
    d.ordinal = ordinal;
    d.present = present;
    if (ordinal >= 0 && unsigned(ordinal) < present) {
        d.identity[0] = static_cast<unsigned char>(ordinal + 1);
        d.identity[1] = static_cast<unsigned char>(host);
        d.major = 9;
        d.minor = 0;
        d.multiprocessors = 132;
    }
    return d;
}

}  // namespace

TEST(RankDevices, EachRankDrivesItsHostLocalRanksDeviceUnlessOneIsNamed) {
    EXPECT_EQ(rank_ordinal({}, 0, 4), 0);
    EXPECT_EQ(rank_ordinal({}, 3, 4), 3);  // rank 3 of its host: device 3 there
    EXPECT_EQ(rank_ordinal(parse_device_selection("2"), 0, 2), 2);
    EXPECT_EQ(rank_ordinal(parse_device_selection("2"), 1, 2), 2);  // the same for every rank: one per host
}

TEST(RankDevices, SeveralDevicesUnderSeveralRanksAreRefused) {
    for (const char* several : {"0,1", "all", "1,0,2"}) {
        const std::string why = refusal_of_ordinal(several, 0, 2);
        EXPECT_NE(why.find("under 2 MPI ranks each rank drives one device"), std::string::npos)
            << several << ": " << why;
        EXPECT_NE(why.find("'" + std::string(several) + "' names several"), std::string::npos) << why;
    }
}

TEST(RankDevices, OneRankPerDeviceOnEveryHostPasses) {
    // Two hosts of two devices, two ranks each (mpirun -n 4 --npernode 2); one host of four.
    EXPECT_EQ(check_rank_devices({found(0, 0, 0, 2), found(0, 1, 1, 2), found(2, 0, 0, 2), found(2, 1, 1, 2)}), "");
    EXPECT_EQ(check_rank_devices({found(0, 0, 0, 4), found(0, 1, 1, 4), found(0, 2, 2, 4), found(0, 3, 3, 4)}), "");
    // One rank per host naming the same ordinal: different devices.
    EXPECT_EQ(check_rank_devices({found(0, 0, 1, 2), found(1, 0, 1, 2)}), "");
}

TEST(RankDevices, MoreRanksOnAHostThanDevicesNamesTheRankAndTheHostsDevices) {
    const std::string why = check_rank_devices({found(0, 0, 0, 2), found(0, 1, 1, 2), found(0, 2, 2, 2)});
    EXPECT_NE(why.find("MPI rank 2 (rank 2 of its host) has no device of its own"), std::string::npos) << why;
    EXPECT_NE(why.find("device 2 is not present (2 here: ordinals 0 to 1)"), std::string::npos)
        << why;  // the core rule
    EXPECT_NE(why.find("--npernode"), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;  // one line
    // A host without devices.
    EXPECT_NE(
        check_rank_devices({found(0, 0, 0, 1), found(1, 0, 0, 0)}).find("device 0 is not present (no device here)"),
        std::string::npos);
}

TEST(RankDevices, TwoRanksOnOneDeviceAreRefused) {
    // --devices 0 under two ranks of one host.
    std::string why = check_rank_devices({found(0, 0, 0, 2), found(0, 1, 0, 2)});
    EXPECT_NE(why.find("MPI ranks 0 and 1 would drive the same device"), std::string::npos) << why;
    // Different ordinals, one device (CUDA_VISIBLE_DEVICES=1 for rank 1: its device 0 is device 1).
    rank_device renumbered = found(0, 1, 0, 1);
    renumbered.identity = found(0, 1, 1, 2).identity;
    why = check_rank_devices({found(0, 0, 0, 2), found(0, 1, 1, 2), renumbered});
    EXPECT_NE(why.find("MPI ranks 1 and 2 would drive the same device"), std::string::npos) << why;
}

TEST(RankDevices, DevicesOfDifferentKindsAndARanksOwnProblemAreRefused) {
    rank_device a100 = found(1, 0, 0, 1);
    a100.major = 8;
    a100.multiprocessors = 108;
    const std::string why = check_rank_devices({found(0, 0, 0, 1), a100});
    EXPECT_NE(why.find("MPI ranks 0 (cc 9.0, 132 SMs) and 1 (cc 8.0, 108 SMs) drive devices of different kinds"),
              std::string::npos)
        << why;
    rank_device no_nccl = found(0, 1, 1, 2);
    no_nccl.set_problem("running on several devices needs the NCCL library (libnccl.so.2)");
    EXPECT_EQ(check_rank_devices({found(0, 0, 0, 2), no_nccl}),
              "MPI rank 1: running on several devices needs the NCCL library (libnccl.so.2)");
    no_nccl.set_problem(std::string(1000, 'x'));  // longer than the entry holds: cut, still terminated
    EXPECT_EQ(no_nccl.problem_text().size(), no_nccl.problem.size() - 1);
}

TEST(RankDevices, ThePrintedVerdictNamesTheFirstRankWithAProblem) {
    // What every rank throws and rank 0 prints (run/rank_protocol.hpp, cuda/device_group.hpp).
    EXPECT_EQ(first_rank_problem(std::vector<std::string>{"", "", ""}), "");
    EXPECT_EQ(first_rank_problem(std::vector<std::string>{}), "");
    EXPECT_EQ(first_rank_problem(std::vector<std::string>{"", "", "no CUDA device here", "no NCCL"}),
              "MPI rank 2: no CUDA device here");
    EXPECT_EQ(first_rank_problem(std::vector<std::string>{"rank 0's own", "", "later"}), "MPI rank 0: rank 0's own");
}

TEST(RankDevices, GatheredProblemsAreOneVerdictOnEveryRank) {
    for (const unsigned ranks : {2U, 3U, 5U}) {
        test_support::thread_ranks all(ranks);
        std::vector<std::string> verdicts(ranks);
        std::vector<std::thread> threads;
        for (unsigned r = 0; r < ranks; ++r)
            threads.emplace_back([&, r] {
                // The last rank alone, and a problem longer than an entry holds (cut, one line).
                const std::string mine = r + 1 == ranks ? "no device here " + std::string(400, 'x') : "";
                verdicts[r] = gather_rank_problems(all.rank(r), mine);
            });
        for (std::thread& t : threads) t.join();
        const std::string expected = "MPI rank " + std::to_string(ranks - 1) + ": no device here ";
        EXPECT_EQ(verdicts[0].rfind(expected, 0), 0U) << verdicts[0];
        EXPECT_EQ(verdicts[0].size(), expected.size() - std::string("no device here ").size() + 239) << ranks;
        for (const std::string& v : verdicts) EXPECT_EQ(v, verdicts[0]) << ranks << " ranks";
    }
    single_process alone;
    EXPECT_EQ(gather_rank_problems(alone, "its own"), "MPI rank 0: its own");
    EXPECT_EQ(gather_rank_problems(alone, ""), "");
}

TEST(RankDevices, TheDeviceContextOfARankIsItsHostLocalRanksDevice) {
    engine_config config;
    config.backend = rank_device_backend().name;
    for (unsigned rank = 0; rank < 4; ++rank) {
        placed_rank here(rank, 4, {rank % 2, 2, rank / 2 * 2});  // two hosts, two ranks each
        const device_context d = backends::device_context_for(
            *backends::backend_registry().resolve(config, 10, "the run").chosen, {}, &here);
        EXPECT_EQ(d.ordinals, (std::vector<int>{int(rank % 2)})) << rank;
        EXPECT_EQ(d.ranks, &here);
    }
    placed_rank second(1, 2, {1, 2, 0});
    EXPECT_EQ(backends::device_context_for(*backends::backend_registry().resolve(config, 10, "the run").chosen,
                                           parse_device_selection("3"), &second)
                  .ordinals,
              (std::vector<int>{3}));
    try {
        (void)backends::device_context_for(*backends::backend_registry().resolve(config, 10, "the run").chosen,
                                           parse_device_selection("0,1"), &second);
        ADD_FAILURE() << "two devices under two ranks";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("run.devices"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("each rank drives one device"), std::string::npos) << e.what();
    }
    // A host backend across ranks takes no device: the context is the ranks alone.
    config.backend = "cpu";
    const device_context cpu =
        backends::device_context_for(*backends::backend_registry().resolve(config, 10, "the run").chosen, {}, &second);
    EXPECT_EQ(cpu.ordinals, (std::vector<int>{0}));
    EXPECT_EQ(cpu.ranks, &second);
}

TEST(RankDevices, TheCoreRuleNamesWhatIsNotPresentOrNamedTwice) {
    EXPECT_NO_THROW(check_ordinals({1, 0}, 2));
    EXPECT_THROW(check_ordinals({2}, 2), std::invalid_argument);
    try {
        check_ordinals({0, 1, 0}, 3);
        ADD_FAILURE();
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "device 0 is named twice");
    }
    try {
        check_ordinals({0, 7}, 2);
        ADD_FAILURE();
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "device 7 is not present (2 here: ordinals 0 to 1)");
    }
}
