// `stokesian bench fcc` as a user meets it (CPU backend, tiny sizes): the CSV has the documented
// columns and one row per size and mode, the fits and HDF5 files appear, an input file written by
// --write-velocities is read back by --input. No timing is asserted.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using bench_outcome = stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli;

namespace {

std::vector<std::string> csv_lines(const fs::path& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

class BenchCli : public stokesian::test_support::scratch_directory_test {
protected:
    BenchCli() : scratch_directory_test("stokesian_bench_cli") {}
};

const char* const measurement_columns =
    "backend,computes_on,device,kernel,precision,hi_precision,source,boundary,lubrication,particles,cells,threads,"
    "steps,warmup,"
    "reset_every,step_ms,step_median_ms,step_min_ms,step_max_ms,hi_ms,hi_median_ms,hi_min_ms,hi_max_ms,forces_ms,"
    "forces_median_ms,forces_min_ms,forces_max_ms,drift_ms,drift_median_ms,drift_min_ms,drift_max_ms,"
    "hi_gpairs_per_second,flops_per_pair,hi_gflops,peak_gflops,peak_fraction,speedup_vs_cpu,arithmetic_unit,"
    "whole_step_ms,whole_step_median_ms,whole_step_min_ms,whole_step_max_ms";

}  // namespace

TEST_F(BenchCli, FccOnTheCpuWritesTheTables) {
    const fs::path csv = dir_ / "fcc.csv", h5 = dir_ / "fcc.h5", velocities = dir_ / "v.h5";
    const bench_outcome o = run_cli({"bench",
                                     "fcc",
                                     "--backend",
                                     "cpu",
                                     "--sizes-cells",
                                     "2,3,4,5",
                                     "--precision",
                                     "hi=f32,int=f32;hi=ds,int=f32",
                                     "--cpu-steps",
                                     "2",
                                     "--cpu-warmup",
                                     "1",
                                     "--threads",
                                     "1",
                                     "--csv",
                                     csv.string(),
                                     "--h5",
                                     h5.string(),
                                     "--write-velocities",
                                     velocities.string()},
                                    dir_);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const std::vector<std::string> lines = csv_lines(csv);
    ASSERT_EQ(lines.size(), 1u + 4u * 2u);
    EXPECT_EQ(lines[0], measurement_columns);
    EXPECT_EQ(lines[1].rfind("cpu,host,", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find("\"hi=f32,int=f32\",f32,fcc,periodic,on,32,2,1,2,1,5,"), std::string::npos) << lines[1];

    const std::vector<std::string> fits = csv_lines(dir_ / "fcc_fits.csv");
    ASSERT_EQ(fits.size(), 1u + 2u * 2u);  // (2 modes) x (HI, whole step)
    EXPECT_EQ(fits[0].rfind("backend,computes_on,kernel,precision,quantity,points,linear_points,quadratic_points,", 0),
              0u);

    const stokesian::io::h5md_file file(h5, stokesian::io::h5md_group::not_required);
    EXPECT_EQ(file.shape("measurements/hi_median_ms"), (std::vector<std::size_t>{8}));
    EXPECT_EQ(file.shape("fits/quadratic_ms_per_pair"), (std::vector<std::size_t>{4}));
    EXPECT_TRUE(file.string_attribute("/", "command").has_value());
    EXPECT_EQ(file.string_attribute("/", "benchmark").value_or(""), "fcc");

    // The velocities of one HI update, of the first size (N = 32), read back as an input.
    const stokesian::io::h5md_file update(velocities, stokesian::io::h5md_group::not_required);
    EXPECT_EQ(update.shape("velocities"), (std::vector<std::size_t>{32, 3}));
    const fs::path again = dir_ / "again.csv";
    const bench_outcome i = run_cli({"bench", "fcc", "--backend", "cpu", "--input", velocities.string(), "--precision",
                                     "hi=f64,int=f64", "--cpu-steps", "1", "--threads", "1", "--csv", again.string()},
                                    dir_);
    ASSERT_EQ(i.exit_code, 0) << i.err;
    const std::vector<std::string> again_lines = csv_lines(again);
    ASSERT_EQ(again_lines.size(), 2u);
    EXPECT_NE(again_lines[1].find(velocities.string() + ",periodic,on,32,"), std::string::npos) << again_lines[1];
}

// The paper's explicit lubrication tears the lattice apart within a few dozen steps (in f32 at
// N = 256 on the CPU within ten): with resets further apart than that, bench fcc times chunks that
// end with the first blown-up state, says so, and puts the steps it took in reset_every. The found
// count is checked against itself: resets that far apart or one step more give it again, one step
// less is quiet. And a system that blows up in its first step (uniform random positions, overlapping
// pairs with lubrication) is timed a step at a time.
TEST_F(BenchCli, FccResetsBeforeTheLatticeBlowsUp) {
    const auto bench = [&](const std::string& reset_every, const std::string& name) {
        const fs::path csv = dir_ / name;
        const bench_outcome o =
            run_cli({"bench", "fcc", "--backend", "cpu", "--sizes-cells", "4", "--precision", "f32", "--reset-every",
                     reset_every, "--cpu-steps", "12", "--cpu-warmup", "0", "--threads", "1", "--csv", csv.string()},
                    dir_);
        EXPECT_EQ(o.exit_code, 0) << o.err;
        const std::vector<std::string> lines = csv_lines(csv);
        EXPECT_EQ(lines.size(), 2u);
        // reset_every: the 15th column (measurement_columns).
        std::stringstream row(lines.size() > 1 ? lines[1] : "");
        std::string cell;
        std::vector<std::string> cells;
        while (std::getline(row, cell, ',')) cells.push_back(cell);
        EXPECT_GT(cells.size(), 16u);  // the precision's quoted comma splits one column in two
        return std::pair{cells.size() > 16 ? std::stoull(cells[15]) : 0ull, o.out};
    };
    const auto [reset, out] = bench("40", "far.csv");
    EXPECT_GT(reset, 0u);
    EXPECT_LT(reset, 40u);
    EXPECT_NE(out.find("the state after step " + std::to_string(reset) + " from the initial one blew up ("),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("timed with a reset every " + std::to_string(reset) + " steps, not 40"), std::string::npos)
        << out;
    const auto [as_found, quiet] = bench(std::to_string(reset), "found.csv");
    EXPECT_EQ(as_found, reset);
    EXPECT_EQ(quiet.find("blew up"), std::string::npos) << quiet;
    EXPECT_EQ(bench(std::to_string(reset + 1), "one_more.csv").first, reset);
    const auto [one_less, also_quiet] = bench(std::to_string(reset - 1), "one_less.csv");
    EXPECT_EQ(one_less, reset - 1);
    EXPECT_EQ(also_quiet.find("blew up"), std::string::npos) << also_quiet;

    const fs::path uniform = dir_ / "uniform.csv";
    const bench_outcome o =
        run_cli({"bench", "fcc", "--backend", "cpu", "--generator", "uniform", "--sizes-cells", "4", "--precision",
                 "f32", "--cpu-steps", "3", "--threads", "1", "--csv", uniform.string()},
                dir_);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("the state after step 1 from the initial one blew up ("), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("timed with a reset every step, not 5"), std::string::npos) << o.out;
    const std::vector<std::string> rows = csv_lines(uniform);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_NE(rows[1].find(",uniform,periodic,on,256,4,1,3,1,1,"), std::string::npos) << rows[1];
}

TEST_F(BenchCli, BadOptionsAndMissingDevicesFailWithOneLine) {
    const bench_outcome o = run_cli({"bench", "fcc", "--backend", "cpu", "--sizes-cells", "x"}, dir_);
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_NE(o.err.find("--sizes-cells"), std::string::npos) << o.err;
    const bench_outcome m = run_cli({"bench", "fcc", "--backend", "cpu", "--max-n", "10"}, dir_);
    EXPECT_EQ(m.exit_code, 2) << m.err;
#if defined(STOKESIAN_HAVE_CUDA)
    const bool device = stokesian::cuda::device_available();
#else
    const bool device = false;
#endif
    if (!device) {
        // The environment's to change, as for run, bench steps and mobility-check: one line naming
        // the command and what is missing, exit code 2, before anything is timed or written.
        for (const auto& [command, expected] : std::vector<std::pair<std::vector<std::string>, std::string>>{
                 {{"fcc", "--backend", "cuda", "--sizes-cells", "2", "--csv", (dir_ / "g.csv").string()},
                  "bench fcc --backend cuda: "},
                 {{"fcc", "--backend", "cpu,cuda", "--sizes-cells", "2"}, "bench fcc --backend cpu,cuda: "},
                 {{"memory", "--sizes", "1000", "--csv", (dir_ / "m.csv").string()}, "bench memory: "},
                 {{"hi", "--sizes", "1000"}, "bench hi: "},
                 {{"tune", "--sizes", "1000"}, "bench tune: "}}) {
            std::vector<std::string> args{"bench"};
            args.insert(args.end(), command.begin(), command.end());
            const bench_outcome g = run_cli(args, dir_);
            EXPECT_EQ(g.exit_code, 2) << command[0] << ": " << g.err;
            EXPECT_EQ(g.err.find('\n'), g.err.size() - 1) << g.err;  // one line
            EXPECT_EQ(g.err.rfind("stokesian: " + expected, 0), 0u) << g.err;
            EXPECT_TRUE(g.err.find("no CUDA device found") != std::string::npos ||
                        g.err.find("this build has no CUDA backend") != std::string::npos)
                << g.err;
        }
        EXPECT_TRUE(fs::is_empty(dir_)) << "nothing may be written";
    }
}

// bench steps builds the engine `run` would, on the devices `run` would: a device list it cannot take
// is the key's one line of bad input (exit code 2), nothing printed before it, on any host.
TEST_F(BenchCli, StepsTakesTheRunsDeviceListAndItsRefusals) {
    const bench_outcome o = run_cli({"bench", "steps", stokesian::test_support::tetrahedron_toml, "--backend", "cpu",
                                     "--devices", "0", "--csv", (dir_ / "s.csv").string()},
                                    dir_);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;  // one line
    EXPECT_NE(o.err.find("key 'run.devices' = 0: the CPU backend runs on the host"), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
    EXPECT_FALSE(fs::exists(dir_ / "s.csv"));
}

#if defined(STOKESIAN_HAVE_CUDA)
// The fused engine runs N <= 65 536 (cuda::fused_max_particles): a list of sizes it cannot run is
// said before the device is asked for and anything timed or written, on any host.
TEST_F(BenchCli, SizesTheFusedEngineCannotRunAreRefusedBeforeAnythingIsTimed) {
    const bench_outcome o = run_cli({"bench", "fcc", "--backend", "cuda", "--hi-kernel", "fused", "--sizes-cells", "26",
                                     "--csv", (dir_ / "f.csv").string()},
                                    dir_);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;  // one line
    EXPECT_NE(o.err.find("nothing to time: every size is refused (cuda fused at N = 70304: the fused engine runs at "
                         "most 65536 particles, not 70304)"),
              std::string::npos)
        << o.err;
    EXPECT_TRUE(fs::is_empty(dir_)) << "nothing may be written";
}
#endif

// bench fcc --devices (engine/docs/multi-gpu.md; the spelling and messages of run --devices,
// core/device_selection.hpp): what is wrong with the list, or with asking the
// CPU for devices, is one line and exit code 2 before anything is timed, on any host.
TEST_F(BenchCli, ADeviceListThatCannotBeTimedIsOneLineOfBadInput) {
    for (const auto& [args, expected] : std::vector<std::pair<std::vector<std::string>, std::string>> {
             {{"--backend", "cuda", "--devices", "0,x"}, "'x' is not a whole number"},
                 {{"--backend", "cuda", "--devices", ""}, "expected device ordinals"},
                 {{"--backend", "cpu", "--devices", "0"}, "the CPU has no devices"},
                 {{"--backend", "cuda", "--devices", "0", "--write-velocities", (dir_ / "v.h5").string()},
                  "not available with --devices"},
#if defined(STOKESIAN_HAVE_CUDA)
                 {{"--backend", "cuda", "--devices", "0", "--hi-kernel", "tiling,fused"},
                  "has no phases for the scaling"},
                 {{"--backend", "cuda", "--devices", "0,1000"}, " is not present ("}
#else
             {{"--backend", "cuda", "--devices", "0,1000"}, "this build has no CUDA backend"}
#endif
         }) {
        std::vector<std::string> command{"bench", "fcc", "--sizes-cells", "2"};
        command.insert(command.end(), args.begin(), args.end());
        const bench_outcome o = run_cli(command, dir_);
        EXPECT_EQ(o.exit_code, 2) << o.err;
        EXPECT_NE(o.err.find(expected), std::string::npos) << o.err;
        EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;  // one line
        EXPECT_FALSE(fs::exists(dir_ / "v.h5"));
    }
}
