// The CPU neighbour list (cpu/neighbour_list.hpp) on boxes and states whose cell grid would not fit
// in memory or in an integer: edges of 1e7 a, particles flown 1e12 a apart, inf and NaN. The cell
// count used to be computed in `long` without a check: 2^22 x 2^22 x 2^20 cells wrapped to 0,
// passed the size test and an empty vector was indexed (SIGSEGV); a product wrapping negative asked
// for a vector larger than max_size(). The lists must equal the pair-by-pair search, always.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "cpu/neighbour_list.hpp"

using namespace stokesian;
using stokesian::cpu::neighbour_list;

namespace {

// All j != i with |r_i - r_j| < cutoff, ascending: the definition the lists must meet.
std::vector<std::vector<std::uint32_t>> pair_search(const std::vector<vec3<double>>& r, const box_geometry<double>& box,
                                                    double cutoff) {
    std::vector<std::vector<std::uint32_t>> lists(r.size());
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = 0; j < r.size(); ++j) {
            const vec3<double> d = minimum_image(r[i] - r[j], box);
            if (j != i && dot(d, d) < cutoff * cutoff) lists[i].push_back(std::uint32_t(j));
        }
    return lists;
}

void expect_lists_match_pair_search(const std::vector<vec3<double>>& r, const box_geometry<double>& box,
                                    double cutoff) {
    neighbour_list list;
    list.build(r, box, cutoff);
    const auto expected = pair_search(r, box, cutoff);
    for (std::size_t i = 0; i < r.size(); ++i)
        EXPECT_EQ(std::vector<std::uint32_t>(list.begin(i), list.end(i)), expected[i]) << "particle " << i;
}

// n particles spread uniformly over [-spread, spread)^3, every fifth one with a partner 2.2 a away,
// so that there are neighbours to find.
std::vector<vec3<double>> spread_particles(std::size_t n, double spread, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-spread, spread);
    std::vector<vec3<double>> r;
    while (r.size() < n) {
        r.push_back({u(rng), u(rng), u(rng)});
        if (r.size() % 5 == 0 && r.size() < n) r.push_back(r.back() + vec3<double>{2.2, 0.0, 0.0});
    }
    return r;
}

}  // namespace

TEST(NeighbourList, HugePeriodicBoxWhoseCellCountWrapsToZeroGivesThePairSearchLists) {
    // cutoff 2.5: 2^22 x 2^22 x 2^20 cells of exactly the cutoff, 2^64 in all.
    const double cutoff = 2.5;
    const box_geometry<double> box{true, {cutoff * 4194304.0, cutoff * 4194304.0, cutoff * 1048576.0}};
    expect_lists_match_pair_search(spread_particles(100, 1e6, 1), box, cutoff);
}

TEST(NeighbourList, HugePeriodicBoxWhoseCellCountWrapsNegativeGivesThePairSearchLists) {
    // 3 x 10^6.3 cells a side: ~2.7e20 cells, which wraps to a negative long.
    const double cutoff = 3.0, edge = cutoff * 6e6;
    const long cells = long(edge / cutoff);
    ASSERT_LT(static_cast<long>(static_cast<unsigned long>(cells) * cells * cells), 0)
        << "the old product was negative";
    expect_lists_match_pair_search(spread_particles(200, 4e6, 2), box_geometry<double>{true, {edge, edge, edge}},
                                   cutoff);
}

TEST(NeighbourList, OpenBoxParticlesFlownApartOrNonFiniteGiveThePairSearchLists) {
    const box_geometry<double> open{false, {0.0, 0.0, 0.0}};
    std::vector<vec3<double>> r = spread_particles(120, 10.0, 3);
    // Blown up: bounding boxes of 1e7, 1e12 and 1e300 a, then an infinite and a NaN coordinate.
    for (const double far : {1e7, 1e12, 1e300}) {
        r[7] = {far, -far, far};
        r[8] = {-far, far, -far};
        expect_lists_match_pair_search(r, open, 3.0);
    }
    r[9] = {std::numeric_limits<double>::infinity(), 0.0, 0.0};
    expect_lists_match_pair_search(r, open, 3.0);
    r[0] = {std::numeric_limits<double>::quiet_NaN(), 1.0, 1.0};
    expect_lists_match_pair_search(r, open, 3.0);
}

TEST(NeighbourList, AGridOverTheBudgetIsCoarsenedNeverBeyondIt) {
    // The rule itself (physics/cell_grid.hpp): at most 8 n + 64 cells, cells no smaller than the cutoff.
    for (const double edge : {30.0, 3e3, 1e7, 1e15, 1e300}) {
        const cell_counts g = cell_counts_for(vec3<double>{edge, edge, edge}, 2.5, 1000);
        EXPECT_LE(double(g.nx) * double(g.ny) * double(g.nz), 8.0 * 1000 + 64) << edge;
        EXPECT_LE(double(g.nx) * 2.5, edge) << edge;
        EXPECT_TRUE(g.use_cells) << edge;
    }
    // Within the budget the grid is the finest one: 12 cells of 2.5 a over 30 a.
    EXPECT_EQ(cell_counts_for(vec3<double>{30.0, 30.0, 30.0}, 2.5, 1000).nx, 12);
    const cell_counts nan_grid = cell_counts_for(vec3<double>{NAN, 30.0, 30.0}, 2.5, 1000);
    EXPECT_EQ(nan_grid.nx, 1);
    EXPECT_FALSE(nan_grid.use_cells);
}
