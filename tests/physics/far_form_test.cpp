// The far form of a tensor alone (physics/tensors/far_form.hpp) against the tensor's evaluate(),
// and one pair of the far-field kernels (physics/far_pair.hpp) against hydrodynamic_contribution:
// for every pair in its range it must give the same bits, since the exact far-field kernels
// (cuda/hi_far_kernels.cuh) take it instead of evaluate's select and must still reproduce the CPU
// bit for bit. Host, IEEE flags (the exact kernels' arithmetic); both precisions, several radii,
// distances spread over six decades and packed around r = 2a, where the select switches.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "stokesian/core/system.hpp"
#include "stokesian/physics/far_pair.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/tensors/far_form.hpp"

using namespace stokesian;

namespace {

template <class W>
auto bits(W x) {
    if constexpr (sizeof(W) == 4) return std::bit_cast<std::uint32_t>(x);
    else return std::bit_cast<std::uint64_t>(x);
}

// Squared distances: log-uniform over [1e-2, 1e4] a^2 and, densely, within 1e-5 of (2a)^2.
template <class W>
std::vector<W> squared_distances(W a, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> e(-2.0, 4.0), near(-1e-5, 1e-5);
    std::vector<W> out;
    out.reserve(40128);
    for (int k = 0; k < 20000; ++k) out.push_back(W(std::pow(10.0, e(rng)) * double(a) * double(a)));
    for (int k = 0; k < 20000; ++k) out.push_back(W(4.0 * double(a) * double(a) * (1.0 + near(rng))));
    // The float neighbours of (2a)^2 themselves.
    W x = W(4) * a * a;
    for (int k = 0; k < 64; ++k) x = std::nextafter(x, W(0));
    for (int k = 0; k < 128; ++k, x = std::nextafter(x, W(1e30))) out.push_back(x);
    return out;
}

template <class W, bool Fast>
void expect_far_form_is_evaluates_far_branch(W a, unsigned seed) {
    using far = far_form<rotne_prager_yamakawa_tensor>;
    const mobility_parameters<W> p = make_mobility_parameters<W>(a, W(0.3), hydrodynamic_tensor::rotne_prager);
    std::size_t in_range = 0, out_of_range = 0;
    for (const W r2 : squared_distances<W>(a, seed)) {
        W r, inv_r;
        distance_and_inverse<W, Fast>(r2, r, inv_r);
        const pair_tensor<W> general = rotne_prager_yamakawa_tensor::evaluate<W, Fast>(r2, p);
        if (!far::applies(r, p)) {
            ++out_of_range;
            continue;
        }
        ++in_range;
        const pair_tensor<W> f = far::coefficients(inv_r, p);
        ASSERT_EQ(bits(f.identity), bits(general.identity)) << "r2 = " << r2 << ", a = " << a;
        ASSERT_EQ(bits(f.dyadic), bits(general.dyadic)) << "r2 = " << r2 << ", a = " << a;
    }
    // Both sides of r = 2a were visited, so the select was exercised.
    EXPECT_GT(in_range, 1000u);
    EXPECT_GT(out_of_range, 1000u);
}

template <class W>
bool same_bits(vec3<W> a, vec3<W> b) {
    return bits(a.x) == bits(b.x) && bits(a.y) == bits(b.y) && bits(a.z) == bits(b.z);
}

// Every ordered pair of n random centres (a third of them on a grid of pitch L/4, so that many
// pairs are tied, exactly L/2 apart in a component, in the periodic box; at n = 0.1 a^-3 many
// overlap): the kernels' separation equals minimum_image's, a pair the prelude calls far is untied
// and not the self pair, and its far term has hydrodynamic_contribution's bits. Returns the number
// of far pairs.
template <class W, bool Periodic>
std::size_t expect_far_pairs_are_the_general_form(unsigned seed) {
    using rpy = rotne_prager_yamakawa_tensor;
    const std::size_t n = 300;
    const double edge = std::cbrt(double(n) / 0.1);
    system_parameters system;
    system.radius = 1.0;
    system.self_mobility = 0.7;
    system.box = {Periodic, {edge, edge, edge}};
    const interaction_parameters<W> p = make_interaction_parameters<W>(system);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2), g(-1, 1);
    std::uniform_int_distribution<int> cell(-2, 1);
    std::vector<vec3<W>> r, f;
    for (std::size_t i = 0; i < n; ++i) {
        const vec3<double> x = i % 3 == 0 ? vec3<double>{edge / 4 * cell(rng), edge / 4 * cell(rng), u(rng)}
                                          : vec3<double>{u(rng), u(rng), u(rng)};
        r.push_back({W(x.x), W(x.y), W(x.z)});
        f.push_back({W(g(rng)), W(g(rng)), W(-1 + 0.2 * g(rng))});
    }
    std::size_t far = 0, tied = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const pair_prelude<W> q = far_prelude<rpy, false, Periodic>(r[i], r[j], p);
            EXPECT_TRUE(same_bits(q.d, minimum_image(r[i] - r[j], p.box))) << i << " " << j;
            const tie_split<W> split = split_ties(q.d, p.box);
            const bool is_tied = split.tied.x != W(0) || split.tied.y != W(0) || split.tied.z != W(0);
            tied += is_tied ? 1 : 0;
            if (!q.far) continue;
            ++far;
            EXPECT_FALSE(is_tied) << i << " " << j;
            EXPECT_NE(i, j);
            const vec3<W> general = hydrodynamic_contribution<rpy, false>(i == j, r[i], r[j], f[j], p);
            const vec3<W> fast_path = far_term<rpy>(q, f[j], p.mobility, p.mobility.self_mobility);
            EXPECT_TRUE(same_bits(fast_path, general)) << "pair " << i << " " << j;
        }
    if (Periodic) EXPECT_GT(tied, 100u);  // the tie rule was exercised
    EXPECT_LT(far, n * n);                // and so were overlaps and the self pairs
    return far;
}

}  // namespace

