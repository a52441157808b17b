// Tensor "rpy-ewald" on the CUDA backend against the CPU backend (label gpu; skipped without a
// device). The Ewald block uses only +, -, *, /, sqrt, floor and ldexp (physics/portable_math.hpp:
// its own exp, erfc and sincos), compiled without contraction on both sides, so the exact kernels
// reproduce the CPU bit for bit in every precision mode; the fast kernels (FMA contraction, hardware
// rsqrt) agree to the rounding of the sum.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "support/require_device.hpp"

using namespace stokesian;

namespace {

// N = 64 non-overlapping spheres in a periodic cube of edge 12 (n = 0.037 a^-3), an overlapping pair
// (r = 1.5a: the overlap form) and a pair exactly L/2 apart along x among them.
initial_state periodic_spheres() {
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

engine_config ewald_config(precision_mode mode, const std::string& backend, const std::string& kernel) {
    engine_config c;
    c.system.tensor = hydrodynamic_tensor::rpy_ewald;
    c.system.box = {true, {12.0, 12.0, 12.0}};
    c.dt = 1e-3;
    c.precision = mode;
    c.backend = backend;
    c.hi_kernel = kernel;
    return c;
}

frame after(const engine_config& c, const initial_state& s, std::uint64_t steps) {
    const auto e = make_engine(c, s);
    if (steps) e->advance(steps);
    frame f;
    e->read_frame(f);
    return f;
}

}  // namespace

TEST(RpyEwaldGpu, ExactKernelsAreBitwiseTheCpuInEveryMode) {
    REQUIRE_DEVICE();
    const initial_state s = periodic_spheres();
    for (const precision_mode mode : precision_modes) {
        const frame cpu0 = after(ewald_config(mode, "cpu", ""), s, 0), cpu = after(ewald_config(mode, "cpu", ""), s, 3);
        for (const char* kernel : {"naive", "tiling", "small-tiling", "far-tiling", "ordered-split"}) {
            const frame gpu0 = after(ewald_config(mode, "cuda", kernel), s, 0);
            const frame gpu = after(ewald_config(mode, "cuda", kernel), s, 3);
            for (std::size_t i = 0; i < s.size(); ++i) {
                ASSERT_EQ(gpu0.velocity[i], cpu0.velocity[i]) << to_string(mode) << " " << kernel << " i " << i;
                ASSERT_EQ(gpu.velocity[i], cpu.velocity[i]) << to_string(mode) << " " << kernel << " 3 steps, i " << i;
                ASSERT_EQ(gpu.position[i], cpu.position[i]) << to_string(mode) << " " << kernel << " 3 steps, i " << i;
            }
        }
    }
}

// The fast kernels: contraction and the hardware rsqrt change roundings only. Per velocity component
// the ~150 summands of each of N blocks (term allowance 256 u_w relative to the absolute sum, O(mu0 |F|)
// per block) give at most 2 x 256 u_w N |F|_max mu0 between two builds of the sum.
TEST(RpyEwaldGpu, FastKernelsAgreeWithTheCpuToTheRoundingOfTheSum) {
    REQUIRE_DEVICE();
    const initial_state s = periodic_spheres();
    for (const precision_mode mode : precision_modes) {
        const frame cpu = after(ewald_config(mode, "cpu", ""), s, 0);
        const double u = mode.hi == precision::f64 ? 0x1p-53 : 0x1p-24;
        for (const char* kernel : {"fast-split", "fast-far-split"}) {
            const frame gpu = after(ewald_config(mode, "cuda", kernel), s, 0);
            for (std::size_t i = 0; i < s.size(); ++i)
                ASSERT_NEAR(gpu.velocity[i].z, cpu.velocity[i].z, 2 * 256 * u * double(s.size()) * 1.2)
                    << to_string(mode) << " " << kernel << " i " << i;
        }
    }
}

TEST(RpyEwaldGpu, FusedKernelRefusesTheBlockTensorWithOneLine) {
    REQUIRE_DEVICE();
    const initial_state s = periodic_spheres();
    try {
        after(ewald_config({precision::f64, precision::f64}, "cuda", "fused"), s, 0);
        FAIL() << "the fused kernel accepted rpy-ewald";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("pair-form tensors only"), std::string::npos) << e.what();
    }
}
