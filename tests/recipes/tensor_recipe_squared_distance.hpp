#pragma once
// The recipe proof's test-only tensor (engine/README.md, "How to add a tensor"), registered under
// hydrodynamic_tensor::recipe_squared_distance by CMake's STOKESIAN_EXTRA_TENSOR_HEADERS:
// mu_ij = mu0 (r/a)^2 I. With integer positions and forces, a = mu0 = 1 and small sums every
// rounding is exact, so v_i = F_i + sum_{j != i} |r_i - r_j|^2 F_j bit for bit.
#include "stokesian/config.hpp"
#include "stokesian/physics/pair_tensor.hpp"

namespace stokesian {

struct recipe_squared_distance_tensor {
    static constexpr const char* name = "recipe-squared-distance";
    static constexpr double term_allowance = 8.0;  // r^2 (3u), the scale (2u), A f and the sums

    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static pair_tensor<W> evaluate(W r2, const mobility_parameters<W>& p) {
        return {r2 * (p.inverse_radius * p.inverse_radius), W(0)};
    }
};

}  // namespace stokesian
