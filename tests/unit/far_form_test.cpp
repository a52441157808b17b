// The far form of a tensor alone (physics/tensors/far_form.hpp) against the tensor's evaluate():
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

}  // namespace

TEST(FarForm, RotnePragerFarFormGivesEvaluatesBitsWhereverItApplies) {
    for (const double a : {1.0, 0.37, 2.5}) {
        expect_far_form_is_evaluates_far_branch<float, false>(float(a), 1);
        expect_far_form_is_evaluates_far_branch<double, false>(a, 2);
        expect_far_form_is_evaluates_far_branch<float, true>(float(a), 3);
        expect_far_form_is_evaluates_far_branch<double, true>(a, 4);
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
