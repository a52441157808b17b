// `mpirun -n 2 stokesian run --backend cuda` (label gpu; skipped with a message where fewer than two
// devices are, the build has no NCCL or no MPI): one rank per GPU, each rank's device computing its
// target slice, the slices all-gathered with NCCL over a communicator bootstrapped through MPI
// (engine/docs/multi-gpu.md, "Several hosts"). Every output is the one-GPU output bit for bit (every
// frame, observable and analysis result, the final state digest): the tetrahedron (the conformance
// body of mpi_ranks_conformance.hpp, on every device backend) and the nightly's fcc N = 4000 in
// every precision mode; a checkpoint written under two ranks resumes bit for bit
// on one GPU and the other way round; ranks without a device of their own and several devices
// under several ranks are one line and exit code 2 from rank 0; a fault on rank 1's device stops
// the run with exit code 1 naming the rank and the device, rank 0 writes the checkpoint of the last
// good sample, and --resume on one GPU completes the run bit for bit. No tolerance anywhere.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_ranks_conformance.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/h5md_comparison.hpp"
#include "support/kill_resume.hpp"
#include "support/mpi_launch.hpp"
#include "support/multi_device.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
using namespace stokesian::test_support;
namespace fs = std::filesystem;

namespace {

const std::string source_dir = ::stokesian::test_support::project_source_dir;
const std::string tetrahedron = source_dir + "/scenarios/tetrahedron.toml";
const std::string fcc = source_dir + "/scenarios/fcc_sedimentation.toml";

// Runs of seconds (the fcc runs: 100 steps of N = 4000); a hang (a rank left waiting) fails the
// test after this.
constexpr double patience_seconds = 300.0;

// `stokesian args...` as `ranks` ranks on this host, NVLink multicast off in every rank (as on the
// GPU hosts here), as root where the tests run as root; `fault` in STOKESIAN_TEST_DEVICE_FAULT.
cli_outcome run_ranks(unsigned ranks, const std::vector<std::string>& args, const fs::path& dir,
                      const std::string& fault = "") {
    std::vector<std::string> environment{"NCCL_NVLS_ENABLE=0"};
    if (!fault.empty()) environment.push_back("STOKESIAN_TEST_DEVICE_FAULT=" + fault);
    return launch_ranks(ranks, args, dir, patience_seconds, environment);
}

cli_outcome run_alone(const std::vector<std::string>& args, const fs::path& dir) {
    return run_cli_at_most(patience_seconds, args, dir);
}

class MpiRanksGpu : public scratch_directory_test {
protected:
    MpiRanksGpu() : scratch_directory_test("stokesian_mpi_gpu") {}
    void SetUp() override {
        if (mpiexec.empty()) GTEST_SKIP() << "this build has no MPI (install libopenmpi-dev openmpi-bin, reconfigure)";
        if (!fs::exists(mpiexec)) GTEST_SKIP() << mpiexec << " is not on this host (install openmpi-bin)";
        REQUIRE_TWO_DEVICES();
        scratch_directory_test::SetUp();
    }
};

}  // namespace

// The conformance body (mpi_ranks_conformance.hpp) on every device backend that runs across ranks,
// in every mode it runs.
INSTANTIATE_TEST_SUITE_P(OnADevice, MpiRanksConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::device)), backend_mode_name);

// The nightly's fcc N = 4000: slices [0, 2000) and [2000, 4000), 100 steps, the tiling kernel as
// the nightly, on every device backend, in every mode it runs.
class MpiRanksGpuFcc : public MpiRanksConformance {};

TEST_P(MpiRanksGpuFcc, TheNightlysFccOnTwoRanksIsOneGpuBitForBit) {
    const std::string mode = to_string(GetParam().mode);
    expect_ranks_equal_one(fcc, {"--precision", mode, "--hi-kernel", "tiling"}, "fcc_" + mode);
}

INSTANTIATE_TEST_SUITE_P(OnADevice, MpiRanksGpuFcc, testing::ValuesIn(registered_backend_modes(backend_place::device)),
                         backend_mode_name);

// The nightly's fcc stopped on 2 ranks at step 40 and resumed on one GPU, stopped on one GPU at
// step 60 and resumed on 2 ranks, in a mixed mode.
class MpiRanksGpuResume : public MpiRanksConformance {};

TEST_P(MpiRanksGpuResume, ACheckpointResumesBitwiseOnOneGpuAndOnTwoRanks) {
    expect_a_checkpoint_resumes_on_another_number_of_ranks(fcc, {"--precision", to_string(GetParam().mode)}, "40",
                                                           "60");
}

constexpr precision_mode resume_modes[] = {{precision::ds, precision::f32}};

INSTANTIATE_TEST_SUITE_P(OnADevice, MpiRanksGpuResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device), resume_modes)),
                         backend_mode_name);

