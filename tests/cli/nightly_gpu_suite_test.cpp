// The full nightly suite on the GPU (labels nightly and gpu; ~15 s on one H200, runs side by side on
// per-thread streams, the tetrahedra verified in segments) against reference_data/: the gpu entries
// where the lead recorded them, else the cpu entries, which the IEEE CUDA build reproduces bit for bit
// without short-range forces (reference_check.cpp says so in the table). Skipped with a message where
// there is no device. ci/gpu-nightly is the same with a report; this test is what `ctest -L nightly` runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "regression_suite_support.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;

namespace {

#define REQUIRE_DEVICE()                                    \
    if (!stokesian::regression::device_backend_available()) \
    GTEST_SKIP() << "no CUDA device: the GPU nightly suite is skipped"

// The runs of a check document verified in `segments` segments (their own provenance, not their
// reference's).
std::size_t verified_in(const std::string& check_json, std::size_t segments) {
    std::size_t n = 0;
    for (const auto& run : nlohmann::json::parse(check_json).at("runs"))
        n += run.at("provenance").value("verification", "") == "verified in " + std::to_string(segments) + " segments";
    return n;
}

class NightlyGpuSuite : public stokesian::test_support::scratch_directory_test {
protected:
    NightlyGpuSuite() : scratch_directory_test("stokesian_nightly_gpu") {}
};

}  // namespace

TEST_F(NightlyGpuSuite, FullNightlySuiteOnTheGpuPassesAgainstTheReferences) {
    REQUIRE_DEVICE();
    std::string json;
    const fs::path refs = source_dir / "reference_data";
    const outcome o =
        run_and_check(nightly_manifest, dir_, {"--backend", "cuda", "--reference-dir", refs.string()}, refs, json);
    EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
    // Every tetrahedron of the nightly (5 modes x 2 time steps) verified in its reference's 256 segments.
    EXPECT_EQ(verified_in(json, 256), 10u) << json;
    // The three Ewald runs (tensor rpy-ewald, the exact kernel "tiling": the fused engine refuses
    // block tensors) have only cpu entries; the IEEE build computes them bit for bit as the CPU
    // (RpyEwaldCpuOrderKernels), so each is checked against the cpu entry and its final state is the
    // reference run's. (The paper-fast build has no entry for them: missing, recorded by ci/gpu-nightly.)
    for (const char* run : {"tetrahedron_ewald_f64-f64", "tetrahedron_ewald_ds-ds", "tetrahedron_ewald_f32-f32"})
        EXPECT_NE(o.out.find(std::string("# ") + run + ": final state bit for bit the reference run's"),
                  std::string::npos)
            << run << "\n"
            << o.out;
}

TEST_F(NightlyGpuSuite, NegativeControlOnTheGpuIsRejected) {
    REQUIRE_DEVICE();
    std::string json;
    const fs::path refs = source_dir / "reference_data";
    const outcome o =
        run_and_check(negative_manifest, dir_, {"--backend", "cuda", "--reference-dir", refs.string()}, refs, json);
    ASSERT_EQ(o.exit_code, 1) << o.out << o.err;
    // Verified in segments too (engine/docs/segmented-verification.md, "The negative control"), and rejected.
    EXPECT_EQ(verified_in(json, 256), 5u) << json;
    const auto failed = failures_in_table(o.out);
    for (const char* run : {"tetrahedron_f64-f64_dt0.01", "tetrahedron_ds-f32_dt0.01", "tetrahedron_ds-ds_dt0.01",
                            "tetrahedron_f32-ds_dt0.01"})
        EXPECT_TRUE(failed.count(run)) << run << " was not rejected\n" << o.out;
    EXPECT_FALSE(failed.count("tetrahedron_f32-f32_dt0.01")) << "the unperturbed control failed\n" << o.out;
}
