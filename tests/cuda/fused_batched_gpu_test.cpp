// The fused small-system path of the CUDA backend (label gpu; skipped without a device): bitwise
// against the step-by-step CUDA engine and the CPU all-pairs loop, each mode a test of its own; the
// batch's choice of the device. Each batch member bit for bit its run alone, on every backend that
// batches: tests/backends/batch_conformance.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/frames.hpp"
#include "support/fused_runs.hpp"
#include "support/require_device.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using test_support::perturbed_copies;
using test_support::random_spheres;

namespace {

scenario load(const char* name, const std::string& case_name = {}) {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/" + name, case_name);
}

// Positions, velocities, images and forces bit for bit (vec3<double> ==: every stored type widens
// exactly, so equal doubles mean equal stored values; -0 == +0 is the only blind spot).
using test_support::expect_bitwise_equal;

using test_support::frame_after;

// The three paths for one configuration: CPU all-pairs, CUDA step by step (default kernel), CUDA fused.
struct three_paths {
    frame cpu, cuda, fused;
};
three_paths run_three(engine_config c, const initial_state& s, std::uint64_t steps) {
    three_paths r;
    c.backend = "cpu";
    c.hi_kernel = "all-pairs";
    c.threads = 1;
    r.cpu = frame_after(c, s, steps);
    c.backend = "cuda";
    c.hi_kernel = "tiling";  // the step-by-step engine (auto would take the fused one)
    r.cuda = frame_after(c, s, steps);
    c.hi_kernel = "fused";
    r.fused = frame_after(c, s, steps);
    return r;
}

double component(vec3<double> v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

// One run of the fused engine sampled on the device against the same run stepped on the host.
struct sampled_case {
    std::string what;
    engine_config config;
    initial_state state;
    std::uint64_t samples, interval;
};

// Samples recorded on the device equal advance(interval) + read_frame() repeated, field by field.
void expect_sampled_equals_stepped(sampled_case k) {
    k.config.backend = "cuda";
    k.config.hi_kernel = "fused";
    auto sampled = cuda::make_fused_engine(k.config, k.state);
    auto stepped = cuda::make_fused_engine(k.config, k.state);
    sampled->advance(5);  // samples start from the current step
    stepped->advance(5);
    test_support::expect_samples_equal_steps(*sampled, *stepped, k.samples, k.interval, k.what);
    EXPECT_EQ(sampled->step(), 5 + k.samples * k.interval) << k.what;
}

}  // namespace

// The fused path in each of the nine modes, in each of the paper's modes, in the modes of the
// largest block (f64 and ds/f32).
class FusedPathEveryMode : public testing::TestWithParam<precision_mode> {};
class FusedPathPaperModes : public testing::TestWithParam<precision_mode> {};
class FusedPathLargestBlock : public testing::TestWithParam<precision_mode> {};

namespace {

const precision_mode largest_block_modes[] = {{precision::f64, precision::f64}, {precision::ds, precision::f32}};

}  // namespace

INSTANTIATE_TEST_SUITE_P(OnADevice, FusedPathEveryMode, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, FusedPathPaperModes, testing::ValuesIn(paper_precision_modes),
                         test_support::precision_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, FusedPathLargestBlock, testing::ValuesIn(largest_block_modes),
                         test_support::precision_mode_name);

// No short-range forces: +, -, *, /, sqrt in one fixed order, no FMA contraction anywhere, so the
// fused kernel (pair-warp, N = 4), the step-by-step kernels and the CPU agree bit for bit.
TEST_P(FusedPathEveryMode, TetrahedronIsBitwiseEqualToStepByStepAndCpu) {
    REQUIRE_DEVICE();
    const scenario s = load("tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.precision = GetParam();
    for (std::uint64_t steps : {std::uint64_t(1), std::uint64_t(2000)}) {
        const three_paths r = run_three(c, s.particles, steps);
        const std::string what = to_string(c.precision) + " after " + std::to_string(steps) + " steps";
        expect_bitwise_equal(r.fused, r.cuda, "fused vs cuda, " + what);
        expect_bitwise_equal(r.fused, r.cpu, "fused vs cpu, " + what);
    }
}

// advance() split over several calls (and so launches) continues the same trajectory.
TEST(FusedPath, AdvanceInPiecesEqualsOneAdvance) {
    REQUIRE_DEVICE();
    const scenario s = load("tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "cuda";
    c.hi_kernel = "fused";
    c.precision = {precision::ds, precision::ds};
    auto whole = make_engine(c, s.particles);
    auto pieces = make_engine(c, s.particles);
    EXPECT_EQ(whole->description().hi_kernel, "fused");
    whole->advance(3000);
    for (std::uint64_t n : {1u, 999u, 1u, 1999u}) pieces->advance(n);
    EXPECT_EQ(pieces->step(), 3000u);
    frame a, b;
    whole->read_frame(a);
    pieces->read_frame(b);
    expect_bitwise_equal(a, b, "3000 steps in one call vs four");
}

// With lubrication the device's logf and the host's logf may differ by 1 ulp: fused vs step-by-step
// CUDA stays bitwise (same device code), fused vs CPU within a bound derived below.
TEST_P(FusedPathEveryMode, ApproachingPairsWithLubrication) {
    REQUIRE_DEVICE();
    for (const char* case_name : {"head_on", "oblique"}) {
        const scenario s = load("approaching_pairs.toml", case_name);
        engine_config c = make_engine_config(s);
        c.precision = GetParam();
        const precision hi = c.precision.hi;
        const std::string what = std::string(case_name) + " " + to_string(c.precision);
        // 500 steps (t = 0.5): before the explicit scheme's instability (t ~ 0.68, see the
        // scenario), though bitwise equality between the device paths would hold regardless.
        const three_paths r500 = run_three(c, s.particles, 500);
        expect_bitwise_equal(r500.fused, r500.cuda, "fused vs cuda, 500 steps, " + what);

        const three_paths r1 = run_three(c, s.particles, 1);
        expect_bitwise_equal(r1.fused, r1.cuda, "fused vs cuda, 1 step, " + what);
        // vs CPU after one step. The initial forces use zero previous velocities, so the
        // lubrication term is exactly zero on both sides, the initial velocities and the
        // first drift agree bitwise: positions are equal. The first lubrication forces then
        // see log(s) with s ~ 0.5 (|log s| ~ 0.69, ulp 2^-24 resp. 2^-53 = u_w, the unit
        // roundoff of the working precision): 1 ulp of log s changes the squeeze/shear
        // resistances by <= 9/40 u_w, and each of the <= 8 operations after the log (the
        // resistances, the projection, the sum with F_ext) may round the two inputs apart
        // by one more ulp of a value of magnitude <= 2 (|F_ext| = 1 or 1.1, |F_lub| <= 0.7,
        // |v_ij| <= 1): |dF| <= (9/40 + 8) * 2 u_w * 2 < 34 u_w; we assert 64 u_w.
        // Velocities: v_i = mu0 F_i + mu_ij F_j (|mu| <= 1), each term off by <= |dF| plus
        // <= 6 differently rounded operations on values <= 2: |dv| <= 2 * 64 u_w + 24 u_w;
        // we assert 256 u_w (the ds accumulator only adds rounding below u_w^2).
        const double u_w = hi == precision::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
        const double force_bound = 64 * u_w, velocity_bound = 256 * u_w;
        for (std::size_t i = 0; i < 2; ++i) {
            ASSERT_EQ(r1.fused.position[i], r1.cpu.position[i]) << what << " particle " << i;
            ASSERT_EQ(r1.fused.image[i], r1.cpu.image[i]) << what << " particle " << i;
            for (int k = 0; k < 3; ++k) {
                ASSERT_NEAR(component(r1.fused.force[i], k), component(r1.cpu.force[i], k), force_bound)
                    << what << " force, particle " << i << " component " << k;
                ASSERT_NEAR(component(r1.fused.velocity[i], k), component(r1.cpu.velocity[i], k), velocity_bound)
                    << what << " velocity, particle " << i << " component " << k;
            }
        }
    }
}

// The block kernel (N > 5): one warp (N <= 32, __syncwarp) and several warps (__syncthreads), with
// and without short-range forces (lubrication and the exponential pair force).
TEST_P(FusedPathPaperModes, BlockKernelIsBitwiseEqualToStepByStep) {
    REQUIRE_DEVICE();
    for (std::size_t n : {6u, 32u, 45u, 200u}) {
        const double edge = 12.0 + 0.25 * double(n);
        const initial_state s = random_spheres(n, edge, 2.6, unsigned(n));
        for (bool short_range : {false, true}) {
            engine_config c;
            c.system.box = {true, {edge, edge, edge}};
            c.system.lubrication.enabled = short_range;
            if (short_range) c.system.pair_force = {pair_force_kind::exponential, 1.0, 0.1, 2.5};
            c.dt = 0.001;
            c.precision = GetParam();
            const std::string what =
                "N = " + std::to_string(n) + (short_range ? " short-range " : " ") + to_string(c.precision);
            const three_paths r = run_three(c, s, 200);
            expect_bitwise_equal(r.fused, r.cuda, "fused vs cuda, " + what);
            if (!short_range) expect_bitwise_equal(r.fused, r.cpu, "fused vs cpu, " + what);
        }
    }
}

// The largest system one block holds: 1024 threads, and with short-range forces in double precision
// 5 x 1024 x 24 bytes = 120 KiB of shared memory (above the default 48 KiB: the engine raises the
// kernel's limit).
TEST_P(FusedPathLargestBlock, IsBitwiseEqualToStepByStep) {
    REQUIRE_DEVICE();
    const double edge = 40.0;
    const initial_state s = random_spheres(1024, edge, 2.4, 12);
    engine_config c;
    c.system.box = {true, {edge, edge, edge}};
    c.system.lubrication.enabled = true;
    c.dt = 0.001;
    c.backend = "cuda";
    c.precision = GetParam();
    c.hi_kernel = "tiling";
    const frame stepped = frame_after(c, s, 5);
    c.hi_kernel = "fused";
    expect_bitwise_equal(frame_after(c, s, 5), stepped, "N = 1024, " + to_string(c.precision));
}

// Beyond one block only the grid kernel runs a system, and it sums ordered-split's way: a tensor
// without a far form (Oseen) at N = 1025 is refused, naming N and why.
TEST(FusedPath, RejectsALargeSystemTheGridKernelCannotSum) {
    REQUIRE_DEVICE();
    const initial_state s = random_spheres(1025, 60.0, 2.2, 1);
    engine_config c;
    c.system.box = {true, {60, 60, 60}};
    c.system.tensor = hydrodynamic_tensor::oseen;
    c.backend = "cuda";
    c.hi_kernel = "fused";
    try {
        make_engine(c, s);
        FAIL() << "expected input_error";
    } catch (const input_error& e) {  // run.hi_kernel names what the user asked for: one line, exit 2
        const std::string what = e.what();
        EXPECT_NE(what.find("1025"), std::string::npos) << what;
        EXPECT_NE(what.find("far form"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

// Samples recorded on the device equal advance(interval) + read_frame() repeated, field by field:
// the pair-warp kernel on the tetrahedron, 20 samples 37 steps apart.
TEST_P(FusedPathPaperModes, SampledTetrahedronEqualsRepeatedAdvance) {
    REQUIRE_DEVICE();
    const scenario tet = load("tetrahedron.toml");
    engine_config c = make_engine_config(tet);
    c.precision = GetParam();
    expect_sampled_equals_stepped({"tetrahedron " + to_string(c.precision), c, tet.particles, 20, 37});
}

// The same for more samples than one launch holds, an interval longer than one launch, the
// approaching pair with lubrication and the block kernel.
TEST(FusedPath, SampledFramesEqualRepeatedAdvance) {
    REQUIRE_DEVICE();
    const scenario tet = load("tetrahedron.toml");
    {
        // More samples than one launch holds (2^18 / 37 = 7084 per launch): two launches.
        engine_config c = make_engine_config(tet);
        c.precision = {precision::f32, precision::f32};
        expect_sampled_equals_stepped({"tetrahedron, 8000 samples", c, tet.particles, 8000, 37});
        // An interval longer than one launch's step budget (2^18).
        expect_sampled_equals_stepped({"tetrahedron, interval 300000", c, tet.particles, 2, 300000});
    }
    {
        const scenario pairs = load("approaching_pairs.toml", "oblique");
        engine_config c = make_engine_config(pairs);
        c.precision = {precision::ds, precision::f32};
        expect_sampled_equals_stepped({"oblique pair (lubrication)", c, pairs.particles, 12, 25});
    }
    {
        engine_config c;
        c.system.box = {true, {40, 40, 40}};
        c.system.lubrication.enabled = true;
        c.dt = 0.001;
        c.precision = {precision::f64, precision::ds};
        expect_sampled_equals_stepped({"block kernel, N = 40", c, random_spheres(40, 40.0, 2.6, 9), 10, 13});
    }
}

// auto batches on the device with the fused kernel; a batch refuses the step-by-step kernels.
TEST(BatchedPath, AutoPicksTheDeviceAndRejectsOtherKernels) {
    REQUIRE_DEVICE();
    const scenario s = load("tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "auto";
    auto batch = make_batch_engine(c, perturbed_copies(s.particles, 3, 0.1, {0.01, 0.01}, 1));
    const auto d = batch->description();
    EXPECT_EQ(d.backend, "cuda");
    EXPECT_EQ(d.hi_kernel, "fused");
    EXPECT_EQ(d.details.at("systems"), "3");
    c.backend = "cuda";
    c.hi_kernel = "tiling";
    EXPECT_THROW(make_batch_engine(c, perturbed_copies(s.particles, 3, 0.1, {0.01, 0.01}, 1)), std::invalid_argument);
}
