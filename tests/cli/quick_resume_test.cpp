// Checkpoint and resume through run_scenario(): a run stopped at a step and resumed from its
// checkpoint (once or twice) ends bitwise identical to the uninterrupted run - final state digest,
// every trajectory frame, every observable and analysis result - in all nine precision modes, for
// the tetrahedron (cycle extrema, symmetry residuals) and the approaching pairs (lubrication with
// the previous velocities, pair gap, positive definiteness).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"
#include "support/stoppable_run.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

scenario load(const std::string& name, const std::string& case_name = {}) {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/" + name + ".toml",
                         case_name);
}

// The tetrahedron over about two cycles at dt = 0.1 (extrema, periods and amplitudes are found).
scenario short_tetrahedron(precision_mode mode) {
    scenario s = load("tetrahedron");
    s.run.dt = 0.1;
    s.run.time = 1200.0;
    s.run.sample_every = 1.0;
    s.run.precision = mode;
    return s;
}

scenario pair(const std::string& case_name, precision_mode mode) {
    scenario s = load("approaching_pairs", case_name);
    s.run.precision = mode;
    return s;
}

class Resume : public stokesian::test_support::scratch_directory_test {
protected:
    Resume() : scratch_directory_test("stokesian_resume") {}

    run_result run(const scenario& s, const fs::path& out, std::optional<std::uint64_t> stop = {},
                   bool resume = false) {
        return test_support::stoppable_run(s, out, stop, resume);
    }

    // Uninterrupted against stopped at each of `stops` and resumed after each.
    void expect_resume_is_bitwise(const scenario& s, const std::vector<std::uint64_t>& stops, const std::string& what) {
        const fs::path straight = dir_ / "straight.h5", pieces = dir_ / "pieces.h5";
        fs::remove(straight);
        fs::remove(pieces);
        const run_result expected = run(s, straight);
        ASSERT_EQ(expected.status, "completed") << what;
        run_result r = run(s, pieces, stops.front());
        for (std::size_t k = 0; k < stops.size(); ++k) {
            ASSERT_TRUE(r.resumable) << what << ": " << r.status;
            ASSERT_EQ(r.steps, stops[k]) << what;
            ASSERT_TRUE(fs::exists(pieces)) << "a stopped run closes its file: " << what;
            const std::optional<std::uint64_t> next = k + 1 < stops.size() ? std::optional(stops[k + 1]) : std::nullopt;
            r = run(s, pieces, next, true);
            EXPECT_EQ(r.resumed_from_step, stops[k]) << what;
        }
        ASSERT_EQ(r.status, "completed") << what;
        EXPECT_EQ(r.final_state_digest, expected.final_state_digest) << what;
        EXPECT_EQ(r.steps, expected.steps) << what;
        ASSERT_EQ(r.summary.size(), expected.summary.size()) << what;
        for (const auto& [key, value] : expected.summary) {
            const double other = r.summary.at(key);
            EXPECT_EQ(std::memcmp(&value, &other, sizeof value), 0) << what << ": summary " << key;
        }
        EXPECT_EQ(test_support::first_difference(straight.string(), pieces.string()), "") << what;
        EXPECT_FALSE(fs::exists(io::checkpoint_path_for(pieces))) << "a completed run removes its checkpoint";
        EXPECT_FALSE(fs::exists(fs::path(pieces) += ".partial"));
    }
};

// The resume checks run once per precision mode of the one list (core/precision_modes.hpp).
class ResumeEachMode : public Resume, public testing::WithParamInterface<precision_mode> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(AllModes, ResumeEachMode, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);

TEST_P(ResumeEachMode, TetrahedronResumesBitwise) {
    // Stops between samples (the interrupted file gets an extra frame that the resume cuts off)
    // and on a sample step, the second after the first maximum of x1.
    const precision_mode mode = GetParam();
    expect_resume_is_bitwise(short_tetrahedron(mode), {2345, 7000}, "tetrahedron " + to_string(mode));
}

