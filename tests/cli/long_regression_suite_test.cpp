// The full nightly suite on the CPU (label long: ~10 min on two idle cores, 20 min loaded) against
// the CPU entries of reference_data/, and its negative control at full length, which must be
// rejected: the expected failures (hi=f64 and hi=f32,int=ds falling apart at dt = 0.01) are part of
// the references, so a swapped mode that hides them fails too.
#include <gtest/gtest.h>

#include "regression_suite_support.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;

namespace {

class LongRegressionSuite : public stokesian::test_support::scratch_directory_test {
protected:
    LongRegressionSuite() : scratch_directory_test("stokesian_long_suite") {}
};

}  // namespace

TEST_F(LongRegressionSuite, FullNightlySuiteOnTheCpuPassesAgainstTheReferences) {
    std::string json;
    const outcome o = run_and_check(nightly_manifest, dir_, {"--backend", "cpu"}, source_dir / "reference_data", json);
    EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_EQ(o.out.find("reference entry"), std::string::npos) << o.out;
}

TEST_F(LongRegressionSuite, FullLengthNegativeControlIsRejected) {
    std::string json;
    const outcome o = run_and_check(negative_manifest, dir_, {"--backend", "cpu"}, source_dir / "reference_data", json);
    ASSERT_EQ(o.exit_code, 1) << o.out << o.err;
    const auto failed = failures_in_table(o.out);
    for (const char* run : {"tetrahedron_f64-f64_dt0.01", "tetrahedron_ds-f32_dt0.01", "tetrahedron_ds-ds_dt0.01"})
        EXPECT_TRUE(failed.count(run)) << run << " was not rejected\n" << o.out;
    // ds accumulation labelled hi=f32,int=ds keeps the cycle where that mode is known to lose it.
    ASSERT_TRUE(failed.count("tetrahedron_f32-ds_dt0.01")) << o.out;
    EXPECT_TRUE(failed.at("tetrahedron_f32-ds_dt0.01").count("cycle.lost_periodicity_time")) << o.out;
    // Double accumulation labelled ds loses the cycle where ds keeps it.
    EXPECT_TRUE(failed.at("tetrahedron_ds-ds_dt0.01").count("cycle.lost_periodicity_time")) << o.out;
    EXPECT_FALSE(failed.count("tetrahedron_f32-f32_dt0.01")) << "the unperturbed control failed\n" << o.out;
}
