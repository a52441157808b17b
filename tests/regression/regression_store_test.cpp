// The reference store (reference_store.hpp, reference_recorder.hpp, reference_check.hpp): round trip
// of every field, atomic replacement, no silent overwrite, old and new values with --force, and a
// one-line input_error for every damaged file; a missing entry is a failed check, not an error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "inputs/hdf5/hdf5_derivations.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/regression/check_rules.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/reference_check.hpp"
#include "stokesian/regression/reference_recorder.hpp"

using namespace stokesian;
using namespace stokesian::regression;
namespace fs = std::filesystem;

namespace {

class ReferenceStore : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device seed;
        dir_ = fs::temp_directory_path() /
               ("stokesian_store_" + std::to_string(::getpid()) + "_" + std::to_string(seed()));
        fs::create_directories(dir_);
        rules_ = parse_check_rules(R"(
[[rule]]
scenario = "tetrahedron"
observable = "cycle.window_period"
kind = "relative"
tolerance = 1e-4
before_loss = true
measured_spread = "test"
derivation = "a test rule for the window periods"
[[rule]]
scenario = "tetrahedron"
observable = "cycle.period_drift"
kind = "ci_overlap"
tolerance = 0
derivation = "a test rule for the drift"
[[rule]]
scenario = "tetrahedron"
observable = "cycle.lost_periodicity_time"
kind = "expected_failure_window"
window = [256000, 296000]
derivation = "a test rule for the loss"
)",
                                   "checks.toml");
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    static observed_run run(const std::string& precision, double drift, double loss) {
        observed_run r;
        r.file = "/results/" + precision + ".h5";
        r.name = "tetrahedron_" + precision;
        r.key = {"tetrahedron", "", precision, 0.01, "euler", "cpu"};
        r.planned_steps = r.steps = 51700000;
        r.sample_interval_steps = 100;
        r.status = "completed";
        r.final_state_digest = "0123456789abcdef";
        r.scenario_fingerprint = "fedcba9876543210";
        r.provenance = {{"git_commit", "abc"},
                        {"date", "2026-11-26T00:00:00Z"},
                        {"host", "h"},
                        {"command", "stokesian suite run"},
                        {"device_name", "CPU"},
                        {"scenario_fingerprint", r.scenario_fingerprint},
                        {"final_state_digest", r.final_state_digest},
                        {"digest_algorithm", "fnv1a64"}};
        observed_value windows;
        windows.scalar = false;
        windows.values = {517.4, 521.9, 526.5};
        windows.coordinate = {1e4, 2e4, 3e4};
        windows.window_length = 1e4;
        windows.unit = "tau_s";
        r.observables["cycle.window_period"] = windows;
        observed_value d;
        d.values = {drift};
        d.ci95_half_width = 0.0044;
        r.observables["cycle.period_drift"] = d;
        observed_value l;
        l.values = {loss};
        r.observables["cycle.lost_periodicity_time"] = l;
        observed_value unchecked;  // no rule: not recorded
        unchecked.values = {1.0};
        r.observables["cycle.windows"] = unchecked;
        return r;
    }

    record_request request(std::vector<observed_run> runs, bool force = false) const {
        return {std::move(runs), dir_ / "tetrahedron.h5", rules_, force, "stokesian reference record"};
    }

    fs::path dir_;
    check_rules rules_;
};

