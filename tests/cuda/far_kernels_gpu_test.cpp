// The far-field HI kernels (cuda/hi_far_kernels.cuh, issue #13), label gpu:
//  - far-tiling, ordered-split (cuda/hi_ordered_kernel.cuh) and adding-warps
//    (cuda/hi_adding_warps_kernel.cuh) reproduce the CPU bit for bit in all nine precision modes,
//    ordered-split with every group size it takes, adding-warps in every shape, on configurations that
//    send warps down both paths: the fcc lattice of `bench fcc` in an open box (nearly every warp far; the self pairs
//    take the general path), uniform random positions with overlapping pairs (r < 2a) in an open
//    box, and spheres in a periodic box with a tied pair (a separation of exactly L/2);
//  - fast-far-split agrees with the exact kernels within port-check's rounding bound and gives the
//    same bits run after run.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/port/port_check.hpp"
#include "support/frames.hpp"
#include "support/require_device.hpp"

using namespace stokesian;

namespace {

struct named_system {
    std::string name;
    system_parameters system;
    initial_state state;
};

// bench fcc's input: m cells a side (m = 6: N = 864) at n = 0.1, open box, F = (0, 0, -1).
named_system fcc_open(int cells = 6) {
    named_system s{"fcc open m=" + std::to_string(cells), {}, {}};
    s.state.positions = fcc_lattice(cells, fcc_lattice_constant(0.1));
    s.state.external_forces.assign(s.state.positions.size(), {0, 0, -1});
    s.system.box = {false, {0, 0, 0}};
    return s;
}

// 1000 uniform random centres at n = 0.1 in an open box: thousands of overlapping pairs.
named_system overlapping_open() {
    named_system s{"overlapping open", {}, {}};
    const double edge = std::cbrt(1000 / 0.1);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2), g(-1, 1);
    for (int i = 0; i < 1000; ++i) {
        s.state.positions.push_back({u(rng), u(rng), u(rng)});
        s.state.external_forces.push_back({0.3 * g(rng), 0.3 * g(rng), -1.0});
    }
    s.system.box = {false, {0, 0, 0}};
    return s;
}

// n random centres in a periodic box of edge 40, particles 0 and 1 exactly L/2 apart along x.
named_system tied_periodic(std::size_t n = 700) {
    named_system s{"tied periodic N=" + std::to_string(n), {}, {}};
    const double edge = 40;
    s.system.box = {true, {edge, edge, edge}};
    s.state.positions = {{-edge / 4, 1.0, 2.0}, {edge / 4, 1.0, 2.0}};
    s.state.external_forces = {{0.2, 0.1, -1.0}, {-0.1, 0.3, -1.0}};
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2), g(-1, 1);
    while (s.state.positions.size() < n) {
        s.state.positions.push_back({u(rng), u(rng), u(rng)});
        s.state.external_forces.push_back({0.3 * g(rng), 0.3 * g(rng), -1.0});
    }
    return s;
}

std::vector<named_system> systems() { return {fcc_open(), overlapping_open(), tied_periodic()}; }

// The velocities of the first HI evaluation (at construction) and, with steps > 0, after them.
frame kernel_frame(const named_system& s, precision_mode mode, const std::string& backend, const std::string& kernel,
                   std::uint64_t steps) {
    engine_config c;
    c.system = s.system;
    c.precision = mode;
    c.dt = 0.001;
    c.backend = backend;
    c.hi_kernel = kernel;
    return test_support::frame_after(c, s.state, steps);
}

using test_support::expect_bitwise_equal;

}  // namespace

TEST(FarKernelsGpu, TheExactFarKernelsAreBitwiseTheCpuInEveryMode) {
    REQUIRE_DEVICE();
    for (const named_system& s : systems())
        for (precision hi : precisions)
            for (precision in : precisions) {
                const precision_mode mode{hi, in};
                const std::string what = s.name + " " + to_string(mode);
                // Two steps: the second evaluation starts from positions the first one moved.
                const frame cpu = kernel_frame(s, mode, "cpu", "all-pairs", 2);
                expect_bitwise_equal(cpu, kernel_frame(s, mode, "cuda", "far-tiling", 2), "far-tiling vs cpu, " + what);
                expect_bitwise_equal(cpu, kernel_frame(s, mode, "cuda", "ordered-split", 2),
                                     "ordered-split vs cpu, " + what);
                expect_bitwise_equal(cpu, kernel_frame(s, mode, "cuda", "adding-warps", 2),
                                     "adding-warps vs cpu, " + what);
            }
}

