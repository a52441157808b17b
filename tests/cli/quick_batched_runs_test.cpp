// Batched runs (stokesian/run/batched_runs.hpp, issue #16 item 3) on the CPU batch, which runs the
// same code path as the CUDA one (run_batched over a batch_engine; the CUDA batch is tested in
// tests/cli/batched_runs_gpu_test.cpp): runs of one precision mode with different dt, lengths,
// sampling and trajectories, advanced as one batch, end bit for bit as each alone -- every
// trajectory frame, observable and analysis result, and the final state -- with their provenance
// naming the batch; a run stopped inside a batch resumes bit for bit, alone or in another batch;
// `suite run --batch on|off` batches the nightly's tetrahedra of one mode and each checks exactly
// against the scale-0.01 references; a bad --batch or [suite] batch is bad input.
#include <gtest/gtest.h>

#include <fstream>

#include "regression_suite_support.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/batched_runs.hpp"
#include "support/batched_run_support.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;
using namespace stokesian;

namespace {

using test_support::result_of;
using test_support::run_into;

// The tetrahedron on the CPU in f32 (the batch's members differ in all that a batch allows).
scenario f32_tetrahedron(double dt, double time, double sample_every, bool trajectory) {
    return test_support::tetrahedron_run("cpu", parse_precision_mode("hi=f32,int=f32"), dt, time, sample_every,
                                         trajectory);
}

class BatchedRuns : public stokesian::test_support::scratch_directory_test {
protected:
    BatchedRuns() : scratch_directory_test("stokesian_batched_runs") {}

    // Three members: sample intervals of 100, 100 and 125 steps (the batch samples every 25), and
    // 3000, 4000 and 500 steps (the last leaves the batch first, then the first).
    std::vector<scenario> members() const {
        std::vector<scenario> s{f32_tetrahedron(0.01, 30.0, 1.0, true), f32_tetrahedron(0.005, 20.0, 0.5, true),
                                f32_tetrahedron(0.02, 10.0, 2.5, false)};
        s[0].run.checkpoint_every = 7.0;  // checkpoints inside the batch, off the sample steps
        return s;
    }
};

}  // namespace

TEST_F(BatchedRuns, EveryMemberEndsBitForBitAsAloneAndItsProvenanceNamesTheBatch) {
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
        const regression::observed_run o = regression::read_observed_run(b.output);
        EXPECT_EQ(o.provenance.at("batch_id"), "batch-1") << k;
        EXPECT_EQ(o.provenance.at("batch_members"), "a,b,c") << k;
        EXPECT_EQ(o.provenance.at("batch_member"), std::to_string(k)) << k;
        EXPECT_EQ(regression::read_observed_run(a.output).provenance.count("batch_id"), 0u) << k;
    }
    // Different physics or precision: another key.
    scenario other = runs[0];
    other.run.precision = parse_precision_mode("hi=f64,int=f64");
    EXPECT_NE(batch_key(run_into(other, dir_ / "x.h5")), batch_key(batched[0]));
    other = runs[0];
    other.system.radius *= 1.0 + 1e-15;
    EXPECT_NE(batch_key(run_into(other, dir_ / "x.h5")), batch_key(batched[0]));
}

TEST_F(BatchedRuns, AMemberStoppedInsideABatchResumesBitForBitAloneOrInAnotherBatch) {
    const std::vector<scenario> runs = members();
    // Uninterrupted, alone.
    const run_result whole = run_scenario(run_into(runs[1], dir_ / "whole.h5"));
    for (const bool resume_batched : {false, true}) {
        const fs::path out = dir_ / (resume_batched ? "in_batch.h5" : "alone.h5");
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

namespace {

class SuiteBatch : public stokesian::test_support::scratch_directory_test {
protected:
    SuiteBatch() : scratch_directory_test("stokesian_suite_batch") {}

    outcome suite(const std::string& batch, const fs::path& out) const {
        return run_cli(
            {"suite", "run", nightly_manifest.string(), "--backend", "cpu", "--scale", "0.01", "--only",
             "tetrahedron_f32-f32_*,tetrahedron_ds-ds_dt0.01", "--batch", batch, "--output-dir", out.string()},
            dir_);
    }
};

}  // namespace

TEST_F(SuiteBatch, TheNightlysTetrahedraOfOneModeRunAsOneBatchAndCheckExactlyAsAlone) {
    const outcome on = suite("on", dir_ / "on");
    ASSERT_EQ(on.exit_code, 0) << on.out << on.err;
    EXPECT_NE(on.out.find("3 runs, "), std::string::npos) << on.out;
    EXPECT_NE(on.out.find(" at once (2 of them in 1 batch)"), std::string::npos) << on.out;
    const outcome off = suite("off", dir_ / "off");
    ASSERT_EQ(off.exit_code, 0) << off.out << off.err;
    EXPECT_EQ(off.out.find(" batch)"), std::string::npos) << off.out;
    const auto files = results_in(dir_ / "on");
    ASSERT_EQ(files.size(), 3u);
    for (const std::string& f : files) {
        const fs::path name = fs::path(f).filename();
        EXPECT_EQ(test_support::first_difference(f, (dir_ / "off" / name).string()), "") << name;
        const regression::observed_run o = regression::read_observed_run(f);
        EXPECT_EQ(o.final_state_digest, regression::read_observed_run(dir_ / "off" / name).final_state_digest);
        const bool batched = o.name.rfind("tetrahedron_f32-f32_", 0) == 0;
        EXPECT_EQ(o.provenance.count("batch_id"), batched ? 1u : 0u) << name;
    }
    // Each batched run checks bit for bit against the scale-0.01 references, as alone.
    std::vector<std::string> args{"reference", "check"};
    for (const auto& f : files) args.push_back(f);
    args.insert(args.end(), {"--reference-dir", (source_dir / "reference_data/scale-0.01").string()});
    const outcome checked = run_cli(args);
    EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
}

TEST_F(SuiteBatch, ABadBatchModeIsBadInput) {
    const outcome o = suite("sometimes", dir_ / "bad");
    EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("--batch"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "bad"));
    const fs::path manifest = dir_ / "m.toml";
    std::ofstream(manifest) << "[suite]\nname = \"m\"\nbatch = \"maybe\"\n\n[[run]]\nname = \"t\"\nscenario = \""
                            << (source_dir / "scenarios/tetrahedron.toml").string()
                            << "\"\nprecision = \"hi=f64,int=f64\"\ndt = 0.1\ntime = 1.0\n";
    const outcome m = run_cli({"suite", "run", manifest.string(), "--output-dir", (dir_ / "m").string()}, dir_);
    EXPECT_EQ(m.exit_code, 2) << m.out << m.err;
    EXPECT_NE(m.err.find("suite.batch"), std::string::npos) << m.err;
}
