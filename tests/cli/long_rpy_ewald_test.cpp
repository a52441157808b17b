// Validation (d) at N = 864 (label long: ~4 s of Ewald blocks and ~6 s of dense eigenvalue here): the
// fcc lattice at n = 0.1 a^-3, whose nearest-image Rotne-Prager mobility is indefinite (lambda_min =
// -2.26 mu0, engine/docs/observables.md), is positive definite with the Ewald sum (tensor
// "rpy-ewald"). N = 256 is tests/core/rpy_ewald_test.cpp (quick).
#include <gtest/gtest.h>

#include <cstdio>

#include "stokesian/core/lattice.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "support/ewald_matrix.hpp"

using namespace stokesian;

TEST(RpyEwaldLong, Fcc864IsPositiveDefiniteWhereNearestImageIsNot) {
    const int cells = 6;
    const double b = fcc_lattice_constant(0.1), edge = cells * b;
    const std::vector<vec3<double>> positions = fcc_lattice(cells, b);
    ASSERT_EQ(positions.size(), 864u);
    system_parameters nearest;
    nearest.box = {true, {edge, edge, edge}};
    const definiteness_report rp = check_mobility_positive_definiteness(positions, nearest);
    EXPECT_FALSE(rp.positive_definite());
    system_parameters ewald = nearest;
    ewald.tensor = hydrodynamic_tensor::rpy_ewald;
    const definiteness_report e =
        check_positive_definiteness(test_support::ewald_mobility_matrix(positions, ewald), positions.size());
    EXPECT_TRUE(e.cholesky_attempted && e.cholesky_succeeded);
    EXPECT_GT(e.smallest_eigenvalue, 0.0);
    std::printf("fcc N = 864: nearest image lambda_min = %.4f mu0, Ewald lambda_min = %.6f mu0\n",
                rp.smallest_eigenvalue, e.smallest_eigenvalue);
}