TEST(FarForm, FarPairOfTheKernelsIsTheGeneralFormBitwiseInOpenAndPeriodicBoxes) {
    EXPECT_GT((expect_far_pairs_are_the_general_form<float, false>(5)), 60000u);
    EXPECT_GT((expect_far_pairs_are_the_general_form<float, true>(6)), 60000u);
    EXPECT_GT((expect_far_pairs_are_the_general_form<double, false>(7)), 60000u);
    EXPECT_GT((expect_far_pairs_are_the_general_form<double, true>(8)), 60000u);
}

TEST(FarForm, RotnePragerFarFormGivesEvaluatesBitsWhereverItApplies) {
    for (const double a : {1.0, 0.37, 2.5}) {
        expect_far_form_is_evaluates_far_branch<float, false>(float(a), 1);
        expect_far_form_is_evaluates_far_branch<double, false>(a, 2);
        expect_far_form_is_evaluates_far_branch<float, true>(float(a), 3);
        expect_far_form_is_evaluates_far_branch<double, true>(a, 4);
    }
}

// certainly_applies(r2) (the decision before the square root) implies applies(sqrt(r2) rounded):
// every float and double within 2^12 ulps of (2a)^2 and of the threshold, several radii; and it
// holds for all but a sliver (< 2^-19 relatively) above (2a)^2.
template <class W>
void expect_certainly_applies_only_where_applies(W a) {
    using far = far_form<rotne_prager_yamakawa_tensor>;
    const mobility_parameters<W> p = make_mobility_parameters<W>(a, W(0.3), hydrodynamic_tensor::rotne_prager);
    const W square = W(2) * a * (W(2) * a);
    std::size_t certain = 0;
    for (const W centre : {square, W(square * W(1.0 + 1.0 / 1048576.0))}) {
        W x = centre;
        for (int k = 0; k < 4096; ++k) x = std::nextafter(x, W(0));
        for (int k = 0; k < 8192; ++k, x = std::nextafter(x, W(1e30))) {
            if (!far::certainly_applies(x, p)) continue;
            ++certain;
            EXPECT_TRUE(far::applies(std::sqrt(x), p)) << "r2 = " << x << ", a = " << a;
        }
    }
    EXPECT_GT(certain, 4000u);  // the threshold was crossed
    EXPECT_TRUE(far::certainly_applies(W(square * W(1.0 + 1.0 / 524288.0)), p));
    EXPECT_FALSE(far::certainly_applies(std::nextafter(square, W(0)), p));
}

TEST(FarForm, CertainlyAppliesBeforeTheSquareRootOnlyWhereApplies) {
    for (const double a : {1.0, 0.37, 2.5, 1e-3}) {
        expect_certainly_applies_only_where_applies<float>(float(a));
        expect_certainly_applies_only_where_applies<double>(a);
    }
}

TEST(FarForm, AppliesExactlyWhereEvaluateSelectsTheFarForm) {
    // evaluate's select is r >= 2a; the overlap form differs from the far form off r = 2a, so a
    // far form applied on the wrong side would show in the coefficients.
    using far = far_form<rotne_prager_yamakawa_tensor>;
    const mobility_parameters<double> p = make_mobility_parameters(1.0, 1.0, hydrodynamic_tensor::rotne_prager);
    EXPECT_TRUE(far::applies(2.0, p));
    EXPECT_FALSE(far::applies(std::nextafter(2.0, 0.0), p));
    EXPECT_FALSE(far::applies(0.0, p));
    EXPECT_FALSE(far::applies(std::nan(""), p));
    const double r = 1.5;
    const pair_tensor<double> overlap = rotne_prager_yamakawa_tensor::evaluate<double, false>(r * r, p);
    EXPECT_NE(bits(far::coefficients(1.0 / r, p).identity), bits(overlap.identity));
}

TEST(FarForm, TensorsWithoutAFarFormSayAndTheRegisteredOnesAreKnown) {
    static_assert(far_form<rotne_prager_yamakawa_tensor>::available);
    static_assert(!far_form<oseen_tensor>::available);
    static_assert(!far_form<rpy_ewald_tensor>::available);
    SUCCEED();
}
