// The build of a run across MPI ranks (run/rank_protocol.hpp, "build"): what a rank other than 0
// cannot prepare for rank 0's run -- here, the backend rank 0 chose is unavailable on its host --
// is gathered before any rank builds, and every rank throws the same one line naming the first
// such rank, so that rank 0 prints it (exit code 2) and no rank is left waiting in a collective
// call with its message unsaid (issue #16: a rank without a device threw alone, rank 0 sat in the
// device gather, and the run ended on the rank's MPI_Abort without a line). R ranks are R threads
// (tests/support/thread_ranks.hpp); the runs under mpirun are tests/cli/quick_mpi_ranks_test.cpp
// and, one GPU per rank, tests/cli/mpi_ranks_gpu_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "run/rank_protocol.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/scratch_directory.hpp"
#include "support/thread_ranks.hpp"

using namespace stokesian;

namespace {

// Which ranks (threads) run on a host where the test backend finds no device.
thread_local bool host_without_devices = false;

const std::string no_device_refusal = "the test backend finds no device on this host";

// A device backend across ranks whose probe answers for the host of the thread that asks.
const backends::backend& host_probed_backend() {
    static const backends::backend& b = []() -> const backends::backend& {
        backends::backend t;
        t.name = "test-rank-build";
        t.title = "the test-rank-build backend";
        t.can.devices = backends::any_device_count;
        t.can.ranks = true;
        t.probe = [] {
            backends::availability a;
            if (host_without_devices) return backends::availability{false, no_device_refusal, "no test device", 0};
            a.devices_present = 2;
            return a;
        };
        // Nothing to step: the test ends the run right after the build.
        t.make_engine = [](const engine_config&, const device_context&, const initial_state&) {
            return std::unique_ptr<engine>();
        };
        backends::backend_registry().add(std::move(t));
        return *backends::backend_registry().find("test-rank-build");
    }();
    return b;
}

// body(rank, its communicator) on `ranks` threads; what each returned or threw, in rank order. A
// rank that throws alone leaves the others in a gather for ever (the fault these tests are about):
// that fails the test binary after 60 s (the ranks take milliseconds), not hangs it.
std::vector<std::string> as_ranks(unsigned ranks, const std::function<std::string(unsigned, communicator&)>& body) {
    test_support::thread_ranks all(ranks);
    std::vector<std::string> outcome(ranks);
    std::vector<std::thread> threads;
    std::atomic<unsigned> finished{0};
    for (unsigned r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            try {
                outcome[r] = body(r, all.rank(r));
            } catch (const input_error& e) {
                outcome[r] = std::string("input_error: ") + e.what();
            } catch (const std::exception& e) {
                outcome[r] = std::string("other: ") + e.what();
            }
            ++finished;
        });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (finished.load() < ranks && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (finished.load() < ranks) {
        std::cerr << "FAILED: " << ranks - finished.load() << " of " << ranks
                  << " ranks still wait in a collective call after 60 s: a rank refused alone\n";
        std::cerr.flush();
        std::_Exit(1);  // the waiting threads cannot be joined
    }
    for (std::thread& t : threads) t.join();
    return outcome;
}

// Rank 0 announces a build of the tetrahedron on the test backend and, when every rank could
// prepare, ends the run; the others follow. Each rank's error ("" when none), in rank order.
std::vector<std::string> build_across(unsigned ranks, const std::vector<unsigned>& without_devices) {
    const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    engine_config config = make_engine_config(s);
    config.backend = host_probed_backend().name;
    return as_ranks(ranks, [&](unsigned r, communicator& me) -> std::string {
        for (const unsigned w : without_devices) host_without_devices = host_without_devices || w == r;
        if (!me.leads()) {
            const run_result followed = follow_run(me, 1);
            return followed.status == "completed" ? "" : "followed to '" + followed.status + "'";
        }
        announce_build(me, run_record(s), config, {});
        run_result done;
        done.status = "completed";
        announce_end(me, done);
        return "";
    });
}

// The kernel each rank's engine was built with, by rank.
std::mutex seen_mutex;
std::map<unsigned, std::string> kernel_seen;

// A host backend across ranks (the CPU engine underneath) whose auto choice is that of a device
// backend: made on rank 0 it names "k0"; made on another rank it refuses, as choose_cuda does for a
// rank whose device is missing -- alone, before the device gather (issue #16).
const backends::backend& rank_kernel_backend() {
    static const backends::backend& b = []() -> const backends::backend& {
        backends::backend t;
        t.name = "test-rank-kernel";
        t.title = "the test-rank-kernel backend";
        t.can.ranks = true;
        t.can.hi_kernels = {"k0", "k1"};
        t.choose_kernel = [](const engine_config&, std::size_t, const device_context& device,
                             backends::kernel_request) {
            const unsigned rank = device.ranks != nullptr ? device.ranks->rank() : 0;
            if (rank != 0) throw input_error("rank " + std::to_string(rank) + " chose a kernel on its own device");
            return backends::kernel_choice{"k0", "auto: k0 (rank 0's device)"};
        };
        t.make_engine = [](const engine_config& config, const device_context& device, const initial_state& state) {
            {
                const std::lock_guard<std::mutex> lock(seen_mutex);
                kernel_seen[device.ranks != nullptr ? device.ranks->rank() : 0] = config.hi_kernel;
            }
            engine_config cpu = config;
            cpu.backend = "cpu";
            cpu.hi_kernel.clear();
            return backends::make_engine(cpu, device, state);
        };
        backends::backend_registry().add(std::move(t));
        return *backends::backend_registry().find("test-rank-kernel");
    }();
    return b;
}

class RankKernelChoice : public test_support::scratch_directory_test {
protected:
    RankKernelChoice() : scratch_directory_test("stokesian_rank_kernel") {}
};

}  // namespace