TEST_F(MpiRanksGpu, RanksWithoutADeviceOfTheirOwnAreOneLineFromRankZeroAndExitCodeTwo) {
    const int count = cuda::device_count();
    struct bad {
        unsigned ranks;
        std::vector<std::string> options;
        std::string expected;
    };
    const std::vector<bad> cases{
        // One rank more than this host has devices: the last has none.
        {unsigned(count + 1),
         {},
         "MPI rank " + std::to_string(count) + " (rank " + std::to_string(count) +
             " of its host) has no device of its own: device " + std::to_string(count) + " is not present"},
        // The same under each kernel request: auto (above, the default) and fast are resolved on
        // rank 0 alone; a follower that resolved them checked its missing device alone (issue #16).
        {unsigned(count + 1),
         {"--hi-kernel", "fast"},
         "MPI rank " + std::to_string(count) + " (rank " + std::to_string(count) + " of its host) has no device"},
        {unsigned(count + 1),
         {"--hi-kernel", "tiling"},
         "MPI rank " + std::to_string(count) + " (rank " + std::to_string(count) + " of its host) has no device"},
        {2, {"--devices", "0"}, "MPI ranks 0 and 1 would drive the same device"},
        {2, {"--devices", "0,1"}, "each rank drives one device"},
        {2, {"--devices", "all"}, "each rank drives one device"},
        {2, {"--devices", std::to_string(count)}, "is not present"},
        {2, {"--hi-kernel", "fused"}, "does not run across MPI ranks"},
    };
    for (const bad& b : cases) {
        std::vector<std::string> args{"run", tetrahedron, "--time", "1", "-o", (dir_ / "bad.h5").string()};
        args.insert(args.end(), b.options.begin(), b.options.end());
        if (std::find(args.begin(), args.end(), "--backend") == args.end())
            args.insert(args.end(), {"--backend", "cuda"});
        const cli_outcome o = run_ranks(b.ranks, args, dir_);
        EXPECT_EQ(o.exit_code, 2) << what_ran(o);
        const std::vector<std::string> lines = stokesian_lines(o.err);
        ASSERT_EQ(lines.size(), 1U) << o.err;
        EXPECT_NE(lines[0].find(b.expected), std::string::npos) << lines[0];
        // Rank 0's line ("stokesian (rank R): ..." is a rank's own, printed when rank 0 said nothing).
        EXPECT_EQ(lines[0].rfind("stokesian: ", 0), 0U) << lines[0];
        EXPECT_FALSE(fs::exists(dir_ / "bad.h5"));
    }
}

TEST_F(MpiRanksGpu, AFaultOnRankOnesDeviceCheckpointsOnRankZeroAndEndsEveryRankNamingIt) {
    // The run of tests/cuda/multi_device_failure_gpu_test.cpp's one-device case, on two ranks: rank
    // 1's device (ordinal 1) traps before step 6003; rank 0 waits in the all-gather for it.
    const fs::path straight = dir_ / "straight.h5", failed = dir_ / "failed.h5";
    auto run = [&](const fs::path& out) {
        return std::vector<std::string>{
            "run",       tetrahedron, "--backend",      "cuda", "--hi-kernel",       "tiling", "--dt",   "0.1",
            "--time",    "1200",      "--sample-every", "1",    "--checkpoint-wall", "0",      "--json", "-o",
            out.string()};
    };
    const cli_outcome expected = run_alone(run(straight), dir_);
    ASSERT_EQ(expected.exit_code, 0) << what_ran(expected);

    const cli_outcome r = run_ranks(2, run(failed), dir_, "6003:1");
    EXPECT_EQ(r.exit_code, 1) << "(137: killed after " << patience_seconds << " s, a hang) " << what_ran(r);
    const std::vector<std::string> lines = stokesian_lines(r.err);
    ASSERT_FALSE(lines.empty()) << r.err;
    EXPECT_EQ(
        lines[0].rfind(
            "stokesian: error: device 1 (" + cuda::device_description(1).at("device_name") + ", MPI rank 1): ", 0),
        0U)
        << r.err;
    EXPECT_NE(lines[0].find("checkpoint at step"), std::string::npos) << r.err;
    const fs::path checkpoint = io::checkpoint_path_for(failed);
    ASSERT_TRUE(fs::exists(checkpoint)) << r.err;
    const io::run_checkpoint c = io::read_checkpoint(checkpoint);
    EXPECT_LE(c.engine.step, 6003u);
    EXPECT_EQ(c.engine.step % 10, 0u);  // a sample (every 10 steps)

    const cli_outcome resumed = run_alone({"run", "--resume", failed.string(), "--json"}, dir_);
    ASSERT_EQ(resumed.exit_code, 0) << what_ran(resumed);
    EXPECT_EQ(json_field(resumed.out, "final_state_digest"), json_field(expected.out, "final_state_digest"))
        << resumed.out;
}
