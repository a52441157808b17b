#pragma once
// The Ewald-summed RPY tensor (tensor "rpy-ewald") on every registered backend, one body per
// behaviour, parametrised over (backend x HI kernel x precision mode) (support/backend_modes.hpp).
// Included by rpy_ewald_conformance_test.cpp (the host backends, label quick) and
// rpy_ewald_conformance_gpu_test.cpp (the device backends, label gpu), which instantiate the suites.
//   RpyEwaldConformance: velocities at construction against the dense double mobility product.
//   RpyEwaldCpuOrderKernels: every backend but the CPU, its kernels that sum in the CPU's order,
//     against the CPU bit for bit. The Ewald block uses only +, -, *, /, sqrt, floor and ldexp
//     (physics/portable_math.hpp: its own exp, erfc and sincos), compiled without contraction on both
//     sides, so such a kernel reproduces the CPU bit for bit in every precision mode.
//   RpyEwaldFastMathKernels: its fast-math kernels (FMA contraction, hardware rsqrt) against the CPU,
//     to the rounding of the sum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/ewald_matrix.hpp"

class RpyEwaldConformance : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {};
class RpyEwaldCpuOrderKernels : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {};
class RpyEwaldFastMathKernels : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {};

namespace stokesian::test_support::rpy_ewald_conformance {

// N = 64 non-overlapping spheres in a periodic cube of edge 12 (n = 0.037 a^-3), an overlapping pair
// (r = 1.5a: the overlap form) and a pair exactly L/2 apart along x among them.
inline initial_state periodic_spheres() {
    const double edge = 12.0;
    const box_geometry<double> box{true, {edge, edge, edge}};
    initial_state s;
    s.positions = {{-3.0, 1.0, 2.0}, {3.0, 1.0, 2.0}, {0.0, -4.0, 0.0}, {1.5, -4.0, 0.0}};
    std::mt19937_64 rng(64);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2);
    while (s.positions.size() < 64) {
        const vec3<double> r{u(rng), u(rng), u(rng)};
        bool apart = true;
        for (const auto& q : s.positions) {
            const vec3<double> d = minimum_image(r - q, box);
            apart = apart && dot(d, d) > 4.41;
        }
        if (apart) s.positions.push_back(r);
    }
    for (std::size_t i = 0; i < s.positions.size(); ++i)
        s.external_forces.push_back({0.1 * double(i % 3), -0.05 * double(i % 5), -1.0});
    return s;
}

// rpy-ewald in the periodic cube of periodic_spheres, on the parameter's backend, kernel and mode.
inline engine_config ewald_config(const backend_kernel_mode& p) {
    engine_config c;
    c.system.tensor = hydrodynamic_tensor::rpy_ewald;
    c.system.box = {true, {12.0, 12.0, 12.0}};
    c.dt = 1e-3;
    return on_backend(c, p);
}

// The same on the CPU (its default loop), the oracle.
inline engine_config cpu_ewald_config(const backend_kernel_mode& p) {
    engine_config c = ewald_config(p);
    c.backend = "cpu";
    c.hi_kernel = "";
    return c;
}

inline frame ewald_frame_after(const engine_config& c, const initial_state& s, std::uint64_t steps) {
    const auto e = make_engine(c, s);
    if (steps) e->advance(steps);
    frame f;
    e->read_frame(f);
    return f;
}

// 24 apart spheres of a periodic cube of edge 12 at multiples of 1/64 (exact in float, so every
// precision mode starts from the same positions), loaded from a scenario text.
inline scenario dense_check_scenario() {
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    std::vector<vec3<double>> r;
    while (r.size() < 40) {
        const vec3<double> x{u(rng) * 12.0, u(rng) * 12.0, u(rng) * 12.0};
        if (dot(x, x) > 4.0) r.push_back(x);
    }
    std::vector<vec3<double>> kept;
    for (const auto& x : r) {
        bool apart = true;
        for (const auto& y : kept) {
            const vec3<double> d = minimum_image(x - y, box_geometry<double>{true, {12.0, 12.0, 12.0}});
            apart = apart && dot(d, d) > 4.0;
        }
        if (apart && kept.size() < 24) kept.push_back(x);
    }
    const auto exact = [](double x) { return std::to_string(std::round(x * 64.0) / 64.0); };
    std::string positions;
    for (std::size_t i = 0; i < kept.size(); ++i)
        positions += (i ? ", [" : "[") + exact(kept[i].x) + ", " + exact(kept[i].y) + ", " + exact(kept[i].z) + "]";
    const std::string text =
        "[scenario]\nname = \"e\"\n[physics]\ntensor = \"rpy-ewald\"\n[box]\nboundary = "
        "\"periodic\"\nedges = [12, 12, 12]\n[particles]\npositions = [" +
        positions + "]\nforce = [0.3, -0.2, -1]\n[run]\ndt = 0.01\nsteps = 2\n";
    return parse_scenario(text, "e.toml");
}

}  // namespace stokesian::test_support::rpy_ewald_conformance

