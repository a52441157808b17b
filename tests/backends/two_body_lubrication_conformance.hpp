#pragma once
// The two-body lubrication model (engine/docs/lubrication.md, "The two-body model") on every
// registered backend, one body per behaviour, parametrised over (backend x precision mode) and, for
// the comparisons with the CPU, the HI kernel (support/backend_modes.hpp). Included by
// two_body_lubrication_conformance_test.cpp (the host backends, label quick) and
// two_body_lubrication_conformance_gpu_test.cpp (the device backends, label gpu).
//   TwoBodyLubricationConformance: an isolated pair in the parameter's mode against f64.
//   TwoBodyLubricationDenseSolve (the modes of implicit_solver_modes): the cluster against a dense solve.
//   TwoBodyLubricationResume ({f64, f64} and {ds, f32}): a restored run is bit for bit the run.
//   TwoBodyLubricationCpuOrderKernels: every backend but the CPU, its kernels that sum in the CPU's
//     order, against the CPU bit for bit. Why bitwise: the model is evaluated by the same host/device
//     functions (physics/two_body_lubrication.hpp) from + - * /, sqrt and the portable logarithm (no
//     device log, unlike the paper's model), with the table read from a function-local static on both
//     sides; the IEEE device flags (no contraction, correctly rounded division and square root) make
//     each operation the CPU's; the solver's bookkeeping is the same code
//     (core/lubrication_solver.hpp), its vector operations and dot products the same arithmetic in the
//     same order (numeric/krylov_arithmetic.hpp), and these HI kernels sum in the CPU's order.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "support/backend_modes.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/converged_solves.hpp"
#include "support/implicit_lubrication_checks.hpp"
#include "support/two_sphere_table.hpp"

class TwoBodyLubricationConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class TwoBodyLubricationDenseSolve : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class TwoBodyLubricationResume : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class TwoBodyLubricationCpuOrderKernels : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {
};

namespace stokesian::test_support::two_body_conformance {

// The modes the resume is checked in: the reference and a mixed one.
inline constexpr precision_mode resume_modes[] = {{precision::f64, precision::f64}, {precision::ds, precision::f32}};

// The two-body model with the implicit scheme in an open box, dt = 0.001, one thread, on the CPU.
inline engine_config two_body_model(precision_mode mode = reference_precision_mode) {
    engine_config c = testing_support::isolated_pair_config(lubrication_model::two_body, mode);
    c.dt = 0.001;
    return c;
}

// `samples` frames: at the start and after every `every` steps.
inline std::vector<frame> frames_of(const engine_config& c, const initial_state& s, int samples, std::uint64_t every) {
    auto e = make_engine(c, s);
    std::vector<frame> out(samples);
    for (int k = 0; k < samples; ++k) {
        if (k > 0) e->advance(every);
        e->read_frame(out[k]);
    }
    return out;
}

inline void expect_bitwise(const std::vector<frame>& got, const std::vector<frame>& cpu, const std::string& what) {
    ASSERT_EQ(got.size(), cpu.size());
    for (std::size_t k = 0; k < cpu.size(); ++k) {
        SCOPED_TRACE(what + ", sample " + std::to_string(k));
        ASSERT_EQ(got[k].step, cpu[k].step);
        for (std::size_t i = 0; i < cpu[k].position.size(); ++i) {
            ASSERT_EQ(got[k].position[i], cpu[k].position[i]) << "particle " << i;
            ASSERT_EQ(got[k].velocity[i], cpu[k].velocity[i]) << "particle " << i;
            ASSERT_EQ(got[k].force[i], cpu[k].force[i]) << "particle " << i;
        }
        EXPECT_EQ(got[k].lubrication.iterations, cpu[k].lubrication.iterations);
        EXPECT_EQ(got[k].lubrication.relative_residual, cpu[k].lubrication.relative_residual);
        EXPECT_EQ(got[k].lubrication.lubricated_pairs, cpu[k].lubrication.lubricated_pairs);
    }
}

inline initial_state oblique_pair_at(double gap, vec3<double> f0, vec3<double> f1) {
    initial_state s;
    s.positions = {{-1 - 0.5 * gap, 0.25, 0}, {1 + 0.5 * gap, 0.25, 0}};
    s.external_forces = {f0, f1};
    return s;
}

}  // namespace stokesian::test_support::two_body_conformance

