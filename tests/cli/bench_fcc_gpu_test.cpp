// `bench fcc` with the fused engine beside a step-by-step kernel on a device (issue #32, item 3):
// the fused rows give the whole step and no phases, a size the fused engine does not run is said
// before the first timing and left out, the other kernel's rows are unaffected. Skips without a
// device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/cli_process.hpp"
#include "support/csv_fields.hpp"
#include "support/require_device.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli_at_most;

namespace {

class BenchFccGpu : public stokesian::test_support::scratch_directory_test {
protected:
    BenchFccGpu() : scratch_directory_test("stokesian_bench_fcc_gpu") {}
};

}  // namespace

TEST_F(BenchFccGpu, TheFusedEngineIsTimedByWholeStepsBesideTheStepByStepKernels) {
    REQUIRE_DEVICE();
    const fs::path csv = dir_ / "fcc.csv";
    // N = 32, 108 and 70 304: the fused engine runs the first two (N <= 65 536).
    const cli_outcome o = run_cli_at_most(
        300, {"bench",       "fcc",  "--backend",     "cuda",      "--hi-kernel",   "ordered-split,fused",
              "--boundary",  "open", "--lubrication", "off",       "--sizes-cells", "2,3,26",
              "--precision", "f32",  "--steps",       "4",         "--min-steps",   "2",
              "--warmup",    "1",    "--csv",         csv.string()},
        dir_);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("not timed: cuda fused at N = 70304: the fused engine runs at most 65536 particles"),
              std::string::npos)
        << o.out;
    EXPECT_LT(o.out.find("not timed:"), o.out.find("step ms")) << "said before the first timing: " << o.out;
    std::ifstream file(csv);
    const auto rows = stokesian::test_support::csv_records(file);
    ASSERT_EQ(rows.size(), 5u);  // ordered-split at three sizes, fused at two
    std::map<std::string, int> per_kernel;
    for (const auto& r : rows) {
        ++per_kernel[r.at("kernel")];
        const double step = std::stod(r.at("step_median_ms")), hi = std::stod(r.at("hi_median_ms"));
        const double whole = std::stod(r.at("whole_step_median_ms"));
        EXPECT_GT(step, 0.0);
        EXPECT_LE(std::stod(r.at("step_min_ms")), step);
        EXPECT_GT(whole, 0.0);
        EXPECT_LE(std::stod(r.at("whole_step_min_ms")), whole);
        EXPECT_LE(whole, std::stod(r.at("whole_step_max_ms")));
        if (r.at("kernel") == "fused") {
            EXPECT_EQ(whole, step) << "no phase timer: the whole step is the step";
            EXPECT_NE(r.at("particles"), "70304");
            EXPECT_TRUE(std::isnan(hi)) << "no phases: " << r.at("hi_median_ms");
            EXPECT_TRUE(std::isnan(std::stod(r.at("hi_gpairs_per_second"))));
        } else {
            EXPECT_GT(hi, 0.0);
            EXPECT_LE(hi, step);
        }
    }
    EXPECT_EQ(per_kernel["ordered-split"], 3);
    EXPECT_EQ(per_kernel["fused"], 2);
}
