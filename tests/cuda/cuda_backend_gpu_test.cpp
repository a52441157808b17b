// The CUDA backend (label gpu; skipped without a device): runs are bitwise reproducible, the device
// describes itself. Against its oracle, the CPU backend, on every device backend: the tetrahedron
// and the multi-stage integrators in every mode, every kernel that sums in the CPU's order
// (CpuBitsConformance, CpuOrderKernelConformance) and the lubricated fcc lattice
// (LubricatedCpuBoundConformance) in tests/backends/step_conformance.hpp; checkpoints in
// tests/backends/engine_resume_conformance.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/frames.hpp"
#include "support/require_device.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using test_support::random_spheres;

namespace {

using test_support::frame_after;

using test_support::expect_bitwise_equal;

}  // namespace

TEST(CudaBackend, RunsAreBitwiseReproducible) {
    REQUIRE_DEVICE();
    const initial_state s = random_spheres(2000, 50.0, 2.1, 8);
    engine_config c;
    c.system.box = {true, {50, 50, 50}};
    c.system.lubrication.enabled = true;
    c.precision = {precision::ds, precision::f32};
    c.dt = 0.001;
    c.backend = "cuda";
    c.hi_kernel = "tiling";  // the step-by-step engine (auto would take the fused one here)
    const frame a = frame_after(c, s, 50), b = frame_after(c, s, 50);
    expect_bitwise_equal(a, b, "run-to-run");
    EXPECT_EQ(state_digest(a), state_digest(b));
}

TEST(CudaBackend, DescribesTheDevice) {
    REQUIRE_DEVICE();
    const auto d = cuda::device_description();
    EXPECT_FALSE(d.at("device_name").empty());
    EXPECT_FALSE(d.at("compute_capability").empty());
    EXPECT_NE(d.at("cuda_fp_flags").find("prec-div"), std::string::npos);
}