// Port-check's bound (engine/docs/porting.md, "The rounding bound"): |v_fast - v_exact| <=
// f(mode, N) A_ic + N 2^-125 per component, f = port::rounding_bound_factor. A_ic, the absolute
// evaluation, is at least M_ic = sum_j |(mu_ij F_j)_c| (computed here in double from the exact
// terms), so testing against f M_ic is the stricter test. fast-far-split sums in split's order (a
// tree of the same N terms: gamma_(N-1) covers any order, porting.md item 2), its terms are the
// fast formula's (k u_w, item 1).
TEST(FarKernelsGpu, FastFarSplitIsWithinThePortCheckBoundAndDeterministic) {
    REQUIRE_DEVICE();
    for (const named_system& s : systems()) {
        const auto p = make_interaction_parameters<double>(s.system);
        const std::size_t n = s.state.size();
        std::vector<vec3<double>> magnitude(n);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const vec3<double> t = hydrodynamic_contribution(i == j, s.state.positions[i], s.state.positions[j],
                                                                 s.state.external_forces[j], p);
                magnitude[i] = magnitude[i] + vec3<double>{std::fabs(t.x), std::fabs(t.y), std::fabs(t.z)};
            }
        for (precision hi : precisions) {
            const precision_mode mode{hi, precision::f64};
            const frame exact = kernel_frame(s, mode, "cuda", "tiling", 0);
            const frame fast = kernel_frame(s, mode, "cuda", "fast-far-split", 0);
            expect_bitwise_equal(fast, kernel_frame(s, mode, "cuda", "fast-far-split", 0),
                                 "fast-far-split twice, " + s.name + " " + to_string(mode));
            const double factor = port::rounding_bound_factor(mode, n, s.system.tensor);
            double worst = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const double m[3] = {magnitude[i].x, magnitude[i].y, magnitude[i].z};
                const double d[3] = {fast.velocity[i].x - exact.velocity[i].x, fast.velocity[i].y - exact.velocity[i].y,
                                     fast.velocity[i].z - exact.velocity[i].z};
                for (int k = 0; k < 3; ++k) {
                    const double bound = factor * m[k] + double(n) * 0x1p-125;
                    ASSERT_LE(std::fabs(d[k]), bound) << s.name << " hi=" << to_string(hi) << " particle " << i;
                    worst = std::max(worst, std::fabs(d[k]) / bound);
                }
            }
            RecordProperty(s.name + "_" + std::string(to_string(hi)) + "_worst_fraction_of_bound",
                           std::to_string(worst));
            // A bound that held with a great margin even for the worst component proves little about
            // the test's power: the fast kernel must actually differ from the exact one somewhere.
            EXPECT_GT(worst, 0.0) << s.name << " hi=" << to_string(hi) << ": fast-far-split gave the exact bits";
        }
    }
}

// A run's provenance says which block the HI kernel took: fast-far-split and adding-warps size their
// own (cuda/far_split_shape.hpp, cuda/fused_grid_plan.cuh), the others take the engine's 128.
TEST(FarKernelsGpu, TheProvenanceSaysWhichKernelSizesItsOwnBlocks) {
    REQUIRE_DEVICE();
    const named_system s = fcc_open();
    for (const std::string kernel : {"fast-far-split", "adding-warps", "far-tiling"}) {
        engine_config c;
        c.system = s.system;
        c.dt = 0.001;
        c.backend = "cuda";
        c.hi_kernel = kernel;
        const std::string block = make_engine(c, s.state)->description().provenance().at("block_size");
        if (kernel == "fast-far-split") EXPECT_NE(block.find("far_split_shape.hpp"), std::string::npos) << block;
        else if (kernel == "adding-warps") EXPECT_NE(block.find("fused_grid_plan.cuh"), std::string::npos) << block;
        else EXPECT_EQ(block, "128") << kernel;
    }
}

