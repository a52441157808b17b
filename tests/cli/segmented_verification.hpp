#pragma once
// The segmented-verification bodies (stokesian/run/segments.hpp,
// engine/docs/segmented-verification.md), one per behaviour, on every backend whose segments run as
// one batch: the CPU in the quick label (quick_segmented_verification_test.cpp), CUDA's fused batch
// in the gpu label (segmented_verification_gpu_test.cpp). A run whose boundary states are known,
// verified in segments, writes the continuous run's result bit for bit (every frame, observable,
// analysis result, the final state); a tampered boundary, a perturbed engine or another precision
// mode is caught in the segment it breaks and nothing is written.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include "stokesian/io/h5md.hpp"
#include "stokesian/run/segments.hpp"
#include "support/backend_modes.hpp"
#include "support/batched_run_support.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"

namespace segmented_verification {

using namespace stokesian;
using namespace stokesian::test_support;
namespace fs = std::filesystem;

// Every registered backend at `place` whose batches run what its runs run alone (segments run as
// one batch), in the mode the tests use.
inline std::vector<backend_mode> batching_backends(backend_place place) {
    std::vector<backend_mode> list;
    for (const backend_mode& p : registered_backend_modes(place))
        if (p.mode == parse_precision_mode("hi=f64,int=f64") &&
            backends::backend_registry().find(p.backend)->can.batches_runs)
            list.push_back(p);
    return list;
}

inline run_request capturing(const scenario& s, const fs::path& out) {
    run_request r = run_into(s, out);
    r.boundary_steps = segment_boundaries(s.run.total_steps(), s.run.sample_interval_steps(), s.particles.size());
    return r;
}

class SegmentedVerification : public scratch_directory_test, public testing::WithParamInterface<backend_mode> {
protected:
    SegmentedVerification() : scratch_directory_test("stokesian_segmented") {}

    void SetUp() override {
        scratch_directory_test::SetUp();
        engine_config config;
        config.backend = GetParam().backend;
        config.precision = GetParam().mode;
        config.hi_kernel = batch_kernel();
        if (const std::string why = skip_reason(config, 4); !why.empty()) GTEST_SKIP() << why;
    }

    // The kernel the backend's batches run ("": any).
    std::string batch_kernel() const { return backends::backend_registry().find(GetParam().backend)->can.batch_kernel; }

    // 200 000 steps of the f64 tetrahedron on the parameter's backend (on the kernel its batches
    // run), a trajectory frame every 100 steps: 20 segments.
    scenario segmented_tetrahedron() const {
        scenario s = tetrahedron_run(GetParam().backend, GetParam().mode, 0.01, 2000.0, 1.0, true);
        if (!batch_kernel().empty()) s.run.hi_kernel = batch_kernel();
        return s;
    }

    // The continuous run, its boundary states read back from its result.
    boundary_states continuous(const fs::path& out) {
        const run_result r = run_scenario(capturing(segmented_tetrahedron(), out));
        EXPECT_EQ(r.status, "completed");
        return read_boundary_states(io::h5md_file(out), out.string());
    }
};

TEST_P(SegmentedVerification, ASegmentedRunWritesTheContinuousRunsResultBitForBit) {
    const boundary_states b = continuous(dir_ / "continuous.h5");
    ASSERT_EQ(b.steps.size(), 20u);
    EXPECT_EQ(b.steps.back(), segmented_tetrahedron().run.total_steps());
    const segmented_outcome s = run_segmented(run_into(segmented_tetrahedron(), dir_ / "segmented.h5"), b, 4);
    ASSERT_TRUE(s.result) << s.failure;
    EXPECT_EQ(s.segments, 20u);
    EXPECT_EQ(s.result->status, "completed");
    const run_result again = run_scenario(run_into(segmented_tetrahedron(), dir_ / "plain.h5"));
    EXPECT_EQ(s.result->final_state_digest, again.final_state_digest);
    // Frames, observables, analysis results and the boundary states themselves.
    EXPECT_EQ(test_support::first_difference((dir_ / "continuous.h5").string(), (dir_ / "segmented.h5").string()), "");
    EXPECT_EQ(io::h5md_file(dir_ / "segmented.h5").string_attribute("/parameters/invocation", "verification"),
              "verified in 20 segments");
}

TEST_P(SegmentedVerification, ATamperedBoundaryFailsTheSegmentEndingThereAndNothingIsWritten) {
    const boundary_states b = continuous(dir_ / "continuous.h5");
    for (const bool digest_too : {true, false}) {
        boundary_states tampered = b;
        std::vector<double>& w = tampered.words[3];
        w[2] = std::nextafter(w[2], 1e300);  // the first particle's x, one ulp
        if (digest_too) tampered.digests[3] = boundary_digest(tampered.steps[3], w);
        const fs::path out = dir_ / "tampered.h5";
        const segmented_outcome s = run_segmented(run_into(segmented_tetrahedron(), out), tampered, 4);
        EXPECT_FALSE(s.result);
        const std::string range = "segment 4 of 20 (steps " + std::to_string(b.steps[2]) + " to " +
                                  std::to_string(b.steps[3]) + ") did not end bit for bit at its boundary";
        EXPECT_NE(s.failure.find(range), std::string::npos) << s.failure;
        EXPECT_NE(s.failure.find(digest_too ? "differs from the stored boundary state" : "its stored digest"),
                  std::string::npos)
            << s.failure;
        EXPECT_FALSE(fs::exists(out));
        EXPECT_FALSE(fs::exists(fs::path(out) += ".partial"));
    }
}

TEST_P(SegmentedVerification, APerturbedEngineFailsTheFirstSegmentAndAnotherModeDoesNotFit) {
    const boundary_states b = continuous(dir_ / "continuous.h5");
    scenario perturbed = segmented_tetrahedron();
    perturbed.system.radius *= 1.0 + 1e-15;
    const segmented_outcome s = run_segmented(run_into(perturbed, dir_ / "perturbed.h5"), b, 4);
    EXPECT_FALSE(s.result);
    EXPECT_EQ(s.failure.rfind("segment 1 of 20 (steps 0 to ", 0), 0u) << s.failure;
    scenario other_mode = segmented_tetrahedron();
    other_mode.run.precision = parse_precision_mode("hi=f32,int=f32");
    const segmented_outcome m = run_segmented(run_into(other_mode, dir_ / "f32.h5"), b, 4);
    EXPECT_FALSE(m.result);
    EXPECT_NE(m.failure.find("states of hi=f64,int=f64, the run computes hi=f32,int=f32"), std::string::npos)
        << m.failure;
}

}  // namespace segmented_verification
