// `mpirun -n R stokesian run ...` (engine/README.md, "Runs across MPI ranks"): the CPU backend's
// targets cut into R slices, one per rank, each summing its slice against all N sources and
// gathering the rest. Every output is the one-process output bit for bit (every frame, observable
// and analysis result: the h5md comparison of the resume tests), in several precision modes, for the
// tetrahedron (the conformance body of mpi_ranks_conformance.hpp, on every host backend), a periodic
// lattice with lubrication and short-range forces, and the implicit lubrication solve with more
// ranks than particles; a run stopped under R ranks resumes under one and
// the other way round; bad input is one line and exit code 2 from rank 0, and no rank hangs.
// Skipped with a message in a build without MPI. Runs under `--oversubscribe` (CI has 2 cores).
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

using ::stokesian::test_support::tetrahedron_toml;
const std::string lattice = ::stokesian::test_support::checkout_file("tests/inputs/good/ranks_lattice_lubricated.toml");
const std::string pairs_implicit =
    ::stokesian::test_support::checkout_file("scenarios/approaching_pairs_implicit.toml");

// The modes of the conformance bodies here (a few: every one a few seconds of ranks under sanitizers).
constexpr precision_mode tetrahedron_rank_modes[] = {
    {precision::ds, precision::f32}, {precision::f32, precision::f32}, {precision::f64, precision::f64}};
constexpr precision_mode lattice_rank_modes[] = {
    {precision::ds, precision::ds}, {precision::f32, precision::ds}, {precision::f64, precision::f64}};

// A run that should take seconds: a hang (a rank left waiting) fails the test after this.
constexpr double patience_seconds = 120.0;

// `stokesian args...` as R ranks: oversubscribed (more ranks than cores), unbound, as root where
// the tests run as root (containers), one worker thread per rank.
cli_outcome run_ranks(unsigned ranks, const std::vector<std::string>& args, const fs::path& dir) {
    return launch_ranks(ranks, args, dir, patience_seconds);
}

cli_outcome run_alone(const std::vector<std::string>& args, const fs::path& dir) {
    return run_cli_at_most(patience_seconds, args, dir);
}

class MpiRanks : public scratch_directory_test {
protected:
    MpiRanks() : scratch_directory_test("stokesian_mpi") {}
    void SetUp() override {
        if (mpiexec.empty()) GTEST_SKIP() << "this build has no MPI (install libopenmpi-dev openmpi-bin, reconfigure)";
        scratch_directory_test::SetUp();
    }

    // The run alone and across `ranks`: both complete, the same final digest, the same file.
    void expect_ranks_equal_one(unsigned ranks, const std::string& scenario, const std::vector<std::string>& options,
                                const std::string& name) {
        const fs::path one = dir_ / (name + "_1.h5"), many = dir_ / (name + "_" + std::to_string(ranks) + ".h5");
        std::vector<std::string> args{"run", scenario, "--threads", "1", "--json"};
        args.insert(args.end(), options.begin(), options.end());
        std::vector<std::string> args_one = args, args_many = args;
        args_one.insert(args_one.end(), {"-o", one.string()});
        args_many.insert(args_many.end(), {"-o", many.string()});
        const cli_outcome alone = run_alone(args_one, dir_);
        ASSERT_EQ(alone.exit_code, 0) << what_ran(alone);
        const cli_outcome spread = run_ranks(ranks, args_many, dir_);
        ASSERT_EQ(spread.exit_code, 0) << what_ran(spread);
        // One writer: one summary on stdout, nothing on stderr, the output's engine says how many ranks.
        EXPECT_EQ(stokesian_lines(spread.err).size(), 0U) << spread.err;
        EXPECT_EQ(std::count(spread.out.begin(), spread.out.end(), '\n'), 1) << spread.out;
        EXPECT_EQ(json_field(spread.out, "final_state_digest"), json_field(alone.out, "final_state_digest")) << name;
        EXPECT_EQ(first_difference(one.string(), many.string()), "") << name;
        EXPECT_EQ(io::h5md_file(many).string_attribute("/parameters/engine", "mpi_ranks").value_or(""),
                  std::to_string(ranks))
            << name;
        EXPECT_FALSE(io::h5md_file(one).string_attribute("/parameters/engine", "mpi_ranks").has_value()) << name;
    }
};

}  // namespace

