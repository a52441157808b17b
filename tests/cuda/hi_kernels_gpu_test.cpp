// The fast HI kernels against the exact ones (label gpu). The exact kernels reproduce the CPU bit
// for bit (cuda_backend_test.cpp); fast-split differs by summation order (G lanes per target) and by
// the hardware reciprocal square root with FMA contraction, within derived bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "support/require_device.hpp"

using namespace stokesian;

namespace {

struct system_under_test {
    engine_config config;
    initial_state state;
    std::vector<vec3<double>> magnitude;  // sum_j |mu_ij . F_j| per component, in double
};

system_under_test random_system(std::size_t n, unsigned seed) {
    system_under_test s;
    const double edge = std::cbrt(double(n) / 0.05);
    s.config.system.box = {true, {edge, edge, edge}};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2), g(-1, 1);
    for (std::size_t i = 0; i < n; ++i) {
        s.state.positions.push_back({u(rng), u(rng), u(rng)});
        s.state.external_forces.push_back({0.3 * g(rng), 0.3 * g(rng), -1.0 + 0.2 * g(rng)});
    }
    const auto p = make_interaction_parameters<double>(s.config.system);
    s.magnitude.assign(n, {0, 0, 0});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const vec3<double> t = hydrodynamic_contribution(i == j, s.state.positions[i], s.state.positions[j],
                                                             s.state.external_forces[j], p);
            s.magnitude[i] = s.magnitude[i] + vec3<double>{std::fabs(t.x), std::fabs(t.y), std::fabs(t.z)};
        }
    return s;
}

frame initial_velocities(engine_config c, const initial_state& s, const std::string& kernel) {
    c.backend = "cuda";
    c.hi_kernel = kernel;
    auto e = make_engine(c, s);
    frame f;
    e->read_frame(f);
    return f;
}

double unit(precision p) { return std::ldexp(1.0, p == precision::f64 ? -53 : p == precision::ds ? -48 : -24); }

}  // namespace

TEST(HiKernels, FastSplitAgreesWithTheExactKernelsWithinDerivedBounds) {
    REQUIRE_DEVICE();
    // N = 3000: the split kernel uses G = 32 lanes per target on a 132-SM GPU.
    const system_under_test s = random_system(3000, 21);
    const double n = 3000;
    for (precision hi : {precision::f32, precision::ds, precision::f64}) {
        engine_config c = s.config;
        c.precision = {hi, precision::f64};
        const frame exact = initial_velocities(c, s.state, "tiling");
        // Bounds, per velocity component i, with M_i = sum_j |t_ij| (computed in double):
        //  - another order of summation of the same N terms: |d| <= 2 gamma_(N-1) M_i,
        //    gamma_k = k u_a / (1 - k u_a), u_a the accumulator's unit roundoff (ds: 2u^2 per
        //    addition, JMP 2017; the order-independent part of the error is common to both);
        //  - fast math: each term t_ij has <= 12 roundings in the working precision, the reciprocal
        //    square root adds <= 2 ulp (rsqrtf) where sqrt and division had 1: <= 16 u_w relative per
        //    term on either side, so |d| <= 2 * 16 u_w M_i.
        const double u_w = hi == precision::f64 ? unit(precision::f64) : unit(precision::f32);
        const double u_a = hi == precision::ds ? 2 * std::ldexp(1.0, -48) : unit(hi);
        const double gamma = (n - 1) * u_a / (1 - (n - 1) * u_a);
        struct expectation {
            const char* kernel;
            bool reorders, fast;
        };
        for (const expectation e : {expectation{"fast-split", true, true}}) {
            const frame f = initial_velocities(c, s.state, e.kernel);
            double worst_ratio = 0.0;
            for (std::size_t i = 0; i < s.state.size(); ++i) {
                const double m[3] = {s.magnitude[i].x, s.magnitude[i].y, s.magnitude[i].z};
                const double d[3] = {f.velocity[i].x - exact.velocity[i].x, f.velocity[i].y - exact.velocity[i].y,
                                     f.velocity[i].z - exact.velocity[i].z};
                for (int k = 0; k < 3; ++k) {
                    const double bound = ((e.reorders ? 2 * gamma : 0.0) + (e.fast ? 32 * u_w : 0.0)) * m[k];
                    ASSERT_LE(std::fabs(d[k]), bound) << e.kernel << " hi=" << to_string(hi) << " particle " << i;
                    if (bound > 0) worst_ratio = std::max(worst_ratio, std::fabs(d[k]) / bound);
                }
            }
            RecordProperty(std::string(e.kernel) + "_" + std::string(to_string(hi)) + "_worst_fraction_of_bound",
                           std::to_string(worst_ratio));
        }
    }
}

TEST(HiKernels, SplitKernelsAreDeterministic) {
    REQUIRE_DEVICE();
    const system_under_test s = random_system(1000, 5);
    for (const char* kernel : {"fast-split", "fast-far-split"}) {
        engine_config c = s.config;
        c.precision = {precision::ds, precision::ds};
        const frame a = initial_velocities(c, s.state, kernel), b = initial_velocities(c, s.state, kernel);
        for (std::size_t i = 0; i < s.state.size(); ++i) ASSERT_EQ(a.velocity[i], b.velocity[i]) << kernel;
    }
}
