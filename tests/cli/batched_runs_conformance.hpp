#pragma once
// Batched runs (stokesian/run/batched_runs.hpp) on every registered backend that batches runs
// (capabilities::batches_runs), in the precision modes the instantiation names: one body per behaviour,
// parametrised over (backend x precision mode) (support/backend_modes.hpp). Included by
// quick_batched_runs_test.cpp (the host backends: the CPU batch, label quick) and
// batched_runs_gpu_test.cpp (the device backends: the fused CUDA batch, label gpu), which
// instantiate the suite. Runs of one precision mode with different dt, lengths, sampling and
// trajectories, advanced as one batch, end bit for bit as each alone -- every trajectory frame,
// observable and analysis result, and the final state -- with their provenance naming the batch; a
// run stopped inside a batch resumes bit for bit, alone or in another batch.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/batched_runs.hpp"
#include "support/backend_modes.hpp"
#include "support/batched_run_support.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"

class BatchedRunConformance : public stokesian::test_support::scratch_directory_test,
                              public testing::WithParamInterface<stokesian::test_support::backend_mode> {
protected:
    BatchedRunConformance() : scratch_directory_test("stokesian_batched_run_conformance") {}

    // The tetrahedron on the parameter's backend and mode, on the kernel its batches run
    // (capabilities::batch_kernel; none named: the backend's default).
    stokesian::scenario tetrahedron(double dt, double time, double sample_every, bool trajectory) const {
        stokesian::scenario s = stokesian::test_support::tetrahedron_run(GetParam().backend, GetParam().mode, dt, time,
                                                                         sample_every, trajectory);
        if (const stokesian::backends::backend* b = stokesian::backends::backend_registry().find(GetParam().backend))
            s.run.hi_kernel = b->can.batch_kernel;
        return s;
    }

    // Three members (the batch's members differ in all that a batch allows): sample intervals of 100,
    // 100 and 125 steps (the batch samples every 25), and 3000, 4000 and 500 steps (the last leaves
    // the batch first, then the first).
    std::vector<stokesian::scenario> members() const {
        std::vector<stokesian::scenario> s{tetrahedron(0.01, 30.0, 1.0, true), tetrahedron(0.005, 20.0, 0.5, true),
                                           tetrahedron(0.02, 10.0, 2.5, false)};
        s[0].run.checkpoint_every = 7.0;  // checkpoints inside the batch, off the sample steps
        return s;
    }

    // Why the parameter's backend cannot batch the members here; empty when it can.
    std::string batch_skip_reason() const {
        const stokesian::scenario s = tetrahedron(0.01, 1.0, 1.0, false);
        const stokesian::engine_config c = stokesian::make_engine_config(s);
        if (std::string why = stokesian::test_support::skip_reason(c, s.particles.size()); !why.empty()) return why;
        const stokesian::backends::backend* b = stokesian::backends::backend_registry().find(c.backend);
        return b->can.batches_runs ? "" : b->title + " batches no runs";
    }
};

