// Devices that are not there, and devices that fail (label gpu; skipped without a device, the
// two-device cases with fewer than two): a device ordinal that is not present, or one named twice,
// is one line of bad input (exit code 2) for the engine and the CLI; a device that faults in
// mid-run (a real fault, injected through STOKESIAN_TEST_DEVICE_FAULT: cuda/fault_injection.hpp)
// stops the run with exit code 1 and one line naming the device, after writing the last good state
// as the checkpoint, from which --resume completes the run bit for bit; on two devices a fault on the
// second stops the process naming it, without hanging the first in its collective (the step-by-step
// engine) or at its barrier across the devices (the fused engine).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/multi_device.hpp"
#include "support/require_device.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
using namespace stokesian::test_support;
namespace fs = std::filesystem;

namespace {

class MultiDeviceFailureGpu : public scratch_directory_test {
protected:
    MultiDeviceFailureGpu() : scratch_directory_test("stokesian_multi_device_failure") {}

    // The CLI with `fault` in STOKESIAN_TEST_DEVICE_FAULT (none when empty), killed after `limit` s.
    cli_outcome cli(const std::vector<std::string>& args, const std::string& fault = "", double limit = 300.0) {
        if (!fault.empty()) setenv("STOKESIAN_TEST_DEVICE_FAULT", fault.c_str(), 1);
        cli_process p(args, dir_);
        unsetenv("STOKESIAN_TEST_DEVICE_FAULT");
        return p.wait_at_most(limit);
    }
};

// A string field of the CLI's --json (compact: "key":"value", io/json_text.hpp).
std::string json_field(const std::string& json, const std::string& key) {
    const std::string tag = "\"" + key + "\":\"";
    const std::size_t at = json.find(tag);
    if (at == std::string::npos) return "";
    const std::size_t from = at + tag.size();
    return json.substr(from, json.find('"', from) - from);
}

bool one_line(const std::string& text) { return !text.empty() && text.find('\n') == text.size() - 1; }

}  // namespace

TEST_F(MultiDeviceFailureGpu, ADeviceThatDoesNotExistOrIsNamedTwiceIsOneLineOfBadInput) {
    REQUIRE_DEVICE();
    const int count = cuda::device_count();
    const std::string missing = std::to_string(count);
    const scenario t =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    engine_config c = make_engine_config(t);
    c.backend = "cuda";
    for (const std::vector<int>& ordinals : {std::vector<int>{count}, std::vector<int>{0, count}}) {
        device_context device;
        device.ordinals = ordinals;
        try {
            backends::make_engine(c, device, t.particles);
            ADD_FAILURE() << "an engine on device " << count << " of " << count;
        } catch (const input_error& e) {
            // The core rule's message (check_ordinals, core/device_selection.hpp), as --devices gives it.
            EXPECT_NE(std::string(e.what()).find("backend 'cuda': device " + missing + " is not present (" +
                                                 std::to_string(count) + " here: ordinals 0 to " +
                                                 std::to_string(count - 1) + ")"),
                      std::string::npos)
                << e.what();
        }
    }
    device_context twice;
    twice.ordinals = {0, 0};
    try {
        backends::make_engine(c, twice, t.particles);
        ADD_FAILURE() << "an engine on device 0 twice";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("backend 'cuda': device 0 is named twice"), std::string::npos) << e.what();
    }

    const std::vector<std::string> bench{"bench", "fcc", "--backend", "cuda", "--sizes-cells", "2", "--devices"};
    for (const auto& [list, expected] : {std::pair{"0," + missing, "device " + missing + " is not present"},
                                         std::pair{std::string("0,0"), std::string("is named twice")},
                                         std::pair{std::string("0,x"), std::string("expected device ordinals")}}) {
        std::vector<std::string> args = bench;
        args.push_back(list);
        const cli_outcome r = cli(args);
        EXPECT_EQ(r.exit_code, 2) << list << ": " << r.err;
        EXPECT_TRUE(one_line(r.err)) << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    }
    const cli_outcome cpu = cli({"bench", "fcc", "--backend", "cpu", "--devices", "0"});
    EXPECT_EQ(cpu.exit_code, 2) << cpu.err;
    EXPECT_TRUE(one_line(cpu.err)) << cpu.err;
}

