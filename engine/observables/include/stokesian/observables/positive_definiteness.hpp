#pragma once
// Is the mobility matrix positive definite? (Paper, Section 2.2: Rotne-Prager guarantees it for
// non-overlapping spheres; the project's RPY overlap form keeps it for overlapping ones; the Oseen
// tensor and the far form at overlap do not.) LAPACK, linked statically: a Cholesky factorisation
// (dpotrf) decides; the smallest eigenvalue (dsyevr) says by how much, for N up to a limit; a
// Gershgorin bound costs nothing and is always given.
#include <cstddef>
#include <vector>

#include "stokesian/core/system.hpp"
#include "stokesian/observables/mobility_matrix.hpp"

namespace stokesian {

// Work limits. The reference LAPACK/BLAS (Debian's netlib build, ~1.6 GFlop/s here) needs n^3/3 flops
// for Cholesky and ~4/3 n^3 for the eigenvalue (reduction to tridiagonal form), n = 3N, and 8 n^2
// bytes per copy of the matrix. Measured on one core: Cholesky 0.4 s at N = 500, 15 s at N = 1372,
// 47 s at N = 2048 (so ~6 min and 2.3 GB at N = 4000); the eigenvalue ~1 s at N = 500, ~6 s at
// N = 864 (engine/docs/observables.md). Above both limits only the Gershgorin bound is computed,
// from row sums, without storing the matrix.
struct definiteness_limits {
    std::size_t eigenvalue_max_particles = 1000;  // above: no eigenvalue (NaN)
    std::size_t cholesky_max_particles = 2000;    // above: no Cholesky
};

struct definiteness_report {
    std::size_t particles = 0;
    bool cholesky_attempted = false;
    bool cholesky_succeeded = false;
    int cholesky_info = 0;  // dpotrf's INFO: k > 0 means the leading minor of order k is not PD
    bool eigenvalue_computed = false;
    double smallest_eigenvalue = 0.0;     // NaN when not computed
    double gershgorin_lower_bound = 0.0;  // min_i (a_ii - sum_{j != i} |a_ij|) <= smallest eigenvalue
    double asymmetry = 0.0;               // max |a_ij - a_ji| / max |a_ij|: mu_ij = mu_ji^T up to rounding

    // The verdict: Cholesky where attempted, else the eigenvalue where computed, else only a positive
    // Gershgorin bound proves it (a bound <= 0 leaves it undecided).
    bool positive_definite() const {
        if (cholesky_attempted) return cholesky_succeeded;
        if (eigenvalue_computed) return smallest_eigenvalue > 0.0;
        return gershgorin_lower_bound > 0.0;
    }
    bool decided() const { return cholesky_attempted || eigenvalue_computed || gershgorin_lower_bound > 0.0; }
};

// `particles` only selects the limits (the matrix is 3 x particles square).
definiteness_report check_positive_definiteness(const dense_matrix& m, std::size_t particles,
                                                const definiteness_limits& limits = {});
definiteness_report check_mobility_positive_definiteness(const std::vector<vec3<double>>& positions,
                                                         const system_parameters& system,
                                                         const definiteness_limits& limits = {});

// The pieces, on a symmetric matrix (only the lower triangle is read by LAPACK).
bool cholesky_factorises(const dense_matrix& m, int& info);  // dpotrf on a copy
double smallest_eigenvalue(const dense_matrix& m);           // dsyevr, RANGE = 'I', IL = IU = 1
double gershgorin_lower_bound(const dense_matrix& m);
double relative_asymmetry(const dense_matrix& m);

}  // namespace stokesian
