// The two-body lubrication model on the CUDA backend (label gpu; skipped without a device): bit for
// bit the CPU's with the exact HI kernels, in every precision mode. Why bitwise: the model is
// evaluated by the same host/device functions (physics/two_body_lubrication.hpp) from + - * /, sqrt
// and the portable logarithm (no device log, unlike the paper's model), with the table read from a
// function-local static on both sides; the IEEE device flags (no contraction, correctly rounded
// division and square root) make each operation the CPU's; the solver's bookkeeping is the same
// code (core/lubrication_solver.hpp), its vector operations and dot products the same arithmetic in
// the same order (numeric/krylov_arithmetic.hpp), and these four HI kernels sum in the CPU's order.
// engine/docs/lubrication.md, "The two-body model".
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "support/converged_solves.hpp"
#include "support/implicit_lubrication_checks.hpp"
#include "support/multi_device.hpp"
#include "support/require_device.hpp"

using namespace stokesian;
using namespace stokesian::testing_support;

namespace {

// The HI kernels that sum in the CPU's order (engine/docs/far-kernels.md).
const char* const cpu_order_kernels[] = {"naive", "tiling", "small-tiling", "far-tiling", "ordered-split"};

engine_config two_body(const precision_mode& mode, const std::string& backend, const std::string& kernel = "") {
    engine_config c = implicit_lubrication_config(mode, 0.001, backend);
    c.system.lubrication.model = lubrication_model::two_body;
    c.hi_kernel = kernel;
    c.threads = 1;
    return c;
}

// Runs `steps` steps, reading a frame at the start and after every `every` steps.
std::vector<frame> frames_of(const engine_config& c, const initial_state& s, int samples, std::uint64_t every) {
    auto e = make_engine(c, s);
    std::vector<frame> out(samples);
    for (int k = 0; k < samples; ++k) {
        if (k > 0) e->advance(every);
        e->read_frame(out[k]);
    }
    return out;
}

void expect_bitwise(const std::vector<frame>& gpu, const std::vector<frame>& cpu, const std::string& what) {
    ASSERT_EQ(gpu.size(), cpu.size());
    for (std::size_t k = 0; k < cpu.size(); ++k) {
        SCOPED_TRACE(what + ", sample " + std::to_string(k));
        ASSERT_EQ(gpu[k].step, cpu[k].step);
        for (std::size_t i = 0; i < cpu[k].position.size(); ++i) {
            ASSERT_EQ(gpu[k].position[i], cpu[k].position[i]) << "particle " << i;
            ASSERT_EQ(gpu[k].velocity[i], cpu[k].velocity[i]) << "particle " << i;
            ASSERT_EQ(gpu[k].force[i], cpu[k].force[i]) << "particle " << i;
        }
        EXPECT_EQ(gpu[k].lubrication.iterations, cpu[k].lubrication.iterations);
        EXPECT_EQ(gpu[k].lubrication.relative_residual, cpu[k].lubrication.relative_residual);
        EXPECT_EQ(gpu[k].lubrication.lubricated_pairs, cpu[k].lubrication.lubricated_pairs);
    }
}

initial_state pair_at(double gap, vec3<double> f0, vec3<double> f1) {
    initial_state s;
    s.positions = {{-1 - 0.5 * gap, 0.25, 0}, {1 + 0.5 * gap, 0.25, 0}};
    s.external_forces = {f0, f1};
    return s;
}

}  // namespace

TEST(TwoBodyLubricationGpu, IsolatedPairIsTheCpusBitForBitInEveryPrecisionMode) {
    // Pairs from the near-contact forms (s = 1e-5) through the table's segments to the taper (r =
    // 5.2a), pushed together obliquely (every mode excited), 20 steps each, all nine modes.
    REQUIRE_DEVICE();
    for (const precision_mode& mode : precision_modes)
        for (const double gap : {1e-5, 1e-3, 0.1, 1.0, 3.2}) {
            const initial_state s = pair_at(gap, {1, 0.25, 0.5}, {-1, 0, -0.5});
            const std::vector<frame> cpu = frames_of(two_body(mode, "cpu"), s, 3, 10);
            for (const char* kernel : cpu_order_kernels)
                expect_bitwise(frames_of(two_body(mode, "cuda", kernel), s, 3, 10), cpu,
                               std::string(to_string(mode)) + ", s = " + std::to_string(gap) + ", " + kernel);
        }
}

TEST(TwoBodyLubricationGpu, ClusterRunsBitForBitAsOnTheCpuInEveryPrecisionMode) {
    // The twelve-sphere cluster (many pairs within 5.5a, rho(zeta mu) ~ 50, 10-16 iterations per
    // solve): 30 steps, every solve the CPU's to the bit (iterations, residuals, refinement).
    REQUIRE_DEVICE();
    const initial_state s = lubricated_cluster();
    for (const precision_mode& mode : precision_modes) {
        const std::vector<frame> cpu = frames_of(two_body(mode, "cpu"), s, 4, 10);
        for (const char* kernel : cpu_order_kernels)
            expect_bitwise(frames_of(two_body(mode, "cuda", kernel), s, 4, 10), cpu,
                           std::string(to_string(mode)) + ", " + kernel);
    }
}

TEST(TwoBodyLubricationGpu, ClusterMatchesTheDenseSolve) {
    // As on the CPU (TwoBodyLubricationEngine.ClusterVelocitiesMatchADenseSolve), on the device.
    REQUIRE_DEVICE();
    const initial_state s = lubricated_cluster();
    for (const precision_mode& mode : implicit_solver_modes) {
        const engine_config c = two_body(mode, "cuda");
        auto e = make_engine(c, s);
        frame f;
        e->read_frame(f);
        expect_cluster_matches_dense_solve(f, s.external_forces, c.system, working_unit_roundoff(mode.hi),
                                           "cuda two-body " + std::string(to_string(mode)));
    }
}

TEST(TwoBodyLubricationGpu, ResumesBitForBitOnTheDevice) {
    REQUIRE_DEVICE();
    expect_restored_run_is_bitwise(two_body({precision::ds, precision::f32}, "cuda"), lubricated_cluster(), 12, 18);
    expect_restored_run_is_bitwise(two_body({precision::f64, precision::f64}, "cuda"), lubricated_cluster(), 12, 18);
}

TEST(TwoBodyLubricationGpu, MultiDeviceRunsAreBitwiseOneDevice) {
    // The multi-device engine runs the same pair kernels on every replica (cuda_engine_lubrication.cuh)
    // and slices only the mobility products: 30 steps of the cluster, every mode, bit for bit one
    // device's (state and frame).
    REQUIRE_TWO_DEVICES();
    const initial_state s = lubricated_cluster();
    for (const precision_mode& mode : precision_modes) {
        const engine_config c = two_body(mode, "cuda", "tiling");
        const test_support::run_end one = test_support::run_on(c, s, 30, {0});
        for (const std::vector<int>& set : test_support::multi_device_sets())
            test_support::expect_same_end(
                one, test_support::run_on(c, s, 30, set),
                "two-body " + to_string(mode) + " on devices " + test_support::device_list_text(set));
    }
}

TEST(TwoBodyLubricationGpu, FusedPathRefusesTheModel) {
    // The model needs the implicit scheme, which the fused engine does not run.
    REQUIRE_DEVICE();
    engine_config c = two_body({precision::f64, precision::f64}, "cuda", "fused");
    EXPECT_THROW(make_engine(c, pair_at(0.1, {1, 0, 0}, {-1, 0, 0})), input_error);  // run.hi_kernel, exit 2
}
