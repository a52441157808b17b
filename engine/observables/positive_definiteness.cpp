#include "stokesian/observables/positive_definiteness.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "lapack.hpp"
#include "stokesian/physics/interactions.hpp"

namespace stokesian {

namespace {

int fortran_size(std::size_t n) {
    // LAPACK's 32-bit INTEGER also indexes the n x n array internally.
    if (n > 46340)
        throw std::invalid_argument("mobility check: matrix of order " + std::to_string(n) +
                                    " is too large for LAPACK");
    return static_cast<int>(n);
}

}  // namespace

bool cholesky_factorises(const dense_matrix& m, int& info) {
    if (m.size == 0) {
        info = 0;
        return true;
    }
    std::vector<double> a = m.values;
    const int n = fortran_size(m.size);
    dpotrf_("L", &n, a.data(), &n, &info, 1);
    if (info < 0) throw std::logic_error("dpotrf: illegal argument " + std::to_string(-info));
    return info == 0;
}

double smallest_eigenvalue(const dense_matrix& m) {
    if (m.size == 0) return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> a = m.values;
    const int n = fortran_size(m.size);
    const int one = 1;
    const double unused = 0.0;
    const double abstol = 0.0;  // LAPACK's default: eps x ||T||_1 of the tridiagonal form
    int found = 0, info = 0;
    std::vector<double> eigenvalues(m.size);
    double z = 0.0;  // not referenced with JOBZ = 'N'
    std::vector<int> support(2);
    // Workspace query, then the call.
    double work_size = 0.0;
    int iwork_size = 0;
    const int query = -1;
    dsyevr_("N", "I", "L", &n, a.data(), &n, &unused, &unused, &one, &one, &abstol, &found, eigenvalues.data(), &z,
            &one, support.data(), &work_size, &query, &iwork_size, &query, &info, 1, 1, 1);
    if (info != 0) throw std::logic_error("dsyevr workspace query: INFO = " + std::to_string(info));
    const int lwork = static_cast<int>(work_size);
    const int liwork = iwork_size;
    std::vector<double> work(static_cast<std::size_t>(std::max(1, lwork)));
    std::vector<int> iwork(static_cast<std::size_t>(std::max(1, liwork)));
    dsyevr_("N", "I", "L", &n, a.data(), &n, &unused, &unused, &one, &one, &abstol, &found, eigenvalues.data(), &z,
            &one, support.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1, 1);
    if (info != 0 || found != 1) throw std::runtime_error("dsyevr failed: INFO = " + std::to_string(info));
    return eigenvalues[0];
}

double gershgorin_lower_bound(const dense_matrix& m) {
    // For a symmetric matrix every eigenvalue lies in a disc around some a_ii of radius
    // sum_{j != i} |a_ij|, so the smallest one is at least min_i (a_ii - radius_i).
    double bound = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < m.size; ++i) {
        double radius = 0.0;
        for (std::size_t j = 0; j < m.size; ++j)
            if (j != i) radius += std::fabs(m(i, j));
        bound = std::min(bound, m(i, i) - radius);
    }
    return m.size == 0 ? std::numeric_limits<double>::quiet_NaN() : bound;
}

double relative_asymmetry(const dense_matrix& m) {
    double largest = 0.0, difference = 0.0;
    for (std::size_t j = 0; j < m.size; ++j)
        for (std::size_t i = 0; i < m.size; ++i) {
            largest = std::max(largest, std::fabs(m(i, j)));
            difference = std::max(difference, std::fabs(m(i, j) - m(j, i)));
        }
    return largest > 0.0 ? difference / largest : 0.0;
}

definiteness_report check_positive_definiteness(const dense_matrix& m, std::size_t particles,
                                                const definiteness_limits& limits) {
    definiteness_report r;
    r.particles = particles;
    r.gershgorin_lower_bound = gershgorin_lower_bound(m);
    r.asymmetry = relative_asymmetry(m);
    r.smallest_eigenvalue = std::numeric_limits<double>::quiet_NaN();
    if (particles <= limits.cholesky_max_particles) {
        r.cholesky_attempted = true;
        r.cholesky_succeeded = cholesky_factorises(m, r.cholesky_info);
    }
    if (particles <= limits.eigenvalue_max_particles) {
        r.eigenvalue_computed = true;
        r.smallest_eigenvalue = smallest_eigenvalue(m);
    }
    return r;
}

definiteness_report check_mobility_positive_definiteness(const std::vector<vec3<double>>& positions,
                                                         const system_parameters& system,
                                                         const definiteness_limits& limits) {
    const std::size_t n = positions.size();
    if (n <= limits.cholesky_max_particles || n <= limits.eigenvalue_max_particles)
        return check_positive_definiteness(mobility_matrix(positions, system), n, limits);
    // Neither LAPACK call runs: the Gershgorin bound needs the row sums only, so the matrix (8 (3N)^2
    // bytes) is never stored. Row 3i + c holds component c of the 3x3 blocks mu_ij, j = 0..N-1.
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    const vec3<double> unit[3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    definiteness_report r;
    r.particles = n;
    r.smallest_eigenvalue = std::numeric_limits<double>::quiet_NaN();
    r.asymmetry = std::numeric_limits<double>::quiet_NaN();  // not checked without the matrix
    double bound = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        double radius[3] = {0.0, 0.0, 0.0}, diagonal[3] = {0.0, 0.0, 0.0};
        for (std::size_t j = 0; j < n; ++j)
            for (int d = 0; d < 3; ++d) {
                const vec3<double> column = hydrodynamic_contribution(i == j, positions[i], positions[j], unit[d], p);
                const double entries[3] = {column.x, column.y, column.z};
                for (int c = 0; c < 3; ++c) {
                    if (i == j && c == d) diagonal[c] = entries[c];
                    else radius[c] += std::fabs(entries[c]);
                }
            }
        for (int c = 0; c < 3; ++c) bound = std::min(bound, diagonal[c] - radius[c]);
    }
    r.gershgorin_lower_bound = bound;
    return r;
}

}  // namespace stokesian
