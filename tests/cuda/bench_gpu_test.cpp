// The benchmark code on the device, without timing assertions: the appendix's memory kernels read
// every element they should (their sums are checked exactly inside time_memory_kernel), and the
// phase timer of the CUDA engine times every step of the paper's fcc system in every kernel and mode
// (a test each), and the fused engine's whole steps.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "bench/support/bench_inputs.hpp"
#include "stokesian/core/phase_timing.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/memory_benchmark.hpp"
#include "stokesian/cuda/phase_benchmark.hpp"
#include "support/backend_modes.hpp"
#include "support/require_device.hpp"

using namespace stokesian;

TEST(BenchGpu, MemoryKernelsReadEveryElement) {
    REQUIRE_DEVICE();
    for (const char* kernel : {"naive", "tiling", "small-tiling"})
        for (const char* pattern : {"linear", "strided", "unordered"})
            for (const char* element : {"float", "float4"})
                for (const std::uint32_t n : {1000u, 1337u, 4096u}) {
                    const cuda::memory_timing t =
                        cuda::time_memory_kernel(cuda::parse_memory_kernel(kernel), cuda::parse_access_pattern(pattern),
                                                 cuda::parse_memory_element(element), n, 2);
                    EXPECT_GT(t.checked_threads, 10u);
                    EXPECT_LE(t.min_ms, t.median_ms);
                    EXPECT_LE(t.median_ms, t.max_ms);
                }
    EXPECT_THROW(cuda::time_memory_kernel(cuda::memory_kernel::naive, cuda::access_pattern::linear,
                                          cuda::memory_element::float1, 100, 1),
                 std::invalid_argument);
}

// The paper's fcc system of the benchmark (N = 256, lubrication), its phase-timing configuration.
struct phase_bench {
    bench::benchmark_system s = bench::fcc_system(4, 0.1, true, true);
    engine_config c;
    phase_run run;
    phase_bench() {
        c.system = s.system;
        c.backend = "cuda";
        c.dt = 0.001;
        run.warmup = 2;
        run.steps = 12;
        run.reset_every = 5;
    }
};

// Each of the paper's modes a test of its own.
class BenchGpuPaperModes : public testing::TestWithParam<precision_mode> {};

INSTANTIATE_TEST_SUITE_P(OnADevice, BenchGpuPaperModes, testing::ValuesIn(paper_precision_modes),
                         test_support::precision_mode_name);

TEST_P(BenchGpuPaperModes, PhaseTimerTimesEveryStepOfTheFccBenchmark) {
    REQUIRE_DEVICE();
    phase_bench b;
    b.c.precision = GetParam();
    for (const char* kernel : {"tiling", "small-tiling"}) {
        b.c.hi_kernel = kernel;
        const phase_timing t = cuda::time_phases(b.c, b.s.state, b.run);
        EXPECT_EQ(t.steps, 12u);
        for (step_phase p : step_phases) {
            EXPECT_GE(t.of(p).min_ms, 0.0) << to_string(p);  // a phase may be below the events' resolution
            EXPECT_LE(t.of(p).median_ms, t.of(p).max_ms);
        }
        EXPECT_GT(t.of(step_phase::hi).mean_ms, 0.0);
        EXPECT_NEAR(t.step.mean_ms,
                    t.of(step_phase::drift).mean_ms + t.of(step_phase::forces).mean_ms + t.of(step_phase::hi).mean_ms,
                    1e-9 * t.step.mean_ms + 1e-12);
        // The whole steps again without the events: a chunk of steps between resets is far above
        // the events' resolution.
        EXPECT_GT(t.whole_step.min_ms, 0.0);
        EXPECT_LE(t.whole_step.min_ms, t.whole_step.median_ms);
        EXPECT_LE(t.whole_step.median_ms, t.whole_step.max_ms);
        EXPECT_EQ(t.description.at("hi_kernel"), kernel);
        EXPECT_FALSE(t.description.at("device_name").empty());
    }
}

// The fused engine has no phases: its whole steps are timed, chunk by chunk between the resets.
TEST_P(BenchGpuPaperModes, WholeStepTimerTimesTheFusedEngine) {
    REQUIRE_DEVICE();
    phase_bench b;
    b.c.precision = GetParam();
    b.c.hi_kernel = "fused";
    const phase_timing t = cuda::time_phases(b.c, b.s.state, b.run);
    EXPECT_EQ(t.steps, 12u);
    EXPECT_FALSE(t.phases_timed);
    for (step_phase p : step_phases) EXPECT_TRUE(std::isnan(t.of(p).mean_ms)) << to_string(p);
    EXPECT_GT(t.step.min_ms, 0.0);  // a launch of two steps or more is far above the events' resolution
    EXPECT_LE(t.step.min_ms, t.step.median_ms);
    EXPECT_LE(t.step.median_ms, t.step.max_ms);
    EXPECT_EQ(t.whole_step.median_ms, t.step.median_ms);  // no phase timer to leave out
    EXPECT_EQ(t.description.at("hi_kernel"), "fused");
    EXPECT_FALSE(t.description.at("device_name").empty());
}

// ... and has no phases: the strong-scaling table (several devices) refuses it.
TEST(BenchGpu, DeviceScalingRefusesTheFusedKernel) {
    REQUIRE_DEVICE();
    phase_bench b;
    b.c.precision = reference_precision_mode;
    b.c.hi_kernel = "fused";
    EXPECT_THROW(cuda::time_phases_on_devices(b.c, b.s.state, b.run, {0}), std::invalid_argument);
}
