// Batched runs on CUDA (label gpu; skips without a device): stokesian/run/batched_runs.hpp over the
// fused CUDA batch. Members of one precision mode with different dt, lengths, sampling and
// trajectories end bit for bit as each alone on the fused engine (every frame, observable and
// analysis result, the final state), in every precision mode; a member stopped inside a batch
// resumes bit for bit inside another; and the nightly's tetrahedra (--scale 0.01), batched by
// default (--batch auto: 5 batches of 2, one per mode), end bit for bit as with --batch off, each
// naming its batch in its provenance. The quick label tests the same on the CPU batch
// (tests/cli/quick_batched_runs_test.cpp).
#include <gtest/gtest.h>

#include "cli/regression_suite_support.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/batched_runs.hpp"
#include "support/batched_run_support.hpp"
#include "support/h5md_comparison.hpp"
#include "support/require_device.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;
using namespace stokesian;

namespace {

using test_support::result_of;
using test_support::run_into;

scenario tetrahedron(precision_mode mode, double dt, double time, double sample_every, bool trajectory) {
    scenario s = test_support::tetrahedron_run("cuda", mode, dt, time, sample_every, trajectory);
    s.run.hi_kernel = "fused";  // the engine a CUDA batch member is
    return s;
}

class BatchedRunsGpu : public stokesian::test_support::scratch_directory_test {
protected:
    BatchedRunsGpu() : scratch_directory_test("stokesian_batched_runs_gpu") {}
};

}  // namespace

TEST_F(BatchedRunsGpu, EveryMemberEndsBitForBitAsAloneInEveryMode) {
    REQUIRE_DEVICE();
    for (const precision_mode mode : precision_modes) {
        const std::string m = to_string(mode);
        // Sample intervals 100, 100, 125 steps (the batch samples every 25); 30 000, 40 000 and
        // 5 000 steps: the last leaves the batch first; checkpoints off the sample steps.
        std::vector<scenario> runs{tetrahedron(mode, 0.01, 300.0, 1.0, true),
                                   tetrahedron(mode, 0.005, 200.0, 0.5, true),
                                   tetrahedron(mode, 0.02, 100.0, 2.5, false)};
        runs[0].run.checkpoint_every = 70.0;
        std::vector<run_request> batched, alone;
        for (std::size_t k = 0; k < runs.size(); ++k) {
            batched.push_back(run_into(runs[k], dir_ / ("batched" + std::to_string(k) + ".h5")));
            alone.push_back(run_into(runs[k], dir_ / ("alone" + std::to_string(k) + ".h5")));
        }
        ASSERT_FALSE(batch_key(batched[0]).empty()) << m;
        const auto outcomes = run_batched({&batched[0], &batched[1], &batched[2]}, {"batch-1", {"a", "b", "c"}});
        for (std::size_t k = 0; k < runs.size(); ++k) {
            const run_result& b = result_of(outcomes[k]);
            const run_result a = run_scenario(alone[k]);
            EXPECT_EQ(b.status, "completed") << m << " " << k;
            EXPECT_EQ(b.final_state_digest, a.final_state_digest) << m << " " << k;
            EXPECT_EQ(test_support::first_difference(a.output.string(), b.output.string()), "") << m << " " << k;
            EXPECT_EQ(b.engine.at("batch_id"), "batch-1") << m;
            EXPECT_EQ(b.engine.at("hi_kernel"), a.engine.at("hi_kernel")) << m;
        }
        // Stopped at step 12 345 inside a batch, resumed inside another: the whole run alone.
        run_request stop = run_into(runs[1], dir_ / "stopped.h5");
        stop.stop_after_step = 12345;
        const run_result s = result_of(run_batched({&batched[0], &stop}, {"batch-2", {"a", "b"}})[1]);
        ASSERT_TRUE(s.resumable) << m << " " << s.status;
        run_request again = run_into(runs[1], dir_ / "stopped.h5");
        again.output.force = false;
        again.resume = true;
        const run_result resumed = result_of(run_batched({&batched[2], &again}, {"batch-3", {"c", "b"}})[1]);
        EXPECT_EQ(resumed.resumed_from_step, 12345u) << m;
        EXPECT_EQ(test_support::first_difference((dir_ / "alone1.h5").string(), (dir_ / "stopped.h5").string()), "")
            << m;
    }
}

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
