// Which HI kernel continues a resumed run (run_session_start.cpp): under auto, a checkpoint whose
// engine ran a kernel of the CPU's bits (capabilities::cpu_order_kernels) continues on the kernel
// auto takes now, which gives the same bits and runs where the checkpoint's may not (the fused
// engine's checkpoint resumed across MPI ranks: tests/cli/mpi_ranks_gpu_test.cpp on two GPUs);
// under fast, on the checkpoint's kernel, whatever fast takes now (fast kernels differ in the last
// bits). A test backend stands for the device one: the CPU engine underneath, described as the
// kernel the choice named, the choice set by the test.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cpu_engine_underneath.hpp"
#include "support/scratch_directory.hpp"
#include "support/stoppable_run.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

const std::string cpu_order_backend_name = "test-cpu-order";
// What auto and fast take at this moment of the test.
std::string auto_takes = "exact-a";
std::string fast_takes = "fast-c";

// The CPU engine, described as the test backend's kernel `hi_kernel`.
class described_kernel_engine final : public test_support::cpu_engine_underneath {
public:
    described_kernel_engine(const engine_config& config, const initial_state& state)
        : cpu_engine_underneath(config, state), hi_kernel_(config.hi_kernel) {}
    engine_description description() const override {
        engine_description d = cpu_engine_underneath::description();
        d.backend = cpu_order_backend_name;
        d.hi_kernel = hi_kernel_;
        return d;
    }

private:
    std::string hi_kernel_;
};

const backends::backend& cpu_order_backend() {
    static const backends::backend& b = []() -> const backends::backend& {
        backends::backend t;
        t.name = cpu_order_backend_name;
        t.title = "the test-cpu-order backend";
        t.can.hi_kernels = {"exact-a", "exact-b", "fast-c", "fast-d"};
        t.can.cpu_order_kernels = {"exact-a", "exact-b"};
        t.choose_kernel = [](const engine_config&, std::size_t, const device_context&,
                             backends::kernel_request request) {
            const bool fast = request == backends::kernel_request::fastest;
            const std::string& kernel = fast ? fast_takes : auto_takes;
            return backends::kernel_choice{kernel, std::string(fast ? "fast: " : "auto: ") + kernel + " (the test's)"};
        };
        t.make_engine = [](const engine_config& config, const device_context&, const initial_state& state) {
            return std::make_unique<described_kernel_engine>(config, state);
        };
        backends::backend_registry().add(std::move(t));
        return *backends::backend_registry().find(cpu_order_backend_name);
    }();
    return b;
}

scenario tetrahedron_on_the_test_backend(const std::string& hi_kernel) {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    s.run.backend = cpu_order_backend().name;
    s.run.hi_kernel = hi_kernel;
    s.run.dt = 0.1;
    s.run.time = 100.0;
    s.run.sample_every = 1.0;
    return s;
}

class ResumeKernel : public test_support::scratch_directory_test {
protected:
    ResumeKernel() : scratch_directory_test("stokesian_resume_kernel") {}
    void TearDown() override {
        auto_takes = "exact-a";
        fast_takes = "fast-c";
        scratch_directory_test::TearDown();
    }
};

}  // namespace

TEST_F(ResumeKernel, AutoContinuesACheckpointOfTheCpusBitsOnTheKernelItTakesNow) {
    const scenario s = tetrahedron_on_the_test_backend("auto");
    const run_result straight = test_support::stoppable_run(s, dir_ / "straight.h5");
    ASSERT_EQ(straight.status, "completed");
    const fs::path out = dir_ / "pieces.h5";
    const run_result stopped = test_support::stoppable_run(s, out, 400);
    ASSERT_TRUE(stopped.resumable) << stopped.status;
    EXPECT_EQ(stopped.engine.at("hi_kernel"), "exact-a");

    auto_takes = "exact-b";  // another host, another table: the kernel of the checkpoint may not run here
    const run_result resumed = test_support::stoppable_run(s, out, {}, true);
    ASSERT_EQ(resumed.status, "completed");
    EXPECT_EQ(resumed.engine.at("hi_kernel"), "exact-b");
    EXPECT_EQ(resumed.engine.at("hi_kernel_choice"),
              "auto: exact-b (the test's); the checkpoint's engine ran exact-a, the same bits");
    EXPECT_EQ(resumed.final_state_digest, straight.final_state_digest);
}

TEST_F(ResumeKernel, FastContinuesOnTheKernelOfItsCheckpoint) {
    const scenario s = tetrahedron_on_the_test_backend("fast");
    const fs::path out = dir_ / "fast.h5";
    const run_result stopped = test_support::stoppable_run(s, out, 400);
    ASSERT_TRUE(stopped.resumable) << stopped.status;
    EXPECT_EQ(stopped.engine.at("hi_kernel"), "fast-c");

    fast_takes = "fast-d";  // a tuning cache written since: fast kernels differ in the last bits
    const run_result resumed = test_support::stoppable_run(s, out, {}, true);
    ASSERT_EQ(resumed.status, "completed");
    EXPECT_EQ(resumed.engine.at("hi_kernel"), "fast-c");
    EXPECT_EQ(resumed.engine.at("hi_kernel_choice"), "fast: fast-c (the kernel of the checkpoint's engine)");
}
