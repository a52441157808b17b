// Every streaming observable saves and restores its complete internal state: an observable
// restored from a state saved mid-run and fed the rest of the frames ends in exactly the state
// (and the summary) of the one that saw every frame.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

scenario load(const std::string& name, const std::string& case_name = {}) {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/" + name + ".toml",
                         case_name);
}

// A small fcc lattice (N = 32) with every observable that takes any N switched on.
scenario small_lattice() {
    return parse_scenario(R"(
[scenario]
name = "lattice"
[box]
boundary = "periodic"
[particles]
force = [0.0, 0.0, -1.0]
[particles.lattice]
kind = "fcc"
cells = 2
density = 0.05
perturbation = 0.3
seed = 7
[run]
dt = 0.05
time = 40.0
sample_every = 0.1
write_trajectory = false
[observables]
velocity_spread = true
positive_definiteness = { every = 7 }
)",
                          "lattice.toml");
}

std::vector<frame> frames_of(const scenario& s, std::size_t count) {
    engine_config c = make_engine_config(s);
    c.threads = 1;
    auto e = make_engine(c, s.particles);
    std::vector<frame> frames(count);
    for (std::size_t k = 0; k < count; ++k) {
        if (k > 0) e->advance(s.run.sample_interval_steps());
        e->read_frame(frames[k]);
    }
    return frames;
}

std::vector<saved_state> states_of(const std::vector<std::unique_ptr<observable>>& list) {
    std::vector<saved_state> states(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) list[k]->save(states[k]);
    return states;
}

void expect_bitwise_equal(const std::map<std::string, double>& a, const std::map<std::string, double>& b,
                          const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (const auto& [key, value] : a) {
        ASSERT_TRUE(b.count(key)) << what << ": " << key;
        const double other = b.at(key);
        // Bitwise, not ==: NaN states and the sign of zero must survive a checkpoint too.
        EXPECT_EQ(std::bit_cast<std::uint64_t>(value), std::bit_cast<std::uint64_t>(other))
            << what << ": " << key << " " << value << " " << other;
    }
}

// Feeds all frames to one set of observables; a second set is restored from the first's state
// at frame `cut` and fed the rest. Both must end in the same state and summary.
void expect_round_trip(const scenario& s, const std::vector<frame>& frames, std::size_t cut, const std::string& what) {
    auto whole = make_observables(s);
    std::vector<saved_state> at_cut;
    for (std::size_t k = 0; k < frames.size(); ++k) {
        if (k == cut) at_cut = states_of(whole);
        for (auto& o : whole) o->sample(frames[k]);
    }
    auto resumed = make_observables(s);
    ASSERT_EQ(resumed.size(), at_cut.size());
    for (std::size_t k = 0; k < resumed.size(); ++k) {
        resumed[k]->restore(at_cut[k]);
        saved_state again;
        resumed[k]->save(again);
        EXPECT_TRUE(again == at_cut[k]) << what << ": " << resumed[k]->kind() << " restore(save()) is not the identity";
    }
    for (std::size_t k = cut; k < frames.size(); ++k)
        for (auto& o : resumed) o->sample(frames[k]);
    const auto a = states_of(whole), b = states_of(resumed);
    for (std::size_t k = 0; k < a.size(); ++k)
        EXPECT_TRUE(a[k] == b[k]) << what << ": " << whole[k]->kind() << " differs after the resume";
    std::map<std::string, double> summary_a, summary_b;
    for (auto& o : whole) o->summarise(summary_a);
    for (auto& o : resumed) o->summarise(summary_b);
    expect_bitwise_equal(summary_a, summary_b, what);
}

}  // namespace

TEST(ObservableCheckpoint, TetrahedronCycleSymmetryAndCentreOfMassRoundTrip) {
    scenario s = load("tetrahedron");
    s.run.dt = 0.1;
    s.run.time = 1300.0;
    // Window shorter than the run so that complete and partial windows exist.
    s.observables.cycle->window = 600.0;
    const auto frames = frames_of(s, 1301);
    // Cuts before the first extremum, inside the fit window of the first maximum, and late.
    for (std::size_t cut : {1u, 150u, 256u, 600u, 1299u})
        expect_round_trip(s, frames, cut, "cut " + std::to_string(cut));
    // The decimated series with blocks longer than one sample (runs without a trajectory).
    s.run.write_trajectory = false;
    s.run.time = 1300.0 * 4096 / 10;  // blocks of 131 samples; only the frames below are fed
    expect_round_trip(s, frames, 777, "decimated");
}

TEST(ObservableCheckpoint, PairGapAndPositiveDefinitenessRoundTrip) {
    for (const char* case_name : {"head_on", "oblique"}) {
        const scenario s = load("approaching_pairs", case_name);
        const auto frames = frames_of(s, 501);
        for (std::size_t cut : {1u, 68u, 69u, 70u, 250u, 499u})
            expect_round_trip(s, frames, cut, std::string(case_name) + " cut " + std::to_string(cut));
    }
}

TEST(ObservableCheckpoint, VelocitySpreadRoundTrips) {
    const scenario s = small_lattice();
    const auto frames = frames_of(s, 120);
    for (std::size_t cut : {1u, 7u, 8u, 60u, 119u})
        expect_round_trip(s, frames, cut, "lattice cut " + std::to_string(cut));
}

TEST(ObservableCheckpoint, AStateThatDoesNotFitIsRefused) {
    scenario s = load("tetrahedron");
    auto list = make_observables(s);
    for (auto& o : list) {
        EXPECT_THROW(o->restore(saved_state{}), std::invalid_argument) << o->kind();
        saved_state state;
        o->save(state);
        if (!state.counts.count("samples")) continue;
        state.counts["samples"].push_back(1);  // a scalar with two values
        EXPECT_THROW(o->restore(state), std::invalid_argument) << o->kind();
    }
    // Series decimated into blocks of another length belong to another run.
    scenario other = s;
    other.run.write_trajectory = false;
    other.run.time = 5170.0 * 1000;
    auto mine = make_observables(s), theirs = make_observables(other);
    saved_state state;
    theirs.front()->save(state);
    EXPECT_THROW(mine.front()->restore(state), std::invalid_argument);
}

TEST(ObservableCheckpoint, APositiveDefinitenessStateWithoutItsVerdictsIsRefused) {
    // Every check has a verdict (mobility/verdict): a saved state without them, or with one fewer
    // than its checks, is not this observable's and does not resume.
    const scenario s = small_lattice();
    const auto frames = frames_of(s, 20);
    auto whole = make_observables(s);
    for (auto& frame : frames)
        for (auto& o : whole) o->sample(frame);
    auto resumed = make_observables(s);
    for (std::size_t k = 0; k < whole.size(); ++k) {
        if (whole[k]->kind() != "positive_definiteness") continue;
        saved_state state;
        whole[k]->save(state);
        ASSERT_EQ(state.reals.at("verdict").size(), 3u);  // checks at samples 0, 7, 14
        EXPECT_NO_THROW(resumed[k]->restore(state));
        state.reals.at("verdict").pop_back();
        EXPECT_THROW(resumed[k]->restore(state), std::invalid_argument);
        state.reals.erase("verdict");
        try {
            resumed[k]->restore(state);
            ADD_FAILURE() << "a state without verdicts resumed";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("verdict"), std::string::npos) << e.what();
        }
    }
}
