// A device that fails in mid-run (core/device_error.hpp; engine/docs/reliability.md, "Device
// errors"), through run_scenario() on the CPU: a test-only backend, registered from this file, runs
// the CPU engine, calls itself a device ("Test Device", ordinal 3) and throws device_error when a
// given step begins -- what the CUDA engines throw when a CUDA call fails (the gpu tests inject a
// real fault: tests/cuda/multi_device_gpu_test.cpp). The run must write the last good state it holds
// on the host as its checkpoint, throw device_error naming the device, the step and the checkpoint,
// and `resume` must then complete the run bit for bit as if nothing had happened.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/device_error.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cpu_engine_underneath.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"
#include "support/stoppable_run.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t no_fault = ~std::uint64_t{0};
std::atomic<std::uint64_t> fault_at_step{no_fault};  // the step whose start fails (no_fault: none)

// The CPU engine on a pretend device.
class failing_device_engine final : public test_support::cpu_engine_underneath {
public:
    using cpu_engine_underneath::cpu_engine_underneath;
    void advance(std::uint64_t steps) override {
        for (std::uint64_t k = 0; k < steps; ++k) {
            if (inner().step() == fault_at_step.load())
                throw device_error(3, "Test Device", "CUDA error in a step: injected (cudaErrorLaunchFailure)");
            inner().advance(1);
        }
    }
    // No device named in the details: the run holds its last good state because the backend
    // computes on a device (capabilities::devices), whatever the engine describes.
    engine_description description() const override {
        engine_description d = cpu_engine_underneath::description();
        d.backend = "test-device";
        return d;
    }
};

void register_failing_device_once() {
    static const bool registered = [] {
        backends::backend b;
        b.name = "test-device";
        b.title = "a test backend that fails like a device";
        b.can.devices = 1;
        b.make_engine = [](const engine_config& c, const device_context&, const initial_state& s) {
            return std::make_unique<failing_device_engine>(c, s);
        };
        backends::backend_registry().add(std::move(b));
        return true;
    }();
    (void)registered;
}

// The tetrahedron, 12 000 steps at dt = 0.1, a sample every 10 steps, a trajectory.
scenario short_tetrahedron_on_test_device() {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    s.run.dt = 0.1;
    s.run.time = 1200.0;
    s.run.sample_every = 1.0;
    s.run.precision = {precision::ds, precision::f32};
    s.run.backend = "test-device";
    return s;
}

class DeviceError : public stokesian::test_support::scratch_directory_test {
protected:
    DeviceError() : scratch_directory_test("stokesian_device_error") {}
    void SetUp() override {
        scratch_directory_test::SetUp();
        register_failing_device_once();
    }
    void TearDown() override {
        fault_at_step = no_fault;
        scratch_directory_test::TearDown();
    }

    // Fails at `step`, then resumes: the run must end bit for bit where the uninterrupted one does.
    void expect_checkpoint_and_bitwise_resume(std::uint64_t step) {
        const scenario s = short_tetrahedron_on_test_device();
        const fs::path straight = dir_ / "straight.h5", failed = dir_ / "failed.h5";
        const run_result expected = test_support::stoppable_run(s, straight);
        ASSERT_EQ(expected.status, "completed");

        fault_at_step = step;
        std::string message;
        try {
            test_support::stoppable_run(s, failed);
            FAIL() << "a device failure at step " << step << " went unnoticed";
        } catch (const device_error& e) {
            message = e.what();
            EXPECT_EQ(e.ordinal(), 3);
            EXPECT_EQ(e.device_name(), "Test Device");
        }
        fault_at_step = no_fault;
        EXPECT_EQ(message.rfind("device 3 (Test Device): CUDA error in a step", 0), 0u) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        EXPECT_NE(message.find("stokesian run --resume " + failed.string()), std::string::npos) << message;
        const fs::path checkpoint = io::checkpoint_path_for(failed);
        ASSERT_TRUE(fs::exists(checkpoint)) << message;
        // The last good state: a sample (every 10 steps) no later than the failure, the last the
        // run recorded before it (chunks end on samples: the step named is one of them).
        const io::run_checkpoint c = io::read_checkpoint(checkpoint);
        EXPECT_LE(c.engine.step, step) << message;
        EXPECT_EQ(c.engine.step % 10, 0u) << message;
        EXPECT_NE(message.find("checkpoint at step " + std::to_string(c.engine.step) + " "), std::string::npos)
            << message;
        EXPECT_EQ(c.last_good_step, c.engine.step);
        EXPECT_EQ(c.frames_written, c.engine.step / 10 + 1);  // the t = 0 frame and one per sample

        const run_result resumed = test_support::stoppable_run(s, failed, {}, true);
        ASSERT_EQ(resumed.status, "completed");
        EXPECT_EQ(resumed.resumed_from_step, c.engine.step);
        EXPECT_EQ(resumed.final_state_digest, expected.final_state_digest);
        EXPECT_EQ(test_support::first_difference(straight.string(), failed.string()), "");
    }
};

}  // namespace

TEST_F(DeviceError, AFailureInMidRunCheckpointsTheLastGoodSampleAndResumesBitwise) {
    expect_checkpoint_and_bitwise_resume(5003);
}

TEST_F(DeviceError, AFailureInTheFirstStepCheckpointsTheInitialState) { expect_checkpoint_and_bitwise_resume(0); }
