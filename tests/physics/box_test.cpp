// Minimum image and wrapping (engine/physics/include/stokesian/physics/box.hpp).
#include <gtest/gtest.h>

#include <random>

#include "stokesian/numeric/float_float.hpp"
#include "stokesian/physics/box.hpp"

using namespace stokesian;

TEST(Box, MinimumImagePicksTheNearestImage) {
    const box_geometry<double> box{true, {10, 20, 40}};
    const vec3<double> d = minimum_image(vec3<double>{6, -11, 19}, box);
    EXPECT_EQ(d.x, -4);
    EXPECT_EQ(d.y, 9);
    EXPECT_EQ(d.z, 19);
    const box_geometry<double> open{false, {10, 20, 40}};
    EXPECT_EQ(minimum_image(vec3<double>{6, -11, 19}, open).x, 6);
}

TEST(Box, TieRuleKeepsHalfBoxSeparationsAntisymmetric) {
    // Components of exactly +-L/2 are kept: r_ji = -r_ij bitwise, in float and double.
    const box_geometry<double> box{true, {10, 10, 10}};
    const vec3<double> d = minimum_image(vec3<double>{5, -5, 2}, box);
    EXPECT_EQ(d.x, 5);
    EXPECT_EQ(d.y, -5);
    const vec3<double> back = minimum_image(vec3<double>{-5, 5, -2}, box);
    EXPECT_EQ(back.x, -d.x);
    EXPECT_EQ(back.y, -d.y);
    const box_geometry<float> boxf{true, {10, 10, 10}};
    EXPECT_EQ(minimum_image(vec3<float>{5, 0, 0}, boxf).x, 5.0f);
    EXPECT_EQ(minimum_image(vec3<float>{-5, 0, 0}, boxf).x, -5.0f);
}

TEST(Box, MinimumImageIsAntisymmetricForRandomPairs) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-7.3f, 7.3f);
    const box_geometry<float> box{true, {14.6f, 14.6f, 14.6f}};
    for (int k = 0; k < 100000; ++k) {
        const vec3<float> a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
        const vec3<float> ab = minimum_image(a - b, box), ba = minimum_image(b - a, box);
        ASSERT_EQ(ab.x, -ba.x);
        ASSERT_EQ(ab.y, -ba.y);
        ASSERT_EQ(ab.z, -ba.z);
    }
}

TEST(Box, WrappingIsExactAndCountsImages) {
    float x = 20.25f;
    int image = 0;
    wrap_component(x, image, 40.0f, 20.0f);
    EXPECT_EQ(x, -19.75f);
    EXPECT_EQ(image, 1);
    x = -20.0f;  // -L/2 is inside [-L/2, L/2)
    wrap_component(x, image, 40.0f, 20.0f);
    EXPECT_EQ(x, -20.0f);
    x = 20.0f;  // +L/2 is not
    wrap_component(x, image, 40.0f, 20.0f);
    EXPECT_EQ(x, -20.0f);
    EXPECT_EQ(image, 2);
    // Sterbenz: x - L is exact for x in [L/2, L): check on random doubles.
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(23.7 / 2, 23.7);
    for (int k = 0; k < 10000; ++k) {
        double y = u(rng);
        const double before = y;
        int n = 0;
        wrap_component(y, n, 23.7, 23.7 / 2);
        ASSERT_EQ(y + 23.7, before);  // undoing the shift restores y bit for bit
    }
    // float-float positions wrap too.
    float_float z = float_float::from_double(20.5);
    int m = 0;
    wrap_component(z, m, float_float::exact(40.0f), float_float::exact(20.0f));
    EXPECT_EQ(to_double(z), -19.5);
    EXPECT_EQ(m, 1);
}