std::string input_error_of(const fs::path& path) {
    try {
        read_reference_file(path);
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_F(ReferenceStore, RoundTripKeepsValuesRulesAndProvenance) {
    observed_run short_ds = run("hi=ds,int=ds", 0.4158, not_a_number);
    short_ds.planned_steps = short_ds.steps = 517000;  // ends before the window: no failure expected
    record_references(request({short_ds, run("hi=f64,int=f64", 0.3149, 276138.85)}));
    const reference_set set = read_reference_file(dir_ / "tetrahedron.h5");
    EXPECT_EQ(set.scenario, "tetrahedron");
    ASSERT_EQ(set.entries.size(), 2u);
    const reference_entry& e = set.entries.at("/hi=f64,int=f64/dt=0.01/euler/cpu");
    EXPECT_EQ(e.planned_steps, 51700000u);
    EXPECT_EQ(e.sample_interval_steps, 100u);
    EXPECT_EQ(e.attributes.at("git_commit"), "abc");
    EXPECT_FALSE(e.attributes.at("recorded_at").empty());
    ASSERT_EQ(e.observables.size(), 3u);  // cycle.windows has no rule
    const reference_value& w = e.observables.at("cycle.window_period");
    EXPECT_EQ(w.value.values, (std::vector<double>{517.4, 521.9, 526.5}));
    EXPECT_EQ(w.value.coordinate, (std::vector<double>{1e4, 2e4, 3e4}));
    EXPECT_FALSE(w.value.scalar);
    EXPECT_TRUE(w.rule.before_loss);
    EXPECT_EQ(w.rule.kind, tolerance_kind::relative);
    EXPECT_EQ(w.rule.tolerance, 1e-4);
    EXPECT_EQ(w.rule.id, "tetrahedron/cycle.window_period#1");
    EXPECT_EQ(e.observables.at("cycle.period_drift").value.ci95_half_width, 0.0044);
    EXPECT_EQ(e.observables.at("cycle.lost_periodicity_time").value.values[0], 276138.85);
    EXPECT_EQ(e.observables.at("cycle.lost_periodicity_time").rule.window, (std::vector<double>{256000, 296000}));
    EXPECT_TRUE(std::isnan(set.entries.at("/hi=ds,int=ds/dt=0.01/euler/cpu")
                               .observables.at("cycle.lost_periodicity_time")
                               .value.values[0]));
    for (const auto& entry : fs::directory_iterator(dir_))
        EXPECT_EQ(entry.path().filename(), "tetrahedron.h5") << "a temporary file was left behind";
}

TEST_F(ReferenceStore, AnExistingEntryIsReplacedOnlyWithForceAndTheOldValuesAreReported) {
    record_references(request({run("hi=f64,int=f64", 0.3149, 276138.85)}));
    const auto before = fs::last_write_time(dir_ / "tetrahedron.h5");
    EXPECT_THROW(record_references(request({run("hi=f64,int=f64", 0.3160, 278830.0)})), entry_exists_error);
    EXPECT_EQ(fs::last_write_time(dir_ / "tetrahedron.h5"), before);
    const auto replaced = record_references(request({run("hi=f64,int=f64", 0.3160, 278830.0)}, true));
    ASSERT_EQ(replaced.size(), 1u);
    EXPECT_TRUE(replaced[0].replaced);
    bool saw_drift = false;
    for (const auto& o : replaced[0].observables)
        if (o.name == "cycle.period_drift") {
            saw_drift = true;
            ASSERT_TRUE(o.old_value.has_value());
            EXPECT_EQ(o.old_value->value.values[0], 0.3149);
            EXPECT_EQ(o.new_value.value.values[0], 0.3160);
        }
    EXPECT_TRUE(saw_drift);
    EXPECT_EQ(read_reference_file(dir_ / "tetrahedron.h5")
                  .entries.begin()
                  ->second.observables.at("cycle.period_drift")
                  .value.values[0],
              0.3160);
}

TEST_F(ReferenceStore, IncompleteRunsNegativeControlsAndOtherScenariosAreNotRecorded) {
    observed_run interrupted = run("hi=ds,int=ds", 0.4, 260000.0);
    interrupted.status = "interrupted by signal 2 at step 100";
    EXPECT_THROW(record_references(request({interrupted})), input_error);
    observed_run control = run("hi=ds,int=ds", 0.4, 260000.0);
    control.negative_control = "NEGATIVE CONTROL: swapped";
    EXPECT_THROW(record_references(request({control})), input_error);
    observed_run other = run("hi=ds,int=ds", 0.4, 260000.0);
    record_references(request({other}));
    other.key.scenario = "fcc_sedimentation";
    EXPECT_THROW(record_references(request({other})), input_error);
    EXPECT_THROW(record_references(request({run("hi=f32,int=f32", 0.3, 1.0), run("hi=f32,int=f32", 0.3, 1.0)})),
                 input_error);
}

TEST_F(ReferenceStore, DamagedFilesAreOneLineInputErrors) {
    record_references(request({run("hi=ds,int=ds", 0.4158, 260000.0)}));
    const fs::path good = dir_ / "tetrahedron.h5";
    const auto size = fs::file_size(good);
    const fs::path truncated = dir_ / "truncated.h5";
    fs::copy_file(good, truncated);
    fs::resize_file(truncated, size / 2);
    const fs::path text = dir_ / "text.h5";
    std::ofstream(text) << "not HDF5\n";
    for (const fs::path& bad : {truncated, text, dir_ / "missing.h5"}) {
        const std::string message = input_error_of(bad);
        EXPECT_NE(message.find(bad.string()), std::string::npos) << bad << ": " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    // The first object of the first global heap collection (where the string attributes live) made a
    // free-space object of size 0: HDF5 1.10's parser would loop forever on it.
    const fs::path stalled = dir_ / "stalled_heap.h5";
    test_inputs::stalled_global_heap_copy(good, stalled);
    EXPECT_NE(input_error_of(stalled).find("(damaged file)"), std::string::npos) << input_error_of(stalled);
    // An observable whose header claims 2^40 values the file does not store: refused before the 8 TiB
    // it claims are allocated.
    const fs::path claiming = dir_ / "claiming.h5";
    const reference_set recorded = read_reference_file(good);
    ASSERT_EQ(recorded.entries.size(), 1U);
    const std::string drift = recorded.entries.begin()->first + "/cycle.period_drift";
    test_inputs::changed_copy(good, claiming, [&](hid_t f) {
        test_inputs::put_dataset(f, drift.c_str(), H5T_IEEE_F64LE, {hsize_t{1} << 40}, nullptr);
    });
    EXPECT_NE(input_error_of(claiming).find("claims 1099511627776 elements"), std::string::npos)
        << input_error_of(claiming);
    // A valid HDF5 file that is not a reference file (a result, say): another schema.
    const fs::path result = dir_ / "result.h5";
    {
        io::h5md_writer writer({result}, 1, {});
        writer.finish();
    }
    EXPECT_NE(input_error_of(result).find("schema"), std::string::npos) << input_error_of(result);
    // An empty reference file is valid (nothing recorded yet).
    reference_set empty;
    empty.scenario = "tetrahedron";
    write_reference_file(dir_ / "empty.h5", empty);
    EXPECT_EQ(input_error_of(dir_ / "empty.h5"), "");
}

TEST_F(ReferenceStore, CheckPassesWithinToleranceFailsOutsideAndReportsMissingEntries) {
    record_references(request({run("hi=f64,int=f64", 0.3149, 276138.85)}));
    reference_library library(dir_);
    const run_check same = check_run(run("hi=f64,int=f64", 0.3160, 278830.0), library);
    EXPECT_TRUE(same.passed());
    EXPECT_TRUE(same.bitwise_identical);
    const run_check late = check_run(run("hi=f64,int=f64", 0.3160, 300000.0), library);
    EXPECT_FALSE(late.passed());
    observed_run hidden = run("hi=f64,int=f64", 0.3160, not_a_number);
    const run_check c = check_run(hidden, library);
    EXPECT_FALSE(c.passed());
    // Recording a run that lacks the failure its rule expects is refused.
    EXPECT_THROW(record_references(request({run("hi=f32,int=ds", 0.3, not_a_number)})), input_error);
    observed_run longer = run("hi=f64,int=f64", 0.3149, 276138.85);
    longer.planned_steps = longer.steps = 2 * longer.planned_steps;
    EXPECT_FALSE(check_run(longer, library).passed());
    const run_check missing = check_run(run("hi=f32,int=f32", 0.33, 260000.0), library);
    ASSERT_EQ(missing.rows.size(), 1u);
    EXPECT_FALSE(missing.passed());
    EXPECT_EQ(missing.rows[0].observable, "reference entry");
    EXPECT_NE(missing.rows[0].detail.find("stokesian reference record"), std::string::npos);
    // A GPU result of the IEEE build may use the CPU entry (bitwise the same computation) ...
    observed_run gpu = run("hi=f64,int=f64", 0.3149, 276138.85);
    gpu.key.backend_class = "gpu";
    gpu.cuda_fp_profile = "ieee";
    const run_check fallback = check_run(gpu, library);
    EXPECT_TRUE(fallback.passed());
    EXPECT_NE(fallback.note.find("cpu entry"), std::string::npos);
    // ... the paper-fast build, or a scenario with short-range forces, may not.
    gpu.cuda_fp_profile = "paper-fast";
    EXPECT_FALSE(check_run(gpu, library).passed());
    gpu.cuda_fp_profile = "ieee";
    gpu.short_range_forces = true;
    EXPECT_FALSE(check_run(gpu, library).passed());
}

// A reference of another run length (a wrong --reference-dir or --scale) or of another scenario
// configuration does not apply to the run: one row names the cause and no observable is compared
// (every one would differ for that one reason). A negative control changes its scenario on purpose,
// standing for a change of the code (which keeps the fingerprint): its observables are compared.
TEST_F(ReferenceStore, AReferenceOfAnotherLengthOrScenarioIsOneCauseNotAFailurePerObservable) {
    record_references(request({run("hi=f64,int=f64", 0.3149, 276138.85)}));
    reference_library library(dir_);
    observed_run shorter = run("hi=f64,int=f64", 0.3149, 276138.85);
    shorter.planned_steps = shorter.steps = 517000;
    const run_check c = check_run(shorter, library);
    ASSERT_EQ(c.rows.size(), 1u);
    EXPECT_EQ(c.rows[0].observable, "run.length");
    EXPECT_TRUE(c.rows[0].failed());
    EXPECT_EQ(c.rows[0].detail,
              "reference recorded for 517000 tau_s, this run is 5170 tau_s: wrong --reference-dir or --scale?");
    EXPECT_FALSE(c.passed());

    observed_run sampled = run("hi=f64,int=f64", 0.3149, 276138.85);
    sampled.sample_interval_steps = 10;
    const run_check s = check_run(sampled, library);
    ASSERT_EQ(s.rows.size(), 1u);
    EXPECT_NE(s.rows[0].detail.find("reference sampled every 100 steps, this run every 10"), std::string::npos)
        << s.rows[0].detail;

    observed_run other_scenario = run("hi=f64,int=f64", 0.3149, 276138.85);
    other_scenario.scenario_fingerprint = "4444444444444444";
    const run_check o = check_run(other_scenario, library);
    ASSERT_EQ(o.rows.size(), 1u);
    EXPECT_EQ(o.rows[0].observable, "scenario.fingerprint");
    EXPECT_TRUE(o.rows[0].failed());
    EXPECT_NE(o.rows[0].detail.find("another scenario configuration (fingerprint fedcba9876543210, this run "
                                    "4444444444444444)"),
              std::string::npos)
        << o.rows[0].detail;

    observed_run perturbed = other_scenario;
    perturbed.negative_control = "NEGATIVE CONTROL: every step 1% longer";
    perturbed.observables["cycle.period_drift"].values = {0.5};
    const run_check n = check_run(perturbed, library);
    EXPECT_GT(n.rows.size(), 3u);
    EXPECT_FALSE(n.passed());
    std::map<std::string, std::string> verdicts;
    for (const check_row& r : n.rows) verdicts[r.observable] = r.verdict();
    EXPECT_EQ(verdicts["cycle.period_drift"], "fail");
    EXPECT_EQ(verdicts["scenario.fingerprint"], "fail");
}

// Issue #14: a row that compares nothing (no window in either run; a drift neither run could fit) is
// skipped: it neither passes nor fails, and the run passes on the rows that compared something.
TEST_F(ReferenceStore, RowsThatCompareNothingAreSkippedNotPassed) {
    observed_run short_run = run("hi=f64,int=f64", not_a_number, 276138.85);
    short_run.observables["cycle.window_period"].values.clear();
    short_run.observables["cycle.window_period"].coordinate.clear();
    short_run.observables["cycle.period_drift"].ci95_half_width = not_a_number;
    record_references(request({short_run}));
    reference_library library(dir_);
    const run_check c = check_run(short_run, library);
    EXPECT_TRUE(c.passed());
    std::map<std::string, std::string> verdicts;
    for (const check_row& r : c.rows) verdicts[r.observable] = r.verdict();
    EXPECT_EQ(verdicts["cycle.window_period"], "skip");
    EXPECT_EQ(verdicts["cycle.period_drift"], "skip");
    EXPECT_EQ(verdicts["cycle.lost_periodicity_time"], "pass");  // compared: it happened in the window
    EXPECT_EQ(verdicts["run.status"], "pass");
    for (const check_row& r : c.rows)
        if (r.skipped) {
            EXPECT_FALSE(r.passed) << r.observable;
            EXPECT_FALSE(r.failed()) << r.observable;
            EXPECT_NE(r.detail.find("nothing to compare"), std::string::npos) << r.detail;
        }
    // A drift the new run could fit where the reference could not is a difference, not nothing.
    observed_run fitted = short_run;
    fitted.observables["cycle.period_drift"].values = {0.3};
    fitted.observables["cycle.period_drift"].ci95_half_width = 0.01;
    EXPECT_FALSE(check_run(fitted, library).passed());
}

// An entry without its digest tag (recorded under the retired digest basis) cannot be compared: the
// check is one row naming the cause and the way out (exit status 2 in the CLI), never a pass or a
// verdict of bit for bit; re-recorded from a result, the entry carries the tag and checks.
TEST_F(ReferenceStore, AnEntryWithoutItsDigestTagIsOneCauseToReRecord) {
    observed_run untagged = run("hi=f64,int=f64", 0.3149, 276138.85);
    untagged.provenance.erase("digest_algorithm");
    record_references(request({untagged}));
    {
        reference_library library(dir_);
        const run_check c = check_run(run("hi=f64,int=f64", 0.3149, 276138.85), library);
        ASSERT_EQ(c.rows.size(), 1u);
        EXPECT_EQ(c.rows[0].observable, "scenario.fingerprint");
        EXPECT_TRUE(c.rows[0].failed());
        EXPECT_EQ(c.rows[0].detail,
                  "the reference entry has no digest_algorithm: its digests are of no algorithm this stokesian "
                  "verifies; re-record it (ci/record-references)");
        EXPECT_EQ(c.reference_mismatch, c.rows[0].detail);
        EXPECT_FALSE(c.bitwise_identical);
    }
    record_references(request({run("hi=f64,int=f64", 0.3149, 276138.85)}, true));
    reference_library library(dir_);
    const run_check c = check_run(run("hi=f64,int=f64", 0.3149, 276138.85), library);
    EXPECT_TRUE(c.passed());
    EXPECT_TRUE(c.bitwise_identical);
}

// The fingerprint hashes the resolved physics as it is: every key counts, the lubrication scheme and
// its max_iterations under the explicit scheme too (written in every resolved configuration, so a
// change of either is another scenario); [run] is not part of it.
TEST(ReferenceFingerprint, EveryPhysicsKeyCountsAndRunSettingsDoNot) {
    const auto configuration = [](const std::string& lubrication, const std::string& dt) {
        return "[physics]\nradius = 1.0\n[physics.lubrication]\nenabled = true\n" + lubrication +
               "\n[box]\nkind = \"periodic\"\n[run]\ndt = " + dt + "\n";
    };
    const std::string explicit_scheme =
        configuration("min_gap = 1e-06\nscheme = \"explicit\"\nmax_iterations = 1000", "0.01");
    EXPECT_EQ(
        scenario_fingerprint(explicit_scheme),
        scenario_fingerprint(configuration("min_gap = 1e-06\nscheme = \"explicit\"\nmax_iterations = 1000", "0.001")));
    for (const std::string other : {"min_gap = 1e-06\nscheme = \"explicit\"\nmax_iterations = 999",
                                    "min_gap = 1e-06\nscheme = \"implicit\"\nmax_iterations = 1000",
                                    "min_gap = 1e-05\nscheme = \"explicit\"\nmax_iterations = 1000",
                                    "min_gap = 1e-06\nmax_iterations = 1000", "min_gap = 1e-06\nscheme = \"explicit\""})
        EXPECT_NE(scenario_fingerprint(explicit_scheme), scenario_fingerprint(configuration(other, "0.01"))) << other;
    EXPECT_EQ(scenario_fingerprint(explicit_scheme).size(), 16u);
}
