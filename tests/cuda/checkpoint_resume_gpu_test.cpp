// Checkpoint and resume on the CUDA backend (label gpu; skipped without a device): a run stopped
// and resumed from its checkpoint ends bitwise identical to the uninterrupted one with the tiling
// and the fused kernels in every precision mode (a test each); a checkpoint of another backend is
// refused; a system too large for the device's memory is one line of bad input.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/h5md_comparison.hpp"
#include "support/require_device.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

scenario on_gpu(scenario s, const char* kernel, precision_mode mode) {
    s.run.backend = "cuda";
    s.run.hi_kernel = kernel;
    s.run.precision = mode;
    return s;
}

scenario short_tetrahedron() {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    s.run.dt = 0.1;
    s.run.time = 1200.0;
    return s;
}

scenario head_on_pair() {
    return load_scenario(
        std::string(::stokesian::test_support::project_source_dir) + "/scenarios/approaching_pairs.toml", "head_on");
}

class GpuResume : public stokesian::test_support::scratch_directory_test {
protected:
    GpuResume() : scratch_directory_test("stokesian_gpu_resume") {}

    run_result run(const scenario& s, const fs::path& out, std::optional<std::uint64_t> stop = {},
                   bool resume = false) {
        run_request req;
        req.scenario_ = s;
        req.output.path = out;
        req.output.force = true;
        req.checkpoint_wall_seconds = 0.0;
        req.stop_after_step = stop;
        req.resume = resume;
        return run_scenario(req);
    }

    void expect_resume_is_bitwise(const scenario& s, std::uint64_t first_stop, std::uint64_t second_stop,
                                  const std::string& what) {
        const fs::path straight = dir_ / "straight.h5", pieces = dir_ / "pieces.h5";
        const run_result expected = run(s, straight);
        ASSERT_EQ(expected.status, "completed") << what;
        ASSERT_TRUE(run(s, pieces, first_stop).resumable) << what;
        ASSERT_TRUE(run(s, pieces, second_stop, true).resumable) << what;
        const run_result r = run(s, pieces, {}, true);
        ASSERT_EQ(r.status, "completed") << what;
        EXPECT_EQ(r.final_state_digest, expected.final_state_digest) << what;
        for (const auto& [key, value] : expected.summary) {
            const double other = r.summary.at(key);
            EXPECT_EQ(std::memcmp(&value, &other, sizeof value), 0) << what << ": summary " << key;
        }
        EXPECT_EQ(test_support::first_difference(straight.string(), pieces.string()), "") << what;
    }
};

// Each precision mode a test of its own.
class GpuResumeInEveryMode : public GpuResume, public testing::WithParamInterface<precision_mode> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(OnADevice, GpuResumeInEveryMode, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);

TEST_P(GpuResumeInEveryMode, TilingAndFusedKernelsResumeBitwise) {
    REQUIRE_DEVICE();
    const precision_mode mode = GetParam();
    for (const char* kernel : {"tiling", "fused"}) {
        const std::string what = std::string(kernel) + " " + to_string(mode);
        expect_resume_is_bitwise(on_gpu(short_tetrahedron(), kernel, mode), 2345, 7000, "tetrahedron " + what);
        // Lubrication from the previous velocities, which the device state must carry.
        expect_resume_is_bitwise(on_gpu(head_on_pair(), kernel, mode), 333, 701, "head-on pair " + what);
    }
}

TEST_F(GpuResume, ACheckpointOfAnotherBackendOrKernelIsRefused) {
    REQUIRE_DEVICE();
    const fs::path out = dir_ / "p.h5";
    scenario cpu = head_on_pair();
    ASSERT_TRUE(run(cpu, out, 300).resumable);
    // The CPU run resumed on the GPU: same requested settings except the backend.
    try {
        run(on_gpu(cpu, "tiling", cpu.run.precision), out, {}, true);
        ADD_FAILURE() << "resumed a CPU checkpoint on the GPU";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("key 'backend'"), std::string::npos) << e.what();
    }
    // backend = auto: the backend that wrote the checkpoint continues it (for N = 2 run alone the CPU,
    // measured faster than the device: backends/registry.hpp, auto_slower_up_to).
    scenario automatic = cpu;
    automatic.run.backend = "auto";
    ASSERT_TRUE(run(automatic, dir_ / "a.h5", 300).resumable);
    EXPECT_NO_THROW(run(automatic, dir_ / "a.h5", {}, true)) << "the same device continues its own checkpoint";
}

TEST_F(GpuResume, ASystemTooLargeForTheDeviceIsOneLineOfBadInput) {
    REQUIRE_DEVICE();
    // Take nearly all free memory so that a system of a million particles cannot fit; holding the
    // memory keeps the test independent of the device's size.
    std::size_t free_bytes = 0, total_bytes = 0;
    ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
    const std::size_t keep_free = std::size_t{16} << 20;
    void* hog = nullptr;
    ASSERT_EQ(cudaMalloc(&hog, free_bytes - keep_free), cudaSuccess);
    scenario s = short_tetrahedron();
    s.run.backend = "cuda";
    s.run.time = 1.0;
    s.observables = {};
    s.particles.positions.clear();
    s.particles.external_forces.clear();
    const std::size_t n = std::size_t{1} << 20;
    for (std::size_t i = 0; i < n; ++i) {
        s.particles.positions.push_back({double(i % 64) - 31.5, double((i / 64) % 64) - 31.5, double(i / 4096) * 0.1});
        s.particles.external_forces.push_back({0.0, 0.0, -1.0});
    }
    std::string message;
    try {
        run(s, dir_ / "huge.h5");
    } catch (const input_error& e) {
        message = e.what();
    }
    cudaFree(hog);
    EXPECT_NE(message.find("out of device memory allocating"), std::string::npos) << message;
    EXPECT_NE(message.find("MiB free"), std::string::npos) << message;
    EXPECT_NE(message.find("N = 1048576 particles"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}