// Larger fcc systems (open box), so that fast-far-split runs with fewer lanes per target and blocks
// of other sizes: on a GPU of 132 SMs N = 23 328 and 42 592 take one block a multiprocessor with
// G = 4 and 2 (cuda/far_split_shape.hpp), 78 732 and 143 748 blocks of 128 with split_group_size's
// G = 2 and 1 (the systems above all run G = 32). far-tiling against tiling bit for bit over all targets;
// fast-far-split within port-check's bound on every 997th target (the CPU sums M_ic for those) and
// the same bits twice.
TEST(FarKernelsGpu, LargerSystemsWithFewerLanesPerTargetKeepTheirBitsAndBounds) {
    REQUIRE_DEVICE();
    for (const int cells : {18, 22, 27, 33}) {
        const named_system s = fcc_open(cells);
        const std::size_t n = s.state.size();
        const auto p = make_interaction_parameters<double>(s.system);
        std::vector<std::size_t> sample;
        for (std::size_t i = 0; i < n; i += 997) sample.push_back(i);
        std::vector<vec3<double>> magnitude(sample.size());
        for (std::size_t k = 0; k < sample.size(); ++k)
            for (std::size_t j = 0; j < n; ++j) {
                const std::size_t i = sample[k];
                const vec3<double> t = hydrodynamic_contribution(i == j, s.state.positions[i], s.state.positions[j],
                                                                 s.state.external_forces[j], p);
                magnitude[k] = magnitude[k] + vec3<double>{std::fabs(t.x), std::fabs(t.y), std::fabs(t.z)};
            }
        for (precision hi : precisions) {
            const precision_mode mode{hi, hi};
            const std::string what = s.name + " " + to_string(mode);
            const frame exact = kernel_frame(s, mode, "cuda", "tiling", 0);
            expect_bitwise_equal(exact, kernel_frame(s, mode, "cuda", "far-tiling", 0),
                                 "far-tiling vs tiling, " + what);
            const frame fast = kernel_frame(s, mode, "cuda", "fast-far-split", 0);
            expect_bitwise_equal(fast, kernel_frame(s, mode, "cuda", "fast-far-split", 0),
                                 "fast-far-split twice, " + what);
            const double factor = port::rounding_bound_factor(mode, n, s.system.tensor);
            for (std::size_t k = 0; k < sample.size(); ++k) {
                const std::size_t i = sample[k];
                const double m[3] = {magnitude[k].x, magnitude[k].y, magnitude[k].z};
                const double d[3] = {fast.velocity[i].x - exact.velocity[i].x, fast.velocity[i].y - exact.velocity[i].y,
                                     fast.velocity[i].z - exact.velocity[i].z};
                for (int c = 0; c < 3; ++c)
                    ASSERT_LE(std::fabs(d[c]), factor * m[c] + double(n) * 0x1p-125) << what << " particle " << i;
            }
        }
    }
}

// On a GPU of 132 SMs ordered-split takes (ordered_split::group_size of the number of targets) for
// N = 864, 2 916, 5 324, 10 976, 42 592 G = 32, 32, 16, 8, 4 lanes per target in f32 and G = 32, 16,
// 8, 4, 4 in ds and f64, and runs far-tiling for 78 732 (the systems of the first test all run
// G = 32). Each G must give tiling's bits, i.e. the CPU's (first test), in the three HI precisions
// (the integration precision does not enter one HI evaluation).
TEST(FarKernelsGpu, OrderedSplitGivesTheCpusBitsWithEveryGroupSize) {
    REQUIRE_DEVICE();
    for (const int cells : {6, 9, 11, 14, 22, 27}) {
        const named_system s = fcc_open(cells);
        for (precision hi : precisions) {
            const precision_mode mode{hi, hi};
            const std::string what = s.name + " " + to_string(mode);
            expect_bitwise_equal(kernel_frame(s, mode, "cuda", "tiling", 0),
                                 kernel_frame(s, mode, "cuda", "ordered-split", 0), "ordered-split vs tiling, " + what);
        }
    }
}

// adding-warps takes the team kernels' shape for its targets (cuda/fused_grid_shape.hpp; on a GPU of
// 132 SMs): one round of tiles of ceil(N / 132) up to N = 3960 in f32 and ds and 2640 in f64 (fcc
// m = 6, 9: N = 864, 2 916); beyond, full rounds of 30 (f32) or 18 (f64) targets a tile in open boxes,
// two targets a step in f32 and three in f64, and 28 or 20 one a step in periodic ones, then one last
// round of shorter tiles (fcc m = 12, 14, 22: N = 6 912, 10 976, 42 592; periodic N = 7 001: f32 one
// full round and tiles of 26, f64 two and tiles of 14), and equal tiles in ds. Each shape must give
// tiling's bits, i.e. the CPU's (first test). Periodic: random centres with pairs below 2a and one
// tied at L/2. mu0 = 1 and another.
TEST(FarKernelsGpu, AddingWarpsGivesTheCpusBitsInEveryShape) {
    REQUIRE_DEVICE();
    std::vector<named_system> list;
    // One round (864: one target a step; 2048: two, in f32 and f64; 2916: two in f32), several rounds.
    for (const int cells : {6, 8, 9, 12, 14, 22}) list.push_back(fcc_open(cells));
    list.push_back(tied_periodic(7001));
    // A mobility mu0 other than 1 (each far term's last product), in one and in several rounds.
    for (named_system s : {fcc_open(6), fcc_open(14), tied_periodic(7001)}) {
        s.system.self_mobility = 0.6;
        s.name += " mu0=0.6";
        list.push_back(s);
    }
    for (const named_system& s : list)
        for (precision hi : precisions) {
            const precision_mode mode{hi, hi};
            const std::string what = s.name + " " + to_string(mode);
            expect_bitwise_equal(kernel_frame(s, mode, "cuda", "tiling", 0),
                                 kernel_frame(s, mode, "cuda", "adding-warps", 0), "adding-warps vs tiling, " + what);
        }
}