// One device: the run's response end to end through the CLI.
TEST_F(MultiDeviceFailureGpu, AFaultInMidRunWritesTheLastGoodStateAndResumesBitwise) {
    REQUIRE_DEVICE();
    const std::string scenario_file =
        std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml";
    const fs::path straight = dir_ / "straight.h5", failed = dir_ / "failed.h5";
    auto run = [&](const fs::path& out) {
        return std::vector<std::string>{
            "run",       scenario_file, "--backend",      "cuda", "--hi-kernel",       "tiling", "--dt",   "0.1",
            "--time",    "1200",        "--sample-every", "1",    "--checkpoint-wall", "0",      "--json", "-o",
            out.string()};
    };
    const cli_outcome expected = cli(run(straight));
    ASSERT_EQ(expected.exit_code, 0) << expected.err;

    const cli_outcome r = cli(run(failed), "6003");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind("stokesian: error: device 0 (" + cuda::device_description(0).at("device_name") + "): ", 0),
              0u)
        << r.err;
    EXPECT_NE(r.err.find("checkpoint at step"), std::string::npos) << r.err;
    const fs::path checkpoint = io::checkpoint_path_for(failed);
    ASSERT_TRUE(fs::exists(checkpoint)) << r.err;
    const io::run_checkpoint c = io::read_checkpoint(checkpoint);
    EXPECT_LE(c.engine.step, 6003u);
    EXPECT_EQ(c.engine.step % 10, 0u);  // a sample (every 10 steps)

    const cli_outcome resumed = cli({"run", "--resume", failed.string(), "--json"});
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    const std::string digest = json_field(expected.out, "final_state_digest");
    EXPECT_FALSE(digest.empty()) << expected.out;
    EXPECT_EQ(json_field(resumed.out, "final_state_digest"), digest) << resumed.out;
}

// Two devices: the second faults while the first waits in the all-gather for it. The process must
// stop (not hang) with exit code 1 and name the second device.
TEST_F(MultiDeviceFailureGpu, AFaultOnOneOfTwoDevicesStopsTheProcessNamingItWithoutHanging) {
    REQUIRE_TWO_DEVICES();
    const cli_outcome r =
        cli({"bench",       "fcc", "--backend",   "cuda",   "--devices",     "0,1", "--sizes-cells", "4",
             "--precision", "f64", "--hi-kernel", "tiling", "--lubrication", "off", "--reset-every", "0",
             "--warmup",    "0",   "--steps",     "40",     "--min-steps",   "40",  "--max-seconds", "0"},
            "10:1", 120.0);
    EXPECT_EQ(r.exit_code, 1) << "(137: killed after 120 s, a hang) " << r.err;
    EXPECT_NE(r.err.find("stokesian: error: device 1 (" + cuda::device_description(1).at("device_name") + "): "),
              std::string::npos)
        << r.err;
}

// The fused engine on two devices: the second faults. The first, which stores into the second's
// memory, fails with it (or, were it left waiting at a barrier across the devices, would give up
// after 10 s): the process stops with exit code 1 in one line that names the second device, not a hang.
TEST_F(MultiDeviceFailureGpu, AFaultOnOneOfTwoDevicesStopsTheFusedEngineNamingItWithoutHanging) {
    REQUIRE_TWO_DEVICES();
    if (const std::string why = cuda::peer_access_refusal({0, 1}); !why.empty())
        GTEST_SKIP() << why << ": the fused engine cannot run on these two";
    const cli_outcome r = cli({"bench", "steps", tetrahedron_toml, "--backend", "cuda", "--hi-kernel", "fused",
                               "--devices", "0,1", "--precision", "f64", "--steps", "100", "--warmup", "0"},
                              "10:1", 120.0);
    EXPECT_EQ(r.exit_code, 1) << "(137: killed after 120 s, a hang) " << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("device 1 (" + cuda::device_description(1).at("device_name") + ")"), std::string::npos)
        << r.err;
}
