// The scenario keys of the observables added for the regression suite (docs/reference/scenario-file.md,
// [observables]): defaults, values, layering by cases, the shipped scenarios and the resolved
// configuration. Broken values are in tests/inputs/bad/observable_*.toml.
#include <gtest/gtest.h>

#include <filesystem>

#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

const std::filesystem::path scenarios =
    std::filesystem::path(::stokesian::test_support::project_source_dir) / "scenarios";

std::string pair_scenario(const std::string& observables) {
    return "[scenario]\nname = \"t\"\n[box]\nboundary = \"open\"\n[particles]\n"
           "positions = [[-1.25, 0.0, 0.0], [1.25, 0.0, 0.0]]\nforce = [0.0, 0.0, -1.0]\n"
           "[run]\ndt = 0.01\nsteps = 10\n[observables]\n" +
           observables;
}

}  // namespace

TEST(ObservableSettings, DefaultsAreOff) {
    const scenario s = parse_scenario(pair_scenario(""), "t.toml");
    EXPECT_FALSE(s.observables.cycle);
    EXPECT_FALSE(s.observables.positive_definiteness);
    EXPECT_FALSE(s.observables.pair_gap);
    EXPECT_FALSE(s.observables.velocity_spread);
}

TEST(ObservableSettings, ValuesAndDefaultsOfTheTables) {
    const scenario s = parse_scenario(
        pair_scenario("cycle = { particle = 1, component = \"z\" }\npositive_definiteness = {}\npair_gap = true\n"
                      "velocity_spread = true\n"),
        "t.toml");
    ASSERT_TRUE(s.observables.cycle);
    EXPECT_EQ(s.observables.cycle->window, 1e4);  // the paper's 10^4 tau_s
    EXPECT_EQ(s.observables.cycle->period_jump_tolerance, 0.05);
    ASSERT_TRUE(s.observables.positive_definiteness);
    EXPECT_EQ(s.observables.positive_definiteness->every, 100u);
    EXPECT_TRUE(s.observables.pair_gap);
    EXPECT_TRUE(s.observables.velocity_spread);

    const scenario t = parse_scenario(
        pair_scenario("cycle = { particle = 0, component = \"x\", window = 2500, period_jump_tolerance = 0.02 }\n"
                      "positive_definiteness = { every = 7 }\n"),
        "t.toml");
    EXPECT_EQ(t.observables.cycle->window, 2500.0);
    EXPECT_EQ(t.observables.cycle->period_jump_tolerance, 0.02);
    EXPECT_EQ(t.observables.positive_definiteness->every, 7u);
    // The resolved configuration records them.
    const std::string text = resolved_configuration(t);
    EXPECT_NE(text.find("[observables.positive_definiteness]\nevery = 7"), std::string::npos) << text;
    EXPECT_NE(text.find("window = 2500.0"), std::string::npos) << text;
    EXPECT_NE(text.find("period_jump_tolerance = 0.02"), std::string::npos) << text;
    EXPECT_NE(text.find("pair_gap = false"), std::string::npos) << text;
}

TEST(ObservableSettings, CasesOverrideTheTopLevel) {
    const std::string text =
        pair_scenario("pair_gap = true\npositive_definiteness = { every = 5 }\n") +
        "[cases.a]\n[cases.b.observables]\npair_gap = false\npositive_definiteness = { every = 9 }\n";
    EXPECT_TRUE(parse_scenario(text, "t.toml", "a").observables.pair_gap);
    const scenario b = parse_scenario(text, "t.toml", "b");
    EXPECT_FALSE(b.observables.pair_gap);
    EXPECT_EQ(b.observables.positive_definiteness->every, 9u);
}

TEST(ObservableSettings, ShippedScenariosSwitchOnTheirObservables) {
    for (const char* c : {"head_on", "oblique"}) {
        const scenario pairs = load_scenario(scenarios / "approaching_pairs.toml", c);
        EXPECT_TRUE(pairs.observables.pair_gap) << c;
        ASSERT_TRUE(pairs.observables.positive_definiteness) << c;
    }
    EXPECT_TRUE(load_scenario(scenarios / "fcc_sedimentation.toml").observables.velocity_spread);
    const scenario tetrahedron = load_scenario(scenarios / "tetrahedron.toml");
    ASSERT_TRUE(tetrahedron.observables.cycle);
    EXPECT_EQ(tetrahedron.observables.cycle->window, 1e4);
}
