// `mpirun -n R stokesian run ...` (engine/README.md, "Runs across MPI ranks"): the CPU backend's
// targets cut into R slices, one per rank, each summing its slice against all N sources and
// gathering the rest. Every output is the one-process output bit for bit (every frame, observable
// and analysis result), in several precision modes, for the tetrahedron, a periodic lattice with
// lubrication and short-range forces, and the implicit lubrication solve with more ranks than
// particles; a run stopped under R ranks resumes under one and the other way round (the bodies of
// mpi_ranks_conformance.hpp, on every host backend); bad input is one line and exit code 2 from
// rank 0, and no rank hangs. Skipped with a message in a build without MPI. Runs under
// `--oversubscribe` (CI has 2 cores).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_ranks_conformance.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/h5md_comparison.hpp"
#include "support/kill_resume.hpp"
#include "support/mpi_launch.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
using namespace stokesian::test_support;
namespace fs = std::filesystem;

namespace {

const std::string lattice = ::stokesian::test_support::checkout_file("tests/inputs/good/ranks_lattice_lubricated.toml");
const std::string pairs_implicit =
    ::stokesian::test_support::checkout_file("scenarios/approaching_pairs_implicit.toml");

// The modes of the conformance bodies here (a few: every one a few seconds of ranks under sanitizers).
constexpr precision_mode tetrahedron_rank_modes[] = {
    {precision::ds, precision::f32}, {precision::f32, precision::f32}, {precision::f64, precision::f64}};
constexpr precision_mode lattice_rank_modes[] = {
    {precision::ds, precision::ds}, {precision::f32, precision::ds}, {precision::f64, precision::f64}};
constexpr precision_mode reference_modes[] = {{precision::f64, precision::f64}};
constexpr precision_mode mixed_modes[] = {{precision::ds, precision::f32}};

// A run that should take seconds: a hang (a rank left waiting) fails the test after this.
constexpr double patience_seconds = 120.0;

// `stokesian args...` as R ranks: oversubscribed (more ranks than cores), unbound, as root where
// the tests run as root (containers), one worker thread per rank.
cli_outcome run_ranks(unsigned ranks, const std::vector<std::string>& args, const fs::path& dir) {
    return launch_ranks(ranks, args, dir, patience_seconds);
}

class MpiRanks : public scratch_directory_test {
protected:
    MpiRanks() : scratch_directory_test("stokesian_mpi") {}
    void SetUp() override {
        if (mpiexec.empty()) GTEST_SKIP() << "this build has no MPI (install libopenmpi-dev openmpi-bin, reconfigure)";
        scratch_directory_test::SetUp();
    }
};

}  // namespace

// The conformance body (mpi_ranks_conformance.hpp) on every host backend that runs across ranks, in
// three modes (a mixed one, f32, f64: seconds each under sanitizers).
INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksConformance,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    tetrahedron_rank_modes)),
                         backend_mode_name);

// The CPU's symmetric loop and RK4 (four evaluations a step, each gathered), in the reference mode.
class MpiRanksSymmetricRk4 : public MpiRanksConformance {};

TEST_P(MpiRanksSymmetricRk4, TheTetrahedronIsOneProcessBitForBit) {
    expect_ranks_equal_one(
        tetrahedron_toml,
        {"--time", "20", "--hi-kernel", "symmetric", "--integrator", "rk4", "--precision", to_string(GetParam().mode)},
        "tetrahedron_symmetric_rk4");
}

INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksSymmetricRk4,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host), reference_modes)),
                         backend_mode_name);

// A periodic lattice with lubrication and short-range forces, on every host backend, in three modes.
class MpiRanksLubricatedLattice : public MpiRanksConformance {};

TEST_P(MpiRanksLubricatedLattice, IsOneProcessBitForBit) {
    const std::string mode = to_string(GetParam().mode);
    expect_ranks_equal_one(lattice, {"--precision", mode}, "lattice_" + mode);
}

INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksLubricatedLattice,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host), lattice_rank_modes)),
                         backend_mode_name);

// N = 2 on 3 ranks: one rank's slice is empty, and every CG iteration gathers.
class MpiRanksImplicitSolve : public MpiRanksConformance {};

