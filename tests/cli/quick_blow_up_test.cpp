// Numerical blow-up stops a run: one line on stderr naming the step, the particles and the last
// good checkpoint, exit code 1, and a valid output file whose status says what happened.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;
using test_support::run_cli;

namespace {

// The head-on approaching pair (scenarios/approaching_pairs.toml): the gap falls to about 0.15
// (centres 2.15 a apart) at t ~ 0.68 before the explicit scheme bounces it back.
std::string pair_scenario(const std::string& run_extra, const std::string& particles_extra = "") {
    return R"(
[scenario]
name = "pair"
[physics.lubrication]
enabled = true
[box]
boundary = "open"
[particles]
positions = [[-1.25, 0.0, 0.0], [1.25, 0.0, 0.0]]
forces = [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]
)" + particles_extra +
           R"(
[run]
dt = 0.001
time = 2.0
sample_every = 0.01
)" + run_extra +
           "\n";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

const std::string start_positions = "[-1.25, 0.0, 0.0], [1.25, 0.0, 0.0]";

class BlowUp : public stokesian::test_support::scratch_directory_test {
protected:
    BlowUp() : scratch_directory_test("stokesian_blow_up") {}
    void SetUp() override {
        scratch_directory_test::SetUp();
        fs::create_directories(dir_ / "capture");
    }

    fs::path scenario_file(const std::string& text) {
        const fs::path path = dir_ / "scenario.toml";
        std::ofstream(path) << text;
        return path;
    }
    cli_outcome run(const fs::path& scenario, const fs::path& out, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"run", scenario.string(), "-o", out.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args, dir_ / "capture");
    }
};

}  // namespace

TEST_F(BlowUp, ParticlesCloserThanTheFloorStopTheRunNamingStepParticlesAndCheckpoint) {
    const fs::path out = dir_ / "pair.h5";
    const cli_outcome o = run(scenario_file(pair_scenario("min_separation = 2.2")), out, {"--checkpoint-every", "0.1"});
    EXPECT_EQ(o.exit_code, 1) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "one line: " << o.err;
    EXPECT_NE(o.err.find("numerical blow-up at step "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("particles 0 and 1 are 2.1"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("closer than run.min_separation = 2.2 a"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("last good checkpoint: " + io::checkpoint_path_for(out).string() + " at step 600"),
              std::string::npos)
        << o.err;
    ASSERT_TRUE(fs::exists(out));
    const io::h5md_file f(out);
    EXPECT_EQ(f.string_attribute("/parameters/run", "status").value_or("").rfind("numerical blow-up at step", 0), 0u);
    EXPECT_TRUE(f.exists("/analysis/centre_of_mass/mean_velocity_z")) << "the results up to the blow-up are written";
    // The checkpoint is the last good state, kept for inspection.
    EXPECT_EQ(io::read_checkpoint(io::checkpoint_path_for(out)).engine.step, 600u);
}

TEST_F(BlowUp, TheDefaultFloorIsOneRadiusAndZeroSwitchesItOff) {
    // Coincident centres (allowed by allow_overlap): below the default floor of 1 a at step 0.
    const std::string text =
        replaced(pair_scenario("", "allow_overlap = true"), start_positions, "[-0.25, 0.0, 0.0], [0.25, 0.0, 0.0]");
    const cli_outcome stopped = run(scenario_file(text), dir_ / "a.h5");
    EXPECT_EQ(stopped.exit_code, 1) << stopped.err;
    EXPECT_NE(stopped.err.find("numerical blow-up at step 0: particles 0 and 1 are 0.5 a apart"), std::string::npos)
        << stopped.err;
    EXPECT_NE(stopped.err.find("no checkpoint"), std::string::npos) << stopped.err;

    const std::string unchecked = replaced(text, "sample_every = 0.01", "sample_every = 0.01\nmin_separation = 0");
    const cli_outcome ran = run(scenario_file(unchecked), dir_ / "b.h5", {"--time", "0.01"});
    EXPECT_EQ(ran.err.find("closer than run.min_separation"), std::string::npos) << ran.err;
}

TEST_F(BlowUp, NonFiniteVelocitiesStopTheRun) {
    // Overlapping spheres (no floor) under a strong exponential repulsion: F0 e^((2a - r)/lambda)
    // overflows to infinity.
    const std::string text =
        replaced(replaced(pair_scenario("min_separation = 0", "allow_overlap = true"), start_positions,
                          "[0.0, 0.0, 0.0], [1.5, 0.0, 0.0]"),
                 "enabled = true",
                 "enabled = false\n[physics.pair_force]\nkind = \"exponential\"\nstrength = 1e308\nrange = 0.1");
    const fs::path out = dir_ / "nan.h5";
    const cli_outcome o = run(scenario_file(text), out);
    EXPECT_EQ(o.exit_code, 1) << o.err;
    EXPECT_NE(o.err.find("numerical blow-up at step 0: non-finite velocity of particle 0; no good sample"),
              std::string::npos)
        << o.err;
    EXPECT_NO_THROW(io::h5md_file{out});
}

TEST_F(BlowUp, AnUnusableFloorIsBadInput) {
    for (const char* value : {"-1.0", "\"one\"", "nan"}) {
        const cli_outcome o =
            run(scenario_file(pair_scenario(std::string("min_separation = ") + value)), dir_ / "c.h5");
        EXPECT_EQ(o.exit_code, 2) << value << ": " << o.err;
        EXPECT_NE(o.err.find("run.min_separation"), std::string::npos) << o.err;
        EXPECT_FALSE(fs::exists(dir_ / "c.h5"));
    }
}
