#pragma once
// The dense 3N x 3N mobility of tensor "rpy-ewald" in double, one block evaluation per pair (i <= j;
// the block is symmetric and even in r, so mu_ji = mu_ij): observables' mobility_matrix asks for each
// column separately, three evaluations of the whole Ewald block per pair. Built from the same
// functions the backends loop over (hydrodynamic_contribution's block path: minimum image, then
// rpy_ewald_tensor::block; the self block at i == j).
#include <cstddef>
#include <vector>

#include "stokesian/core/system.hpp"
#include "stokesian/observables/mobility_matrix.hpp"

namespace stokesian::test_support {

inline dense_matrix ewald_mobility_matrix(const std::vector<vec3<double>>& positions, const system_parameters& system) {
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    const std::size_t n = positions.size();
    dense_matrix m(3 * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) {
            const symmetric_block<double> b =
                i == j ? rpy_ewald_tensor::self_block(p.mobility)
                       : rpy_ewald_tensor::block<double>(minimum_image(positions[i] - positions[j], p.box), p.mobility);
            const double e[3][3] = {{b.xx, b.xy, b.xz}, {b.xy, b.yy, b.yz}, {b.xz, b.yz, b.zz}};
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) {
                    const double v = p.mobility.self_mobility * e[r][c];
                    m(3 * i + r, 3 * j + c) = v;
                    m(3 * j + c, 3 * i + r) = v;
                }
        }
    return m;
}

}  // namespace stokesian::test_support