TEST_P(BatchedRunConformance, EveryMemberEndsBitForBitAsAloneAndItsProvenanceNamesTheBatch) {
    using namespace stokesian;
    using test_support::result_of;
    using test_support::run_into;
    if (const std::string why = batch_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    const std::vector<scenario> runs = members();
    std::vector<run_request> batched, alone;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        batched.push_back(run_into(runs[k], dir_ / ("batched" + std::to_string(k) + ".h5")));
        alone.push_back(run_into(runs[k], dir_ / ("alone" + std::to_string(k) + ".h5")));
    }
    ASSERT_FALSE(batch_key(batched[0]).empty());
    for (const auto& r : batched) EXPECT_EQ(batch_key(r), batch_key(batched[0]));
    std::vector<const run_request*> pointers;
    pointers.reserve(batched.size());
    for (const auto& r : batched) pointers.push_back(&r);
    std::vector<std::size_t> ended;
    const std::vector<batched_outcome> outcomes = run_batched(
        pointers, {"batch-1", {"a", "b", "c"}}, [&](std::size_t k, const batched_outcome&) { ended.push_back(k); });
    ASSERT_EQ(outcomes.size(), 3u);
    EXPECT_EQ(ended, (std::vector<std::size_t>{2, 0, 1}));  // each as soon as it has ended, the shortest first
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const run_result& b = result_of(outcomes[k]);
        const run_result a = run_scenario(alone[k]);
        EXPECT_EQ(b.status, "completed") << k;
        EXPECT_EQ(b.steps, a.steps) << k;
        EXPECT_EQ(b.final_state_digest, a.final_state_digest) << k;
        EXPECT_EQ(test_support::first_difference(a.output.string(), b.output.string()), "") << k;
        EXPECT_EQ(b.engine.at("batch_id"), "batch-1") << k;
        EXPECT_EQ(b.engine.at("hi_kernel"), a.engine.at("hi_kernel")) << k;
        const regression::observed_run o = regression::read_observed_run(b.output);
        EXPECT_EQ(o.provenance.at("batch_id"), "batch-1") << k;
        EXPECT_EQ(o.provenance.at("batch_members"), "a,b,c") << k;
        EXPECT_EQ(o.provenance.at("batch_member"), std::to_string(k)) << k;
        EXPECT_EQ(regression::read_observed_run(a.output).provenance.count("batch_id"), 0u) << k;
    }
    // Different physics or precision: another key.
    scenario other = runs[0];
    other.run.precision = other.run.precision == reference_precision_mode
                              ? precision_mode{precision::f32, precision::f32}
                              : reference_precision_mode;
    EXPECT_NE(batch_key(run_into(other, dir_ / "x.h5")), batch_key(batched[0]));
    other = runs[0];
    other.system.radius *= 1.0 + 1e-15;
    EXPECT_NE(batch_key(run_into(other, dir_ / "x.h5")), batch_key(batched[0]));
}

TEST_P(BatchedRunConformance, AMemberStoppedInsideABatchResumesBitForBitAloneOrInAnotherBatch) {
    using namespace stokesian;
    using test_support::result_of;
    using test_support::run_into;
    if (const std::string why = batch_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    const std::vector<scenario> runs = members();
    // Uninterrupted, alone.
    const run_result whole = run_scenario(run_into(runs[1], dir_ / "whole.h5"));
    for (const bool resume_batched : {false, true}) {
        const std::filesystem::path out = dir_ / (resume_batched ? "in_batch.h5" : "alone.h5");
        // Stopped at step 1234 (off the sample steps) inside a batch with the two others.
        std::vector<run_request> first{run_into(runs[0], dir_ / "a.h5"), run_into(runs[1], out),
                                       run_into(runs[2], dir_ / "c.h5")};
        first[1].stop_after_step = 1234;
        const std::vector<batched_outcome> stopped =
            run_batched({&first[0], &first[1], &first[2]}, {"batch-1", {"a", "b", "c"}});
        const run_result& s = result_of(stopped[1]);
        ASSERT_TRUE(s.resumable) << s.status;
        ASSERT_EQ(s.checkpoint_step, 1234u);
        EXPECT_EQ(result_of(stopped[0]).status, "completed");  // the others go on without it
        run_result resumed;
        run_request again = run_into(runs[1], out);
        again.output.force = false;
        again.resume = true;
        if (resume_batched) {
            // With a fresh run of another length: the batch's members stand at different steps.
            run_request fresh = run_into(runs[0], dir_ / "fresh.h5");
            resumed = result_of(run_batched({&again, &fresh}, {"batch-2", {"b", "fresh"}})[0]);
        } else {
            resumed = run_scenario(again);
        }
        EXPECT_EQ(resumed.status, "completed");
        EXPECT_EQ(resumed.resumed_from_step, 1234u);
        EXPECT_EQ(resumed.final_state_digest, whole.final_state_digest) << resume_batched;
        EXPECT_EQ(test_support::first_difference(whole.output.string(), out.string()), "") << resume_batched;
    }
}
