#pragma once
// The extreme eigenvalues of a symmetric linear map given only as a product (the mobility operator,
// core/mobility_operator.hpp, at any N): the Lanczos iteration with full reorthogonalisation
// (classical Gram-Schmidt, twice: "twice is enough", Parlett), on a deterministic start vector, so
// the same map gives the same Ritz values bit for bit. Memory: the basis, 8 n m bytes (n = 3N,
// m = max_iterations: 96 MB at N = 20 000, m = 200).
//
// What it says: each returned Ritz pair (theta, y), ||y|| = 1, is a Rayleigh quotient theta = y^T A y
// with residual r = A y - theta y, so in exact arithmetic an eigenvalue of A lies in
// [theta - ||r||, theta + ||r||], lambda_min <= theta_smallest and lambda_max >= theta_largest. It does
// not say that theta_smallest is near lambda_min (a Krylov space may miss an eigenvector): an
// estimate with a bound, never a proof. The Ritz vector is the candidate a proof of indefiniteness
// starts from (observables/definiteness_verdict.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace stokesian {

struct lanczos_options {
    std::size_t max_iterations = 200;  // the Krylov dimension m at most (also <= n)
    // Stop when the extreme Ritz pairs' residual estimates |beta_k s_k| are <= tolerance x max |theta|.
    double tolerance = 1e-8;
    std::uint64_t seed = 1;  // the start vector's pseudo-random components
};

struct ritz_pair {
    double value = 0.0;          // y^T A y for the normalised Ritz vector (one more product)
    double residual = 0.0;       // ||A y - value y||, computed
    std::vector<double> vector;  // y, unit Euclidean norm
};

struct lanczos_result {
    std::size_t iterations = 0;  // Krylov dimension reached
    bool converged = false;      // both residual estimates met the tolerance (or the space is invariant)
    ritz_pair smallest, largest;
};

// y <- A x for vectors of n components (no aliasing).
using symmetric_map = std::function<void(std::span<const double> x, std::span<double> y)>;

// Throws std::invalid_argument for n = 0 or max_iterations = 0; std::runtime_error when the map
// returns a non-finite value.
lanczos_result lanczos_extremes(std::size_t n, const symmetric_map& apply, const lanczos_options& options = {});

}  // namespace stokesian
