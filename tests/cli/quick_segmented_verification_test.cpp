// Segmented verification (stokesian/run/segments.hpp, engine/docs/segmented-verification.md): a
// run whose boundary states are known, verified in parallel segments, writes the result the
// continuous run writes, bit for bit (every frame, observable, analysis result, the final state);
// a tampered boundary, a perturbed engine or another precision mode is caught in the segment it
// breaks and nothing is written; `suite run --reference-dir` verifies the nightly's tetrahedra in
// segments, runs continuously (and names the segment) where a stored boundary was tampered with,
// verifies a negative control only against its own boundaries (recorded with --negative-control)
// or those of the mode it computes, and still rejects it; and after a kill during segmented verification a new
// command completes the run bit for bit.
#include <gtest/gtest.h>

#include <signal.h>

#include <fstream>
#include <thread>

#include "regression_suite_support.hpp"
#include "segmented_verification.hpp"
#include "stokesian/regression/reference_store.hpp"

using namespace regression_suite;
using namespace stokesian;

using namespace segmented_verification;

INSTANTIATE_TEST_SUITE_P(OnTheHost, SegmentedVerification, testing::ValuesIn(batching_backends(backend_place::host)),
                         backend_mode_name);

TEST(SegmentBoundaries, ShortRunsHaveNoBoundariesAndLongOnesAtMostTheLimit) {
    EXPECT_TRUE(segment_boundaries(5600, 2, 4).empty());            // the Ewald tetrahedron
    EXPECT_TRUE(segment_boundaries(100, 1, 4000).empty());          // the fcc lattice
    EXPECT_TRUE(segment_boundaries(1000000, 100, 100000).empty());  // states too large for the budget
    const std::vector<std::uint64_t> steps = segment_boundaries(260000000, 1000, 4);
    ASSERT_EQ(steps.size(), max_segments);
    for (std::size_t k = 0; k + 1 < steps.size(); ++k) EXPECT_EQ(steps[k] % 1000, 0u);
    EXPECT_EQ(steps.back(), 260000000u);
}

namespace {

class SegmentedSuite : public stokesian::test_support::scratch_directory_test {
protected:
    SegmentedSuite() : scratch_directory_test("stokesian_segmented_suite") {}

    static std::vector<std::string> suite_args(const fs::path& out, const fs::path& references) {
        return {"suite",
                "run",
                nightly_manifest.string(),
                "--backend",
                "cpu",
                "--scale",
                "0.01",
                "--only",
                run_name,
                "--output-dir",
                out.string(),
                "--force",
                "--heartbeat",
                "0",
                "--reference-dir",
                references.string()};
    }

    // References of the scaled f64 tetrahedron (dt = 0.01: 51 segments), recorded here with boundaries.
    fs::path recorded_references() {
        const fs::path refs = dir_ / "refs";
        fs::create_directories(refs);
        const outcome first = run_cli(suite_args(dir_ / "first", dir_ / "none_yet"), dir_);
        EXPECT_EQ(first.exit_code, 2) << first.out;  // --reference-dir must name a folder
        fs::create_directories(dir_ / "none_yet");
        const outcome run = run_cli(suite_args(dir_ / "first", dir_ / "none_yet"), dir_);
        EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
        const outcome record = run_cli(
            {"reference", "record", (dir_ / "first" / (std::string(run_name) + ".h5")).string(), "--reference-dir",
             refs.string(), "--checks", (source_dir / "reference_data/checks.toml").string()},
            dir_);
        EXPECT_EQ(record.exit_code, 0) << record.out << record.err;
        EXPECT_NE(record.out.find("stored the states at 51 segment boundaries"), std::string::npos) << record.out;
        return refs;
    }

    // The negative-control manifest, its perturbed runs' segment boundaries in `boundaries`.
    fs::path negative_copy(const fs::path& boundaries) const {
        std::string text = read_text(negative_manifest);
        const std::string folder = negative_manifest.parent_path().string() + "/";
        for (const std::string relative : {"scenario = \"", "segment_references = \""}) {
            for (std::size_t at = text.find(relative); at != std::string::npos; at = text.find(relative, at + 1))
                text.insert(at + relative.size(), folder);
        }
        const std::string store = "segment_references = \"" + folder + "negative/references\"";
        for (std::size_t at = text.find(store); at != std::string::npos; at = text.find(store))
            text.replace(at, store.size(), "segment_references = \"" + boundaries.string() + "\"");
        const fs::path copy = dir_ / ("negative_control-" + boundaries.filename().string() + ".toml");
        std::ofstream(copy) << text;
        return copy;
    }

    static constexpr const char* run_name = "tetrahedron_f64-f64_dt0.01";
};

}  // namespace