TEST_P(MpiRanksImplicitSolve, WithMoreRanksThanParticlesIsOneProcessBitForBit) {
    expect_ranks_equal_one(pairs_implicit, {"--steps", "300", "--precision", to_string(GetParam().mode)},
                           "pairs_implicit");
}

INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksImplicitSolve,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host), mixed_modes)),
                         backend_mode_name);

// Stopped on 3 ranks at step 20, resumed alone; stopped alone at step 30, resumed on 3 ranks.
class MpiRanksResume : public MpiRanksConformance {};

TEST_P(MpiRanksResume, ACheckpointResumesOnAnotherNumberOfRanks) {
    expect_a_checkpoint_resumes_on_another_number_of_ranks(
        lattice, {"--steps", "60", "--precision", to_string(GetParam().mode)}, "20", "30");
}

INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host), mixed_modes)),
                         backend_mode_name);

TEST_F(MpiRanks, BadInputIsOneLineFromRankZeroAndExitCodeTwo) {
    struct bad {
        std::vector<std::string> args;
        std::string expected;
    };
    const fs::path taken = dir_ / "taken.h5";
    { std::ofstream(taken) << "not a result"; }
    const std::vector<bad> cases{
        {{"run", ::stokesian::test_support::checkout_file("tests/inputs/bad/devices_twice.toml")},
         "device 0 is named twice"},
        {{"run", tetrahedron_toml, "--devices", "0"}, "the CPU backend runs on the host"},
        // Found by rank 0 alone (the others read nothing): they must not wait for it forever.
        {{"run", tetrahedron_toml, "--time", "1", "-o", taken.string()}, "taken.h5"},
        {{"analyze", taken.string()}, "runs in one process, not across 2 MPI ranks"},
    };
    for (const bad& b : cases) {
        const cli_outcome o = run_ranks(2, b.args, dir_);
        EXPECT_EQ(o.exit_code, 2) << what_ran(o);
        const std::vector<std::string> lines = stokesian_lines(o.err);
        ASSERT_EQ(lines.size(), 1U) << o.err;
        EXPECT_NE(lines[0].find(b.expected), std::string::npos) << lines[0];
        EXPECT_EQ(lines[0].rfind("stokesian: ", 0), 0U) << lines[0];  // rank 0's, not a rank's own
    }
    EXPECT_EQ(read_text(taken), "not a result");  // nothing overwritten
}

// Without mpirun: the device list's spelling and its refusal by the CPU backend (no MPI needed).
TEST(DevicesOption, BadListsAndTheCpuBackendAreOneLineAndExitCodeTwo) {
    const fs::path dir = fs::temp_directory_path();
    for (const auto& [list, expected] : std::vector<std::pair<std::string, std::string>>{
             {"0,0", "device 0 is named twice"},
             {"-1", "device -1 is negative"},
             {"zero", "'zero' is not a whole number"},
             {"0", "the CPU backend runs on the host and takes no device list"},
             {"all", "the CPU backend runs on the host and takes no device list"}}) {
        const cli_outcome o = run_cli_at_most(60,
                                              {"run", tetrahedron_toml, "--devices", list, "-o",
                                               (dir / ("devices_" + std::to_string(::getpid()) + ".h5")).string()},
                                              dir);
        EXPECT_EQ(o.exit_code, 2) << list << ": " << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
        EXPECT_NE(o.err.find(expected), std::string::npos) << o.err;
    }
}

// port-check record takes --devices too (the record on D devices is the one-device record: a gpu
// test); with the CPU backend, the default, a device list is one line of bad input and nothing is written.
TEST(DevicesOption, PortCheckRecordRefusesADeviceListWithTheCpuBackend) {
    const fs::path dir = fs::temp_directory_path();
    const fs::path out = dir / ("devices_record_" + std::to_string(::getpid()) + ".h5");
    const cli_outcome o = run_cli_at_most(60, {"port-check", "record", out.string(), "--devices", "0"}, dir);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find("the CPU backend runs on the host and takes no device list"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out.string() + ".partial"));
}