// The conformance body (mpi_ranks_conformance.hpp) on every host backend that runs across ranks, in
// three modes (a mixed one, f32, f64: seconds each under sanitizers).
INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksConformance,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    tetrahedron_rank_modes)),
                         backend_mode_name);

TEST_F(MpiRanks, TheTetrahedronWithTheSymmetricLoopAndRk4OnThreeRanksIsOneProcessBitForBit) {
    expect_ranks_equal_one(3, tetrahedron_toml, {"--time", "20", "--hi-kernel", "symmetric", "--integrator", "rk4"},
                           "tetrahedron_symmetric_rk4");
}

// A periodic lattice with lubrication and short-range forces, on every host backend, in three modes.
class MpiRanksLubricatedLattice : public MpiRanksConformance {};

TEST_P(MpiRanksLubricatedLattice, IsOneProcessBitForBit) {
    const std::string mode = to_string(GetParam().mode);
    expect_ranks_equal_one(lattice, {"--precision", mode}, "lattice_" + mode);
}

INSTANTIATE_TEST_SUITE_P(OnTheHost, MpiRanksLubricatedLattice,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host), lattice_rank_modes)),
                         backend_mode_name);

TEST_F(MpiRanks, TheImplicitSolveWithMoreRanksThanParticles) {
    // N = 2 on 3 ranks: one rank's slice is empty, and every CG iteration gathers.
    expect_ranks_equal_one(3, pairs_implicit, {"--steps", "300", "--precision", "hi=ds,int=f32"}, "pairs_implicit");
}

TEST_F(MpiRanks, ACheckpointResumesOnAnotherNumberOfRanks) {
    const std::vector<std::string> run{"run", lattice,       "--threads",    "1", "--json", "--steps",
                                       "60",  "--precision", "hi=ds,int=f32"};
    const fs::path reference = dir_ / "reference.h5";
    std::vector<std::string> args = run;
    args.insert(args.end(), {"-o", reference.string()});
    const cli_outcome straight = run_alone(args, dir_);
    ASSERT_EQ(straight.exit_code, 0) << what_ran(straight);

    // Stopped on 3 ranks at step 20, resumed alone; stopped alone at step 30, resumed on 3 ranks.
    struct leg {
        unsigned first_ranks, then_ranks;
        const char* stop;
    };
    for (const leg l : {leg{3, 1, "20"}, leg{1, 3, "30"}}) {
        const fs::path out = dir_ / ("split_" + std::to_string(l.first_ranks) + ".h5");
        args = run;
        args.insert(args.end(), {"-o", out.string(), "--stop-at-step", l.stop});
        const cli_outcome first = l.first_ranks > 1 ? run_ranks(l.first_ranks, args, dir_) : run_alone(args, dir_);
        ASSERT_EQ(first.exit_code, 0) << what_ran(first);
        ASSERT_EQ(json_field(first.out, "status").rfind("stopped at step " + std::string(l.stop), 0), 0U) << first.out;
        ASSERT_TRUE(fs::exists(io::checkpoint_path_for(out)));
        const std::vector<std::string> resume{"run", "--resume", out.string(), "--threads", "1", "--json"};
        const cli_outcome then = l.then_ranks > 1 ? run_ranks(l.then_ranks, resume, dir_) : run_alone(resume, dir_);
        EXPECT_EQ(difference_from_reference(out, then, reference, straight), "")
            << l.first_ranks << " ranks, then " << l.then_ranks;
    }
}

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