TEST_P(TwoBodyLubricationConformance, IsolatedPairIsTheDoubleOneWithinTheDerivedBound) {
    // The parameter's mode against f64 on the CPU at the positions the mode holds (read back, so the
    // storage's rounding of the positions is common to both). What differs: the working precision W
    // of the gap (r/a - 2 from W coordinates, |r| <= 3: <= 8u_W (2 + s) absolute) which a mode's
    // resistance feels with d ln R / d ln s <= 1, the evaluation (64u_W, the cluster check's
    // derivation in support/implicit_lubrication_checks.hpp), the mobility (8u_W) and the solve (the
    // true residual rho of each, relative to |F|, moves the mode's velocity by rho |F| / R <= 2 rho
    // relative).
    using namespace stokesian;
    using namespace stokesian::test_support::two_body_conformance;
    const engine_config reference = two_body_model();
    const engine_config c = test_support::on_backend(two_body_model(), GetParam());
    if (const std::string why = test_support::skip_reason(c, 2); !why.empty()) GTEST_SKIP() << why;
    const double u = testing_support::working_unit_roundoff(c.precision.hi);
    for (const double gap : {1e-3, 0.1, 1.0, 3.0}) {
        for (const vec3<double> force : {vec3<double>{1, 0, 0}, vec3<double>{0, 1, 0}}) {
            for (const double sign : {1.0, -1.0}) {
                initial_state s;
                s.positions = {{-1 - 0.5 * gap, 0, 0}, {1 + 0.5 * gap, 0, 0}};
                s.external_forces = {force, sign * force};
                auto e = make_engine(c, s);
                frame f;
                e->read_frame(f);
                initial_state held = s;
                held.positions = f.position;
                auto r = make_engine(reference, held);
                frame g;
                r->read_frame(g);
                const double held_gap = (f.position[1].x - f.position[0].x) - 2.0;
                const double bound = 8 * u * (2 + held_gap) / held_gap + 80 * u +
                                     2 * (f.lubrication.relative_residual + g.lubrication.relative_residual);
                const double v = dot(f.velocity[0], force), v_ref = dot(g.velocity[0], force);
                EXPECT_NEAR(v / v_ref, 1.0, bound) << "s = " << gap << ", sign " << sign;
            }
        }
    }
}

TEST_P(TwoBodyLubricationDenseSolve, ClusterVelocitiesMatchADenseSolve) {
    // The twelve-sphere cluster of the paper-model tests with the two-body model, three samples: v
    // against (I + mu zeta)^-1 mu F computed densely in double, within the bound of
    // expect_cluster_matches_dense_solve (its two-body terms derived there); iterations within CG's.
    using namespace stokesian;
    using namespace stokesian::testing_support;
    const initial_state s = lubricated_cluster();
    const engine_config c = test_support::on_backend(test_support::two_body_conformance::two_body_model(), GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    auto e = make_engine(c, s);
    frame f;
    for (int k = 0; k < 3; ++k) {
        e->read_frame(f);
        expect_cluster_matches_dense_solve(f, s.external_forces, c.system, working_unit_roundoff(c.precision.hi),
                                           "step " + std::to_string(f.step));
        const dense_reference ref = dense_implicit_solution(f.position, s.external_forces, c.system);
        EXPECT_LE(f.lubrication.iterations,
                  cg_iteration_bound(ref.spectral_radius, lubrication_tolerance(c.precision)));
        EXPECT_GT(f.lubrication.lubricated_pairs, 11u);  // the paper's 11 within 3a, more within 5.5a
        e->advance(5);
    }
}

TEST_P(TwoBodyLubricationResume, ResumesBitForBit) {
    using namespace stokesian;
    const initial_state s = testing_support::lubricated_cluster();
    const engine_config c = test_support::on_backend(test_support::two_body_conformance::two_body_model(), GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    testing_support::expect_restored_run_is_bitwise(c, s, 12, 18);
}

TEST_P(TwoBodyLubricationCpuOrderKernels, IsolatedPairIsTheCpusBitForBit) {
    // Pairs from the near-contact forms (s = 1e-5) through the table's segments to the taper (r =
    // 5.2a), pushed together obliquely (every mode excited), 20 steps each.
    using namespace stokesian;
    using namespace stokesian::test_support::two_body_conformance;
    const engine_config c = test_support::on_backend(two_body_model(), GetParam());
    if (const std::string why = test_support::skip_reason(c, 2); !why.empty()) GTEST_SKIP() << why;
    const engine_config cpu = two_body_model(c.precision);
    for (const double gap : {1e-5, 1e-3, 0.1, 1.0, 3.2}) {
        const initial_state s = oblique_pair_at(gap, {1, 0.25, 0.5}, {-1, 0, -0.5});
        expect_bitwise(frames_of(c, s, 3, 10), frames_of(cpu, s, 3, 10), "s = " + std::to_string(gap));
    }
}

TEST_P(TwoBodyLubricationCpuOrderKernels, ClusterRunsBitForBitAsOnTheCpu) {
    // The twelve-sphere cluster (many pairs within 5.5a, rho(zeta mu) ~ 50, 10-16 iterations per
    // solve): 30 steps, every solve the CPU's to the bit (iterations, residuals, refinement).
    using namespace stokesian;
    using namespace stokesian::test_support::two_body_conformance;
    const initial_state s = testing_support::lubricated_cluster();
    const engine_config c = test_support::on_backend(two_body_model(), GetParam());
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    expect_bitwise(frames_of(c, s, 4, 10), frames_of(two_body_model(c.precision), s, 4, 10), "cluster");
}
