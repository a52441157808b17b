// The CUDA backend against its oracle, the CPU backend (label gpu; skipped without a device). The
// tetrahedron and the multi-stage integrators in every mode, and every kernel that sums in the CPU's
// order, bit for bit the CPU: CpuBitsConformance and CpuOrderKernelConformance
// (tests/backends/step_conformance.hpp), on every device backend.
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

scenario tetrahedron() {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
}

using test_support::frame_after;

using test_support::expect_bitwise_equal;

}  // namespace

// With lubrication the devices' logf/log differ from glibc's by up to 1 ulp each, so equality is
// replaced by a derived bound. fcc N = 256 at n = 0.1: each particle has 12 neighbours at s = 0.42.
TEST(CudaBackend, FccWithLubricationAgreesWithCpuWithinDerivedBound) {
    REQUIRE_DEVICE();
    const int cells = 4;
    const double edge = std::cbrt(4.0 * cells * cells * cells / 0.1);
    initial_state s;
    s.positions = fcc_lattice(cells, edge / cells);
    // A small perturbation so lubrication forces do not cancel by symmetry.
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> u(-0.05, 0.05);
    for (auto& r : s.positions) r = r + vec3<double>{u(rng), u(rng), u(rng)};
    s.external_forces.assign(s.positions.size(), {0, 0, -1});
    for (precision hi : precisions) {
        engine_config c;
        c.system.box = {true, {edge, edge, edge}};
        c.system.lubrication.enabled = true;
        c.precision = {hi, hi};
        c.dt = 0.001;
        c.backend = "cpu";
        const frame cpu = frame_after(c, s, 1);
        c.backend = "cuda";
        c.hi_kernel = "tiling";  // the step-by-step engine (auto would take the fused one here)
        const frame gpu = frame_after(c, s, 1);
        // Initial forces use zero previous velocities (no lubrication), so both backends start
        // bitwise equal and drift identically; the first lubrication forces then differ only by
        // the log: 1 ulp (u_w) each on device and host, so each resistance differs by <= 2 u_w
        // relative. Per pair |F_lub| <= X(s_min) |v_ij| with s_min >= 0.25 (nearest neighbours at
        // 2.42a, moved by <= 0.05 sqrt(3) each), X(0.25) = 1.31, |v_ij| <= 2: <= 2.6. Twelve
        // neighbours: |dF_i| <= 12 * 2 u_w * 2.6 < 64 u_w. The velocities sum mu_ij dF_j over 256
        // particles with |mu_ij| <= 1: |dv_i| <= 256 * 64 u_w.
        const double u_w = hi == precision::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
        const double force_bound = 64 * u_w, bound = 256 * force_bound;
        for (std::size_t i = 0; i < s.positions.size(); ++i) {
            ASSERT_NEAR(gpu.velocity[i].x, cpu.velocity[i].x, bound) << i;
            ASSERT_NEAR(gpu.velocity[i].z, cpu.velocity[i].z, bound) << i;
            ASSERT_NEAR(gpu.force[i].x, cpu.force[i].x, force_bound) << i;
            ASSERT_EQ(gpu.position[i], cpu.position[i]) << i;
        }
    }
}

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

TEST(CudaBackend, CheckpointsResumeBitwiseOnTheDeviceAndAcrossBackends) {
    REQUIRE_DEVICE();
    const scenario s = load_scenario(
        std::string(::stokesian::test_support::project_source_dir) + "/scenarios/approaching_pairs.toml", "oblique");
    for (const char* kernel : {"tiling", "fused"})
        for (precision hi : precisions) {
            engine_config c = make_engine_config(s);
            c.precision = {hi, hi};
            c.backend = "cuda";
            c.hi_kernel = kernel;
            const frame expected = frame_after(c, s.particles, 300);
            auto first = make_engine(c, s.particles);
            first->advance(120);
            engine_state saved;
            first->save_state(saved);
            auto second = make_engine(c, s.particles);
            second->restore_state(saved);
            second->advance(180);
            frame resumed;
            second->read_frame(resumed);
            expect_bitwise_equal(expected, resumed, std::string(kernel) + " " + to_string(c.precision));
        }
    // A CPU checkpoint resumed on the GPU (no lubrication: the backends agree bit for bit).
    const scenario t = tetrahedron();
    engine_config c = make_engine_config(t);
    c.precision = {precision::ds, precision::f32};
    const frame expected = frame_after(c, t.particles, 500);
    auto cpu = make_engine(c, t.particles);
    cpu->advance(200);
    engine_state saved;
    cpu->save_state(saved);
    c.backend = "cuda";
    c.hi_kernel = "tiling";  // the step-by-step engine (auto would take the fused one here)
    auto gpu = make_engine(c, t.particles);
    gpu->restore_state(saved);
    gpu->advance(300);
    frame resumed;
    gpu->read_frame(resumed);
    expect_bitwise_equal(expected, resumed, "CPU checkpoint resumed on the GPU");
}