TEST_F(RankKernelChoice, AutoIsResolvedOnRankZeroAndEveryRankRunsItsKernel) {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    s.run.backend = rank_kernel_backend().name;
    s.run.hi_kernel = "auto";
    s.run.time = 1.0;
    s.run.steps.reset();
    s.run.write_trajectory = false;
    constexpr unsigned ranks = 3;
    const std::vector<std::string> outcome = as_ranks(ranks, [&](unsigned, communicator& me) -> std::string {
        if (!me.leads()) return follow_run(me, 1).status;
        run_request req;
        req.scenario_ = s;
        req.output.path = dir_ / "out.h5";
        req.threads = 1;
        req.ranks = &me;
        return run_scenario(req).status;
    });
    for (unsigned r = 0; r < ranks; ++r) {
        EXPECT_EQ(outcome[r].rfind("completed", 0), 0U) << "rank " << r << ": " << outcome[r];
        EXPECT_EQ(kernel_seen[r], "k0") << "rank " << r;
    }
    // Rank 0's engine says why (the provenance the output records).
    const io::h5md_file out(dir_ / "out.h5");
    EXPECT_EQ(out.string_attribute("/parameters/engine", "hi_kernel_choice").value_or(""),
              "auto: k0 (rank 0's device)");
}

TEST(RankBuildAgreement, EveryRankPreparedBuildsAndFollowsToTheEnd) {
    for (const std::string& e : build_across(3, {})) EXPECT_EQ(e, "");
}

TEST(RankBuildAgreement, ARankWhoseHostLacksTheBackendIsOneVerdictOfEveryRank) {
    const std::vector<std::string> errors = build_across(3, {2});
    // Rank 0 too: it throws the line it prints, though its own host has the backend.
    ASSERT_EQ(errors[0].rfind("input_error: MPI rank 2: ", 0), 0U) << errors[0];
    EXPECT_NE(errors[0].find(no_device_refusal), std::string::npos) << errors[0];
    EXPECT_EQ(errors[0].find('\n'), std::string::npos) << errors[0];  // one line
    for (unsigned r = 1; r < errors.size(); ++r) EXPECT_EQ(errors[r], errors[0]) << "rank " << r;
}

TEST(RankBuildAgreement, TheFirstRankInRankOrderIsNamed) {
    const std::vector<std::string> errors = build_across(4, {3, 1});
    EXPECT_EQ(errors[0].rfind("input_error: MPI rank 1: ", 0), 0U) << errors[0];
    for (unsigned r = 1; r < errors.size(); ++r) EXPECT_EQ(errors[r], errors[0]) << "rank " << r;
}
