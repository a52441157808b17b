#pragma once
// The dense 3N x 3N mobility matrix mu (paper, Eq. (rotneMobility)) in double precision, for checks
// of its positive definiteness (positive_definiteness.hpp). It is never derived again here: column
// 3j + c is the velocity field of a unit force e_c on particle j, evaluated with the very functions
// every backend loops over (physics/interactions.hpp: hydrodynamic_contribution, i.e. the self term,
// the minimum image and the tie rule for separations of exactly L/2).
#include <cstddef>
#include <vector>

#include "stokesian/core/system.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

// A square matrix stored column by column (LAPACK's layout).
struct dense_matrix {
    std::size_t size = 0;
    std::vector<double> values;  // size * size, element (row, column) at column * size + row

    explicit dense_matrix(std::size_t n = 0) : size(n), values(n * n, 0.0) {}
    double& operator()(std::size_t row, std::size_t column) { return values[column * size + row]; }
    double operator()(std::size_t row, std::size_t column) const { return values[column * size + row]; }
};

// The matrix of a linear map particle velocities <- particle forces given as
// contribution(i, j, e) = velocity of particle i caused by the force e on particle j (e a unit vector).
// Tests pass their own contribution (e.g. a tensor without the overlap regularisation).
template <class Contribution>
dense_matrix build_mobility_matrix(std::size_t particles, Contribution&& contribution) {
    dense_matrix m(3 * particles);
    const vec3<double> unit[3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    for (std::size_t j = 0; j < particles; ++j)
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t column = 3 * j + c;
            for (std::size_t i = 0; i < particles; ++i) {
                const vec3<double> v = contribution(i, j, unit[c]);
                m(3 * i + 0, column) = v.x;
                m(3 * i + 1, column) = v.y;
                m(3 * i + 2, column) = v.z;
            }
        }
    return m;
}

// The engine's mobility for the given (wrapped) positions, in units where the system's mu0 and a
// are as the scenario says.
dense_matrix mobility_matrix(const std::vector<vec3<double>>& positions, const system_parameters& system);

}  // namespace stokesian
