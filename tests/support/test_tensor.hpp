#pragma once
// A tensor known to the tests only, to show that a tensor is one header (engine/README.md, "How to
// add a tensor"): mu_ij = mu0 (r/a)^2 I. With integer positions and forces, a = mu0 = 1 and small
// sums every rounding is exact, so the velocities equal the closed form
//     v_i = F_i + sum_{j != i} |r_i - r_j|^2 F_j
// bit for bit in every precision mode (squared_distance_velocities).
#include <cstddef>
#include <vector>

#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian::test_support {

struct squared_distance_tensor {
    static constexpr const char* name = "test-squared-distance";
    static constexpr double term_allowance = 8.0;  // r^2 (3u), the scale (2u), A f and the sums

    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static pair_tensor<W> evaluate(W r2, const mobility_parameters<W>& p) {
        return {r2 * (p.inverse_radius * p.inverse_radius), W(0)};
    }
};
static_assert(tensor_evaluator<squared_distance_tensor>);

// Integer positions on a small grid (no two alike) and integer forces: the closed form is exact.
struct integer_system {
    std::vector<vec3<double>> positions, forces;
};

inline integer_system make_integer_system(std::size_t n) {
    integer_system s;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t column = i % 5, row = (i / 5) % 5, layer = i / 25;  // a 5 x 5 x ... integer grid
        s.positions.push_back({double(column), double(row), double(layer)});
        s.forces.push_back({double(int(i % 7) - 3), double(int(i % 3) - 1), -1.0 - double(i % 2)});
    }
    return s;
}

// The closed form, in integer arithmetic.
inline std::vector<vec3<double>> squared_distance_velocities(const integer_system& s) {
    std::vector<vec3<double>> v(s.positions.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        long long x = 0, y = 0, z = 0;
        for (std::size_t j = 0; j < v.size(); ++j) {
            const vec3<double> d = s.positions[i] - s.positions[j];
            const long long w = i == j ? 1 : (long long)(d.x * d.x + d.y * d.y + d.z * d.z);
            x += w * (long long)s.forces[j].x;
            y += w * (long long)s.forces[j].y;
            z += w * (long long)s.forces[j].z;
        }
        v[i] = {double(x), double(y), double(z)};
    }
    return v;
}

}  // namespace stokesian::test_support