TEST_P(ResumeEachMode, ApproachingPairsResumeBitwise) {
    // Lubrication takes the previous step's velocities: the checkpoint must carry them. The
    // head-on pair bounces after t ~ 0.68 (step 680), so the stops fall before, inside and after.
    const precision_mode mode = GetParam();
    for (const char* case_name : {"head_on", "oblique"})
        expect_resume_is_bitwise(pair(case_name, mode), {333, 701, 2999},
                                 std::string(case_name) + " " + to_string(mode));
}

TEST_F(Resume, WithoutTrajectoryTheObservablesStillResumeBitwise) {
    scenario s = short_tetrahedron({precision::ds, precision::f32});
    s.run.write_trajectory = false;
    expect_resume_is_bitwise(s, {5001}, "no trajectory");
}

TEST_F(Resume, SimulatedTimeCheckpointsDoNotChangeTheRun) {
    scenario s = pair("head_on", {precision::f64, precision::f64});
    const fs::path plain = dir_ / "plain.h5", checkpointed = dir_ / "checkpointed.h5";
    const run_result a = run(s, plain);
    s.run.checkpoint_every = 0.05;
    const run_result b = run(s, checkpointed);
    EXPECT_EQ(a.final_state_digest, b.final_state_digest);
    EXPECT_EQ(test_support::first_difference(plain.string(), checkpointed.string()), "");
    EXPECT_FALSE(fs::exists(io::checkpoint_path_for(checkpointed)));
}

TEST_F(Resume, ACheckpointOfAnotherRunIsRefusedWithOneLineNamingTheKey) {
    const scenario s = pair("head_on", {precision::f64, precision::f64});
    const fs::path out = dir_ / "p.h5";
    ASSERT_TRUE(run(s, out, 500).resumable);
    const auto before = fs::last_write_time(out);
    struct variant {
        const char* key;
        scenario changed;
    };
    std::vector<variant> variants;
    variants.push_back({"precision", pair("head_on", {precision::ds, precision::f64})});
    variants.push_back({"dt", s});
    variants.back().changed.run.dt = 0.0005;
    variants.back().changed.run.time = 5.0;
    variants.push_back({"case", pair("oblique", {precision::f64, precision::f64})});
    variants.push_back({"scenario_text_fnv1a64", s});
    variants.back().changed.source_text += "\n# edited\n";
    variants.push_back({"min_separation", s});
    variants.back().changed.run.min_separation = 0.5;
    for (const auto& v : variants) {
        try {
            run(v.changed, out, {}, true);
            ADD_FAILURE() << v.key << ": resumed a mismatched checkpoint";
        } catch (const input_error& e) {
            const std::string message = e.what();
            EXPECT_NE(message.find(std::string("key '") + v.key + "'"), std::string::npos) << message;
            EXPECT_NE(message.find("p.h5.checkpoint"), std::string::npos) << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        }
    }
    EXPECT_EQ(fs::last_write_time(out), before) << "a refused resume leaves the output alone";
    EXPECT_TRUE(fs::exists(io::checkpoint_path_for(out)));
    EXPECT_TRUE(run(s, out, {}, true).status == "completed");
}

TEST_F(Resume, TheStoredScenarioRebuildsTheRun) {
    scenario s = pair("oblique", {precision::ds, precision::ds});
    s.run.dt = 0.002;  // as a command-line override would
    s.run.time = 4.0;
    const fs::path out = dir_ / "p.h5";
    ASSERT_TRUE(run(s, out, 777).resumable);
    const fs::path checkpoint = io::checkpoint_path_for(out);
    const scenario rebuilt = scenario_from_checkpoint(io::read_checkpoint(checkpoint), checkpoint);
    EXPECT_EQ(rebuilt.run.dt, 0.002);
    EXPECT_EQ(rebuilt.run.total_steps(), 2000u);
    EXPECT_EQ(rebuilt.case_name, "oblique");
    EXPECT_EQ(run_record(rebuilt), run_record(s));
}