TEST_F(SegmentedSuite, VerifiesInSegmentsFallsBackOnATamperedBoundaryAndEqualsTheContinuousRun) {
    const fs::path refs = recorded_references();
    const outcome segmented = run_cli(suite_args(dir_ / "segmented", refs), dir_);
    ASSERT_EQ(segmented.exit_code, 0) << segmented.out << segmented.err;
    EXPECT_NE(segmented.out.find("verified in 51 segments"), std::string::npos) << segmented.out;
    const std::string result = std::string(run_name) + ".h5";
    EXPECT_EQ(
        test_support::first_difference((dir_ / "first" / result).string(), (dir_ / "segmented" / result).string()), "");
    const outcome check =
        run_cli({"reference", "check", (dir_ / "segmented" / result).string(), "--reference-dir", refs.string()}, dir_);
    EXPECT_EQ(check.exit_code, 0) << check.out;
    EXPECT_NE(check.out.find("final state bit for bit the reference run's"), std::string::npos) << check.out;

    // One word of the 5th boundary changed (its digest made to match): segment 5 fails, the run
    // runs continuously, and its result is the same.
    const fs::path file = refs / "tetrahedron.h5";
    regression::reference_set set = regression::read_reference_file(file);
    boundary_states& b = set.entries.begin()->second.boundaries;
    b.words[4][5] = std::nextafter(b.words[4][5], -1e300);
    b.digests[4] = boundary_digest(b.steps[4], b.words[4]);
    regression::write_reference_file(file, set);
    const outcome fallback = run_cli(suite_args(dir_ / "fallback", refs), dir_);
    ASSERT_EQ(fallback.exit_code, 0) << fallback.out << fallback.err;
    const std::string named = "ran continuously: segment 5 of 51 (steps " + std::to_string(b.steps[3]) + " to " +
                              std::to_string(b.steps[4]) + ") did not end bit for bit at its boundary";
    EXPECT_NE(fallback.out.find(named), std::string::npos) << fallback.out;
    EXPECT_EQ(test_support::first_difference((dir_ / "first" / result).string(), (dir_ / "fallback" / result).string()),
              "");
    const std::string recorded = io::h5md_file(dir_ / "fallback" / result)
                                     .string_attribute("/parameters/invocation", "verification")
                                     .value_or("");
    EXPECT_EQ(recorded.rfind(named, 0), 0u) << recorded;
}

TEST_F(SegmentedSuite, ANegativeControlVerifiesOnlyAgainstItsOwnBoundariesAndIsRejected) {
    const fs::path refs = recorded_references();
    const fs::path store = dir_ / "negative-references";
    fs::create_directories(store);
    const std::string result = std::string(run_name) + ".h5";  // the perturbed run: every step 1% longer
    const auto negative_run = [&](const fs::path& boundaries, const std::string& only, const fs::path& out) {
        const outcome o = run_cli(
            {"suite", "run", negative_copy(boundaries).string(), "--backend", "cpu", "--scale", "0.01", "--only", only,
             "--output-dir", out.string(), "--heartbeat", "0", "--reference-dir", refs.string()},
            dir_);
        EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
        return o.out;
    };
    const auto rejected = [&](const fs::path& file) {
        const outcome check = run_cli({"reference", "check", file.string(), "--reference-dir", refs.string()}, dir_);
        return check.exit_code == 1 && check.out.find("NEGATIVE CONTROL") != std::string::npos;
    };
    // Against the unperturbed run's boundaries: segment 1 fails, the run falls back and is rejected.
    const std::string fallback = negative_run(refs, run_name, dir_ / "fallback");
    EXPECT_NE(fallback.find("ran continuously: segment 1 of 51 (steps 0 to "), std::string::npos) << fallback;
    EXPECT_TRUE(rejected(dir_ / "fallback" / result));

    // Its own boundaries are recorded only with --negative-control, and only negative controls are.
    const std::vector<std::string> record = {"reference",
                                             "record",
                                             (dir_ / "fallback" / result).string(),
                                             "--reference-dir",
                                             store.string(),
                                             "--checks",
                                             (source_dir / "reference_data/checks.toml").string()};
    EXPECT_EQ(run_cli(record, dir_).exit_code, 2);
    std::vector<std::string> as_control = record;
    as_control.push_back("--negative-control");
    const outcome recorded = run_cli(as_control, dir_);
    EXPECT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
    EXPECT_NE(recorded.out.find("stored the states at 51 segment boundaries"), std::string::npos) << recorded.out;
    as_control[2] = (dir_ / "first" / result).string();  // the unperturbed run
    EXPECT_EQ(run_cli(as_control, dir_).exit_code, 2);

    // Against them it verifies in segments, writes the continuous run's result and is rejected.
    const std::string own = negative_run(store, run_name, dir_ / "own");
    EXPECT_NE(own.find("verified in 51 segments"), std::string::npos) << own;
    EXPECT_EQ(test_support::first_difference((dir_ / "fallback" / result).string(), (dir_ / "own" / result).string()),
              "");
    EXPECT_TRUE(rejected(dir_ / "own" / result));

    // A relabelled run (f64 labelled ds) verifies against the entry of the mode it computes.
    const std::string relabelled = negative_run(store, "tetrahedron_ds-ds_dt0.01", dir_ / "relabelled");
    EXPECT_NE(relabelled.find("verified in 51 segments"), std::string::npos) << relabelled;
    EXPECT_TRUE(rejected(dir_ / "relabelled" / "tetrahedron_ds-ds_dt0.01.h5"));
}

TEST_F(SegmentedSuite, AKillDuringSegmentedVerificationLeavesNothingAndTheNextCommandCompletesIt) {
    const fs::path refs = recorded_references();
    const std::string result = std::string(run_name) + ".h5";
    for (const double after : {0.05, 0.15, 0.3}) {
        {
            test_support::cli_process child(suite_args(dir_ / "killed", refs), dir_);
            std::this_thread::sleep_for(std::chrono::duration<double>(after));
            child.signal(SIGKILL);
            child.wait();
        }
        const outcome again = run_cli(suite_args(dir_ / "killed", refs), dir_);
        ASSERT_EQ(again.exit_code, 0) << after << again.out << again.err;
        EXPECT_NE(again.out.find("verified in 51 segments"), std::string::npos) << again.out;
        EXPECT_EQ(
            test_support::first_difference((dir_ / "first" / result).string(), (dir_ / "killed" / result).string()), "")
            << after;
        for (const char* suffix : {".partial", ".checkpoint"})
            EXPECT_FALSE(fs::exists(dir_ / "killed" / (result + suffix))) << after;
    }
}
