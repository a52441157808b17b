// `suite run --gpus` on a GPU host (label gpu; skips without a device): the nightly shortened
// (--scale 0.01: tetrahedra in several modes on the fused path, the fcc runs step by step) placed
// over every device (--gpus all) ends bit for bit where the same runs on device 0 alone end (every
// final state digest and every observable's value), and each output records the device it ran on.
// A device that is not present is bad input. With one device both runs go to device 0: the test
// still checks the option and the recording; on a host with several it checks the placement.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cli/regression_suite_support.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;

namespace {

class SuiteGpus : public stokesian::test_support::scratch_directory_test {
protected:
    SuiteGpus() : scratch_directory_test("stokesian_suite_gpus") {}

    outcome run_on(const std::string& gpus, const fs::path& out) const {
        return run_cli({"suite", "run", nightly_manifest.string(), "--backend", "cuda", "--scale", "0.01", "--only",
                        "tetrahedron_*_dt0.01,fcc_sedimentation_f32-f32,fcc_sedimentation_f64-f64", "--gpus", gpus,
                        "--output-dir", out.string()},
                       dir_);
    }
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

TEST_F(SuiteGpus, EveryDeviceGivesTheBitsOfDeviceZero) {
    if (!stokesian::regression::device_backend_available()) GTEST_SKIP() << "no CUDA device here";
    const outcome one = run_on("0", dir_ / "one");
    ASSERT_EQ(one.exit_code, 0) << one.out << one.err;
    const outcome all = run_on("all", dir_ / "all");
    ASSERT_EQ(all.exit_code, 0) << all.out << all.err;
    const auto files = results_in(dir_ / "one");
    ASSERT_EQ(files.size(), 7u);
    for (const std::string& f : files) {
        const fs::path name = fs::path(f).filename();
        const auto a = stokesian::regression::read_observed_run(f);
        const auto b = stokesian::regression::read_observed_run(dir_ / "all" / name);
        EXPECT_EQ(a.final_state_digest, b.final_state_digest) << name;
        ASSERT_EQ(a.observables.size(), b.observables.size()) << name;
        for (const auto& [key, value] : a.observables) {
            ASSERT_TRUE(b.observables.count(key)) << name << " " << key;
            EXPECT_TRUE(same_bits(value.values, b.observables.at(key).values)) << name << " " << key;
        }
    }
    // Each finished line names the device its run was placed on.
    EXPECT_NE(one.out.find(" cuda gpu 0 "), std::string::npos) << one.out;
    EXPECT_NE(all.out.find(" cuda gpu "), std::string::npos) << all.out;
    const std::string summary = read_text(dir_ / "all/suite-summary.json");
    EXPECT_NE(summary.find("\"devices\":\""), std::string::npos) << summary;
    // A device that is not here: one line, exit 2, nothing written.
    const outcome missing = run_on("64", dir_ / "missing");
    EXPECT_EQ(missing.exit_code, 2) << missing.out << missing.err;
    EXPECT_NE(missing.err.find("--gpus"), std::string::npos) << missing.err;
    EXPECT_FALSE(fs::exists(dir_ / "missing/suite-summary.json"));
}