// Velocities at construction (v = mu F) against the double evaluation of the dense matrix, to the
// working precision's rounding of ~150 summands (allowance 256 u_w relative to the absolute sum; the
// sums here are O(1) per particle, so 256 u_w N), then the run's steps.
TEST_P(RpyEwaldConformance, VelocitiesAreTheDenseDoubleProductToTheWorkingRounding) {
    using namespace stokesian;
    const scenario s = test_support::rpy_ewald_conformance::dense_check_scenario();
    const engine_config c = test_support::on_backend(make_engine_config(s), GetParam());
    if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) GTEST_SKIP() << why;
    const dense_matrix m = test_support::ewald_mobility_matrix(s.particles.positions, s.system);
    const std::size_t n = s.particles.size();
    const auto e = make_engine(c, s.particles);
    frame f;
    e->read_frame(f);
    const double u = c.precision.hi == precision::f64 ? 0x1p-53 : 0x1p-24;
    for (std::size_t i = 0; i < n; ++i)
        for (int d = 0; d < 3; ++d) {
            double expected = 0.0;
            for (std::size_t j = 0; j < n; ++j) {
                const vec3<double> fj = s.particles.external_forces[j];
                expected +=
                    m(3 * i + d, 3 * j) * fj.x + m(3 * i + d, 3 * j + 1) * fj.y + m(3 * i + d, 3 * j + 2) * fj.z;
            }
            const double got = d == 0 ? f.velocity[i].x : d == 1 ? f.velocity[i].y : f.velocity[i].z;
            EXPECT_NEAR(got, expected, 256 * u * double(n)) << "i " << i;
        }
    e->advance(2);  // steps run
}

// periodic_spheres at construction and after 3 steps: the CPU's velocities and positions, bit for bit.
TEST_P(RpyEwaldCpuOrderKernels, AreTheCpusBitForBit) {
    using namespace stokesian;
    using namespace stokesian::test_support::rpy_ewald_conformance;
    const initial_state s = periodic_spheres();
    const engine_config c = ewald_config(GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    const engine_config cpu_config = cpu_ewald_config(GetParam());
    const frame cpu0 = ewald_frame_after(cpu_config, s, 0), cpu = ewald_frame_after(cpu_config, s, 3);
    const frame gpu0 = ewald_frame_after(c, s, 0), gpu = ewald_frame_after(c, s, 3);
    for (std::size_t i = 0; i < s.size(); ++i) {
        ASSERT_EQ(gpu0.velocity[i], cpu0.velocity[i]) << "i " << i;
        ASSERT_EQ(gpu.velocity[i], cpu.velocity[i]) << "3 steps, i " << i;
        ASSERT_EQ(gpu.position[i], cpu.position[i]) << "3 steps, i " << i;
    }
}

// Contraction and the hardware rsqrt change roundings only. Per velocity component the ~150 summands
// of each of N blocks (term allowance 256 u_w relative to the absolute sum, O(mu0 |F|) per block)
// give at most 2 x 256 u_w N |F|_max mu0 between two builds of the sum.
TEST_P(RpyEwaldFastMathKernels, AgreeWithTheCpuToTheRoundingOfTheSum) {
    using namespace stokesian;
    using namespace stokesian::test_support::rpy_ewald_conformance;
    const initial_state s = periodic_spheres();
    const engine_config c = ewald_config(GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    const frame cpu = ewald_frame_after(cpu_ewald_config(GetParam()), s, 0);
    const double u = c.precision.hi == precision::f64 ? 0x1p-53 : 0x1p-24;
    const frame gpu = ewald_frame_after(c, s, 0);
    for (std::size_t i = 0; i < s.size(); ++i)
        ASSERT_NEAR(gpu.velocity[i].z, cpu.velocity[i].z, 2 * 256 * u * double(s.size()) * 1.2) << "i " << i;
}
