// Batched runs (stokesian/run/batched_runs.hpp) on the device backends (label gpu; skips without a
// device): the conformance bodies of batched_runs_conformance.hpp on every device backend that
// batches runs (the fused CUDA batch), in every mode it runs (the host backends:
// quick_batched_runs_test.cpp); and the nightly's tetrahedra (--scale 0.01), batched by default
// (--batch auto: 5 batches of 2, one per mode), end bit for bit as with --batch off, each naming
// its batch in its provenance.
#include <gtest/gtest.h>

#include "batched_runs_conformance.hpp"
#include "cli/regression_suite_support.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "support/h5md_comparison.hpp"
#include "support/require_device.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;
using namespace stokesian;

INSTANTIATE_TEST_SUITE_P(OnADevice, BatchedRunConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::device)), backend_mode_name);

namespace {

class BatchedRunsGpu : public stokesian::test_support::scratch_directory_test {
protected:
    BatchedRunsGpu() : scratch_directory_test("stokesian_batched_runs_gpu") {}
};

}  // namespace

TEST_F(BatchedRunsGpu, TheNightlysTetrahedraBatchByDefaultAndEndAsUnbatched) {
    REQUIRE_DEVICE();
    // The ten fused tetrahedra (five modes x two dt), not the Ewald ones (tiling: never batched).
    const auto suite = [&](const std::string& batch, const std::string& out) {
        return run_cli({"suite", "run", nightly_manifest.string(), "--backend", "cuda", "--scale", "0.01", "--only",
                        "tetrahedron_f*", "tetrahedron_ds*", "--gpus", "0", "--batch", batch, "--output-dir",
                        (dir_ / out).string()},
                       dir_);
    };
    const outcome on = suite("auto", "auto");
    ASSERT_EQ(on.exit_code, 0) << on.out << on.err;
    EXPECT_NE(on.out.find("(10 of them in 5 batches)"), std::string::npos) << on.out;
    const outcome off = suite("off", "off");
    ASSERT_EQ(off.exit_code, 0) << off.out << off.err;
    const auto files = results_in(dir_ / "auto");
    ASSERT_EQ(files.size(), 10u);
    for (const std::string& f : files) {
        const fs::path name = fs::path(f).filename();
        EXPECT_EQ(test_support::first_difference(f, (dir_ / "off" / name).string()), "") << name;
        const regression::observed_run o = regression::read_observed_run(f);
        EXPECT_EQ(o.final_state_digest, regression::read_observed_run(dir_ / "off" / name).final_state_digest) << name;
        EXPECT_EQ(o.provenance.count("batch_id"), 1u) << name;
        EXPECT_EQ(regression::read_observed_run(dir_ / "off" / name).provenance.count("batch_id"), 0u) << name;
    }
}
