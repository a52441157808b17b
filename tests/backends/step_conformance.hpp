#pragma once
// The conformance of every registered backend, one body per behaviour, parametrised over (backend x
// precision mode) (support/backend_modes.hpp). Included by step_conformance_test.cpp (the host
// backends, label quick) and step_conformance_gpu_test.cpp (the device backends, label gpu), which
// instantiate the suites.
//   StepConformance: every backend, the CPU included, against values of its own: the mobility
//     product of each mode within a derived bound of the double-precision one.
//   CpuBitsConformance: every backend but the CPU, against the CPU (the oracle): without short-range
//     forces a step is +, -, *, /, sqrt in a fixed order, compiled without contraction on both sides
//     (IEEE build), so an exact kernel reproduces the CPU bit for bit, after one step and after many.
//   CpuOrderKernelConformance: every kernel of every backend but the CPU that sums in the CPU's order
//     (support/backend_modes.hpp kernel_kind::cpu_order), against the CPU, bit for bit.
//   LubricatedCpuBoundConformance (hi = int: f32, ds, f64): every backend but the CPU, with the
//     paper's lubrication, against the CPU within a bound derived from the logarithm's rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/frames.hpp"
#include "support/sphere_systems.hpp"

class StepConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class CpuBitsConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class CpuOrderKernelConformance : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {};
class LubricatedCpuBoundConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};

namespace stokesian::test_support::step_conformance {

// The modes the lubricated fcc bound is derived for: one precision for both.
inline constexpr precision_mode lubricated_fcc_modes[] = {
    {precision::f32, precision::f32}, {precision::ds, precision::ds}, {precision::f64, precision::f64}};

}  // namespace stokesian::test_support::step_conformance

// 64 random spheres in a periodic cube of edge 14, the velocities of the first frame (v = mu F) in the
// parameter's mode against the CPU's in double precision. Derived bound, per velocity component
// (|F| <= 1, 64 terms):
//  - positions rounded to the integration type: |dr| <= u_p |r| with |r| <= 7 sqrt(3) = 12.2; a pair
//    term changes by at most |dT/dr| |dr_i - dr_j| <= 0.25 * 2 u_p 12.2 (|dT/dr| <= 3/(4 r^2) +
//    3/(2 r^4) <= 0.25 for r >= 2.1);
//  - pair tensor arithmetic in the working type: <= 20 roundings of u_w per term;
//  - the f32 summation itself: <= 64 u_32 per term (recursive summation).
TEST_P(StepConformance, MobilityProductIsTheDoubleOneWithinTheDerivedBound) {
    using namespace stokesian;
    const initial_state s = test_support::random_spheres(64, 14.0, 2.1, 9);
    engine_config reference;
    reference.system.box = {true, {14, 14, 14}};
    reference.precision = reference_precision_mode;
    reference.dt = 0.01;
    reference.threads = 1;
    const engine_config c = test_support::on_backend(reference, GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    reference.backend = "cpu";
    const frame ref = test_support::frame_after(reference, s, 0), f = test_support::frame_after(c, s, 0);
    auto unit_roundoff = [](precision p) {
        return std::ldexp(1.0, p == precision::f32 ? -24 : p == precision::ds ? -48 : -53);
    };
    const precision hi = c.precision.hi;
    const double u_p = unit_roundoff(c.precision.integration),
                 u_w = hi == precision::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
    const double u_sum = hi == precision::f32 ? std::ldexp(1.0, -24) : 0.0;
    const double bound = 64 * (0.25 * 2 * u_p * 12.2 + 20 * u_w + 64 * u_sum);
    ASSERT_EQ(f.velocity.size(), s.size());
    for (std::size_t i = 0; i < s.size(); ++i) ASSERT_NEAR(f.velocity[i].z, ref.velocity[i].z, bound) << i;
}

// The tetrahedron (scenarios/tetrahedron.toml) after 1 and after 1000 steps: the CPU's frames, bit
// for bit.
TEST_P(CpuBitsConformance, TetrahedronIsTheCpusBitForBit) {
    using namespace stokesian;
    const scenario s = load_scenario(test_support::tetrahedron_toml);
    engine_config c = test_support::on_backend(make_engine_config(s), GetParam());
    if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) GTEST_SKIP() << why;
    engine_config cpu = c;
    cpu.backend = "cpu";
    cpu.hi_kernel = "";
    test_support::expect_bitwise_equal(test_support::frame_after(cpu, s.particles, 1),
                                       test_support::frame_after(c, s.particles, 1), "after 1 step");
    test_support::expect_bitwise_equal(test_support::frame_after(cpu, s.particles, 1000),
                                       test_support::frame_after(c, s.particles, 1000), "after 1000 steps");
}

