// The CPU HI loops over target ranges (cpu/hi_loops.hpp), for every registered tensor and every
// precision mode: ranges that cover [0, N) give the whole-range velocities bit for bit and leave
// the velocities outside them alone. And a test-only tensor (support/test_tensor.hpp) runs through
// both loops as its closed form: a tensor is one header.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "cpu/hi_loops.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/system.hpp"
#include "stokesian/numeric/precision.hpp"
#include "support/backend_modes.hpp"
#include "support/test_tensor.hpp"

using namespace stokesian;

namespace {

enum class loop { all_pairs, symmetric };

template <class Tensor, class W, class A>
void run_loop(loop l, target_range targets, const std::vector<vec3<W>>& position, const std::vector<vec3<W>>& force,
              std::vector<vec3<A>>& velocity, const interaction_parameters<W>& p) {
    const auto nothing = [] {};
    if (l == loop::all_pairs) cpu::mobility_all_pairs<Tensor, W, A>(targets, position, force, velocity, p, nothing);
    else cpu::mobility_symmetric<Tensor, W, A>(targets, position, force, velocity, p, nothing);
}

template <class A>
bool same_bits(const vec3<A>& a, const vec3<A>& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Random positions in a periodic box (overlapping pairs included: the Rotne-Prager-Yamakawa overlap
// form is exercised), and a pair exactly L/2 apart along x (the tie rule).
struct random_system {
    system_parameters system;
    std::vector<vec3<double>> positions, forces;
};

random_system make_random_system(std::size_t n, unsigned seed) {
    random_system s;
    const double edge = 8.0;
    s.system.box = {true, {edge, edge, edge}};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2), g(-1, 1);
    s.positions = {{-2.0, 0.5, 0.25}, {2.0, 0.5, 0.25}};
    for (std::size_t i = s.positions.size(); i < n; ++i) s.positions.push_back({u(rng), u(rng), u(rng)});
    for (std::size_t i = 0; i < n; ++i) s.forces.push_back({0.3 * g(rng), 0.3 * g(rng), -1.0 + 0.2 * g(rng)});
    return s;
}

template <class W>
std::vector<vec3<W>> working(const std::vector<vec3<double>>& v) {
    std::vector<vec3<W>> out;
    for (const auto& x : v) out.push_back(value_cast<W>(x));
    return out;
}

// One test per precision mode of the one list (core/precision_modes.hpp).
class HiLoopsEachMode : public testing::TestWithParam<precision_mode> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(AllModes, HiLoopsEachMode, testing::ValuesIn(precision_modes),
                         test_support::precision_mode_name);

TEST_P(HiLoopsEachMode, RangesCoveringTheSystemGiveTheWholeRangeVelocitiesBitwise) {
    const precision_mode mode = GetParam();
    random_system s = make_random_system(41, 7);
    const std::size_t n = s.positions.size();
    const std::vector<std::vector<target_range>> cuts = {
        {{0, 17}, {17, 18}, {18, n}}, {{0, 20}, {20, n}}, {{0, 1}, {1, n - 1}, {n - 1, n}}};
    dispatch_precision(mode, [&]<class Policy>(Policy) {
        using W = typename Policy::working;
        using A = typename Policy::accumulator;
        const auto position = working<W>(s.positions), force = working<W>(s.forces);
        for_each_tensor([&](hydrodynamic_tensor key, auto evaluator) {
            using Tensor = decltype(evaluator);
            s.system.tensor = key;
            const auto p = make_interaction_parameters<W>(s.system);
            for (const loop l : {loop::all_pairs, loop::symmetric}) {
                const std::string what =
                    to_string(mode) + " " + Tensor::name + (l == loop::all_pairs ? " all-pairs" : " symmetric");
                std::vector<vec3<A>> whole(n, zero_vector<A>());
                run_loop<Tensor>(l, {0, n}, position, force, whole, p);
                for (std::size_t i = 0; i < n; ++i)
                    ASSERT_TRUE(std::isfinite(value_cast<double>(whole[i].z)) && value_cast<double>(whole[i].z) != 0.0)
                        << what << ", particle " << i;
                for (const auto& cut : cuts) {
                    std::vector<vec3<A>> pieces(n, zero_vector<A>());
                    for (const target_range r : cut) run_loop<Tensor>(l, r, position, force, pieces, p);
                    for (std::size_t i = 0; i < n; ++i)
                        EXPECT_TRUE(same_bits(pieces[i], whole[i])) << what << ", particle " << i;
                }
                // A range writes its targets only.
                const vec3<A> untouched = value_cast<A>(vec3<double>{7.0, 7.0, 7.0});
                std::vector<vec3<A>> one(n, untouched);
                run_loop<Tensor>(l, {10, 12}, position, force, one, p);
                for (std::size_t i = 0; i < n; ++i)
                    EXPECT_TRUE(same_bits(one[i], i == 10 || i == 11 ? whole[i] : untouched))
                        << what << ", particle " << i;
            }
        });
    });
}

TEST_P(HiLoopsEachMode, ATestOnlyTensorRunsThroughBothLoopsAsItsClosedForm) {
    const precision_mode mode = GetParam();
    const test_support::integer_system s = test_support::make_integer_system(40);
    const std::vector<vec3<double>> expected = test_support::squared_distance_velocities(s);
    const std::size_t n = s.positions.size();
    system_parameters system;  // open box, a = mu0 = 1
    dispatch_precision(mode, [&]<class Policy>(Policy) {
        using W = typename Policy::working;
        using A = typename Policy::accumulator;
        const auto p = make_interaction_parameters<W>(system);
        for (const loop l : {loop::all_pairs, loop::symmetric}) {
            std::vector<vec3<A>> v(n, zero_vector<A>());
            run_loop<test_support::squared_distance_tensor>(l, {0, n}, working<W>(s.positions), working<W>(s.forces), v,
                                                            p);
            for (std::size_t i = 0; i < n; ++i)
                EXPECT_EQ(value_cast<double>(v[i]), expected[i])
                    << to_string(mode) << (l == loop::all_pairs ? " all-pairs" : " symmetric") << ", particle " << i;
        }
    });
}