TEST_F(Resume, AFreshRunDoesNotThrowAwayAnInterruptedRunsCheckpoint) {
    const scenario s = pair("head_on", {precision::f64, precision::f64});
    const fs::path out = dir_ / "p.h5";
    ASSERT_TRUE(run(s, out, 500).resumable);
    fs::remove(out);  // even without the output, the checkpoint is worth keeping
    try {
        run(s, out);
        ADD_FAILURE() << "started over an interrupted run's checkpoint";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("--resume"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::exists(io::checkpoint_path_for(out)));
}

TEST_F(Resume, NothingToResumeIsOneClearLine) {
    const scenario s = pair("head_on", {precision::f64, precision::f64});
    const fs::path out = dir_ / "p.h5";
    EXPECT_THROW(run(s, out, {}, true), input_error);  // never ran
    ASSERT_EQ(run(s, out).status, "completed");
    try {
        run(s, out, {}, true);
        ADD_FAILURE() << "resumed a completed run";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("no checkpoint"), std::string::npos) << e.what();
    }
}

// A resume asked to stop at or before its checkpoint's step: the run stands there already. Refused
// with one line naming the option and the checkpoint's step, every file byte for byte as it was
// (it used to take one step no one asked for and rewrite the output).
TEST_F(Resume, AStopAtOrBeforeTheCheckpointIsRefusedAndChangesNothing) {
    const scenario s = pair("head_on", {precision::f64, precision::f64});
    const fs::path out = dir_ / "p.h5";
    ASSERT_TRUE(run(s, out, 500).resumable);
    const auto files = [&] {
        std::map<std::string, std::string> bytes;
        for (const auto& entry : fs::directory_iterator(dir_)) {
            std::ifstream in(entry.path(), std::ios::binary);
            bytes[entry.path().filename().string()] = std::string(std::istreambuf_iterator<char>(in), {});
        }
        return bytes;
    };
    const auto before = files();
    for (const std::uint64_t stop : {500u, 200u, 1u}) {
        try {
            run(s, out, stop, true);
            ADD_FAILURE() << "--stop-at-step " << stop << " resumed a run at step 500";
        } catch (const input_error& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.rfind("command line: key '--stop-at-step' = " + std::to_string(stop) +
                                        ": expected a step after the checkpoint's, step 500",
                                    0),
                      0u)
                << message;
            EXPECT_NE(message.find("p.h5.checkpoint"), std::string::npos) << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        }
        EXPECT_TRUE(files() == before) << "--stop-at-step " << stop << ": a file changed";
    }
    const run_result later = run(s, out, 501, true);
    EXPECT_TRUE(later.resumable);
    EXPECT_EQ(later.steps, 501u);
}

// A resumed run of backend auto continues on the backend of its checkpoint's engine, whatever auto
// would pick now (only the same backend continues a run bit for bit), and its provenance says so.
TEST_F(Resume, AutoContinuesOnTheBackendOfTheCheckpoint) {
    scenario s = short_tetrahedron(reference_precision_mode);
    s.run.backend = "auto";
    const fs::path out = dir_ / "auto.h5";
    const run_result stopped = run(s, out, 500);
    ASSERT_TRUE(stopped.resumable) << stopped.status;
    EXPECT_EQ(stopped.engine.at("backend_choice").rfind("auto: " + stopped.engine.at("backend") + " (", 0), 0u)
        << stopped.engine.at("backend_choice");
    const run_result resumed = run(s, out, {}, true);
    ASSERT_EQ(resumed.status, "completed");
    EXPECT_EQ(resumed.engine.at("backend"), stopped.engine.at("backend"));
    EXPECT_EQ(resumed.engine.at("backend_choice"),
              "auto: " + stopped.engine.at("backend") + " (the backend of the checkpoint's engine)");
}