// The multi-stage integrators (Heun, RK4, Adams-Bashforth 2) on the tetrahedron, 300 steps: the CPU's
// frames, bit for bit; each one the backend refuses is left out (skipped when it runs none).
TEST_P(CpuBitsConformance, MultiStageIntegratorsAreTheCpusBitForBit) {
    using namespace stokesian;
    const scenario s = load_scenario(test_support::tetrahedron_toml);
    std::string refused;
    int compared = 0;
    for (integrator_kind kind : {integrator_kind::heun, integrator_kind::rk4, integrator_kind::ab2}) {
        engine_config base = make_engine_config(s);
        base.integrator = kind;
        const engine_config c = test_support::on_backend(base, GetParam());
        if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) {
            refused += (refused.empty() ? "" : "; ") + why;
            continue;
        }
        engine_config cpu = c;
        cpu.backend = "cpu";
        cpu.hi_kernel = "";
        test_support::expect_bitwise_equal(test_support::frame_after(cpu, s.particles, 300),
                                           test_support::frame_after(c, s.particles, 300),
                                           std::string(to_string(kind)));
        ++compared;
    }
    if (compared == 0) GTEST_SKIP() << refused;
}

// 1000 random spheres in a periodic cube of edge 40 (several blocks, a partial last tile), 3 steps:
// the CPU's frame, bit for bit, with every kernel that sums in the CPU's order.
TEST_P(CpuOrderKernelConformance, ThousandSpheresAreTheCpusBitForBit) {
    using namespace stokesian;
    const initial_state s = test_support::random_spheres(1000, 40.0, 2.1, 3);
    engine_config base;
    base.system.box = {true, {40, 40, 40}};
    base.dt = 0.01;
    const engine_config c = test_support::on_backend(base, GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    engine_config cpu = c;
    cpu.backend = "cpu";
    cpu.hi_kernel = "";
    test_support::expect_bitwise_equal(test_support::frame_after(cpu, s, 3), test_support::frame_after(c, s, 3),
                                       c.hi_kernel + " " + to_string(c.precision));
}

// With lubrication the devices' logf/log differ from glibc's by up to 1 ulp each, so equality is
// replaced by a derived bound. fcc N = 256 at n = 0.1: each particle has 12 neighbours at s = 0.42.
TEST_P(LubricatedCpuBoundConformance, FccWithLubricationAgreesWithTheCpuWithinTheDerivedBound) {
    using namespace stokesian;
    const int cells = 4;
    const double edge = std::cbrt(4.0 * cells * cells * cells / 0.1);
    initial_state s;
    s.positions = fcc_lattice(cells, edge / cells);
    // A small perturbation so lubrication forces do not cancel by symmetry.
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> u(-0.05, 0.05);
    for (auto& r : s.positions) r = r + vec3<double>{u(rng), u(rng), u(rng)};
    s.external_forces.assign(s.positions.size(), {0, 0, -1});
    engine_config base;
    base.system.box = {true, {edge, edge, edge}};
    base.system.lubrication.enabled = true;
    base.dt = 0.001;
    const engine_config c = test_support::on_backend(base, GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    engine_config cpu = c;
    cpu.backend = "cpu";
    cpu.hi_kernel = "";
    const frame on_cpu = test_support::frame_after(cpu, s, 1);
    const frame f = test_support::frame_after(c, s, 1);
    // Initial forces use zero previous velocities (no lubrication), so both backends start bitwise
    // equal and drift identically; the first lubrication forces then differ only by the log: 1 ulp
    // (u_w) each on device and host, so each resistance differs by <= 2 u_w relative. Per pair
    // |F_lub| <= X(s_min) |v_ij| with s_min >= 0.25 (nearest neighbours at 2.42a, moved by
    // <= 0.05 sqrt(3) each), X(0.25) = 1.31, |v_ij| <= 2: <= 2.6. Twelve neighbours:
    // |dF_i| <= 12 * 2 u_w * 2.6 < 64 u_w. The velocities sum mu_ij dF_j over 256 particles with
    // |mu_ij| <= 1: |dv_i| <= 256 * 64 u_w.
    const double u_w = c.precision.hi == precision::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
    const double force_bound = 64 * u_w, bound = 256 * force_bound;
    ASSERT_EQ(f.velocity.size(), s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        ASSERT_NEAR(f.velocity[i].x, on_cpu.velocity[i].x, bound) << i;
        ASSERT_NEAR(f.velocity[i].z, on_cpu.velocity[i].z, bound) << i;
        ASSERT_NEAR(f.force[i].x, on_cpu.force[i].x, force_bound) << i;
        ASSERT_EQ(f.position[i], on_cpu.position[i]) << i;
    }
}
