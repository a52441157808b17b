// Batched runs (stokesian/run/batched_runs.hpp) on the host backends (label quick): the conformance
// bodies of batched_runs_conformance.hpp (members end bit for bit as alone, a stopped member
// resumes bit for bit) on every host backend that batches runs, in three modes (the device
// backends: batched_runs_gpu_test.cpp); `suite run --batch on|off` batches the nightly's tetrahedra
// of one mode and each checks exactly against the scale-0.01 references; a bad --batch or [suite]
// batch is bad input.
#include <gtest/gtest.h>

#include <fstream>

#include "batched_runs_conformance.hpp"
#include "regression_suite_support.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"

using namespace regression_suite;
using namespace stokesian;

namespace {

// The modes of the conformance bodies here: f32, a mixed mode and f64 (a host batch runs each mode's
// engine as alone; all nine on the devices).
constexpr precision_mode host_batch_modes[] = {
    {precision::f32, precision::f32}, {precision::ds, precision::f32}, {precision::f64, precision::f64}};

}  // namespace

INSTANTIATE_TEST_SUITE_P(OnTheHost, BatchedRunConformance,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host), host_batch_modes)),
                         backend_mode_name);

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
