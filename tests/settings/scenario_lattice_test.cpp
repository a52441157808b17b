// The fcc lattice of scenarios (core/lattice.hpp) as the loader builds it: centred, symmetric, every
// coordinate a float, large lattices loaded without an O(N^2) overlap check.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

double site_distance(vec3<double> a, vec3<double> b, const box_settings& box) {
    const vec3<double> d = minimum_image(a - b, box_geometry<double>{box.periodic, box.edges});
    return std::sqrt(dot(d, d));
}

}  // namespace

TEST(ScenarioLoaderLattice, FccIsCentred) {
    const int cells = 4;
    const double b = 1.7;
    const auto sites = fcc_lattice(cells, b);
    ASSERT_EQ(sites.size(), 4u * 64u);
    const double half = 0.5 * cells * b;
    vec3<double> sum{};
    std::vector<double> xs, ys, zs;
    for (const auto& r : sites) {
        sum += r;
        for (double x : {r.x, r.y, r.z}) {
            EXPECT_GT(x, -half);  // no site on the boundary
            EXPECT_LT(x, half);
        }
        xs.push_back(r.x);
        ys.push_back(r.y);
        zs.push_back(r.z);
    }
    EXPECT_NEAR(sum.x, 0.0, 1e-12);
    EXPECT_NEAR(sum.y, 0.0, 1e-12);
    EXPECT_NEAR(sum.z, 0.0, 1e-12);
    // Each coordinate's set of values is symmetric about 0, bitwise.
    for (auto* values : {&xs, &ys, &zs}) {
        std::sort(values->begin(), values->end());
        for (std::size_t k = 0; k < values->size(); ++k) ASSERT_EQ((*values)[k], -(*values)[values->size() - 1 - k]);
    }
    // Every site has 12 nearest neighbours at b / sqrt(2) (minimum image).
    const box_settings box{true, {4 * b, 4 * b, 4 * b}};
    const double nearest = b / std::sqrt(2.0);
    for (std::size_t i = 0; i < sites.size(); i += 37) {
        int neighbours = 0;
        for (std::size_t j = 0; j < sites.size(); ++j)
            if (j != i && std::fabs(site_distance(sites[i], sites[j], box) - nearest) < 1e-12) ++neighbours;
        EXPECT_EQ(neighbours, 12) << i;
    }
    EXPECT_THROW(fcc_lattice(0, 1.0), std::invalid_argument);
}

TEST(ScenarioLoaderLattice, LargeLatticeLoadsQuickly) {
    // fcc with m = 40: 256 000 particles; the overlap check must not be O(N^2).
    std::string text = R"(
[scenario]
name = "big"
[box]
boundary = "periodic"
[particles]
force = [0.0, 0.0, -1.0]
[particles.lattice]
kind = "fcc"
cells = 40
density = 0.1
[run]
dt = 0.001
steps = 1
)";
    const auto start = std::chrono::steady_clock::now();
    const scenario s = parse_scenario(text, "big.toml");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(s.particles.size(), 256000u);
    EXPECT_LT(seconds, 5.0);  // about 0.1 s on one core; generous for loaded CI machines
}

TEST(ScenarioLoaderLattice, CoordinatesAndTiesAreExactInFloat) {
    // Every coordinate of the shipped fcc lattice is a float, so separations of exactly L/2 stay
    // exact ties in every precision mode.
    const scenario s = load_scenario(::stokesian::test_support::checkout_file("scenarios/fcc_sedimentation.toml"));
    const double half = 0.5 * s.system.box.edges.x;
    std::size_t ties = 0;
    for (const auto& r : s.particles.positions)
        for (double x : {r.x, r.y, r.z}) ASSERT_EQ(static_cast<double>(static_cast<float>(x)), x);
    const auto& r = s.particles.positions;
    for (std::size_t j = 1; j < r.size(); ++j)
        if (std::fabs(r[0].x - r[j].x) == half) ++ties;
    EXPECT_GT(ties, 0u);  // the lattice has them (cells = 10 is even)
}
