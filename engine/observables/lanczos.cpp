// lanczos.hpp: the Lanczos iteration with full reorthogonalisation for the extreme eigenpairs.
#include "stokesian/observables/lanczos.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "lapack.hpp"
#include "stokesian/core/portable_random.hpp"

namespace stokesian {

namespace {

double dot(std::span<const double> a, std::span<const double> b) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

double norm(std::span<const double> a) { return std::sqrt(dot(a, a)); }

// splitmix64 (core/portable_random.hpp): a fixed, platform-independent sequence, mapped to [-1, 1).
std::vector<double> start_vector(std::size_t n, std::uint64_t seed) {
    std::vector<double> v(n);
    std::uint64_t state = seed;
    for (double& x : v) x = double(splitmix64(state) >> 11) * 0x1.0p-52 - 1.0;
    const double length = norm(v);
    for (double& x : v) x /= length;
    return v;
}

// Eigenvalues (ascending) and eigenvectors (column-major, k x k) of the tridiagonal T_k (LAPACK dstev).
void tridiagonal_eigen(const std::vector<double>& alpha, const std::vector<double>& beta, std::size_t k,
                       std::vector<double>& values, std::vector<double>& vectors) {
    values.assign(alpha.begin(), alpha.begin() + static_cast<std::ptrdiff_t>(k));
    std::vector<double> off(beta.begin(), beta.begin() + static_cast<std::ptrdiff_t>(k > 0 ? k - 1 : 0));
    off.resize(std::max<std::size_t>(k, 1));
    vectors.assign(k * k, 0.0);
    std::vector<double> work(std::max<std::size_t>(1, 2 * k));
    const int order = static_cast<int>(k);
    int info = 0;
    dstev_("V", &order, values.data(), off.data(), vectors.data(), &order, work.data(), &info, 1);
    if (info != 0) throw std::runtime_error("dstev failed: INFO = " + std::to_string(info));
}

void require_finite(std::span<const double> v) {
    for (double x : v)
        if (!std::isfinite(x)) throw std::runtime_error("Lanczos: the linear map returned a non-finite value");
}

// The Ritz pair of T's eigenvector `column`: y = Q s normalised, its Rayleigh quotient and residual
// from one more product.
ritz_pair ritz(const std::vector<std::vector<double>>& basis, const std::vector<double>& vectors, std::size_t k,
               std::size_t column, std::size_t n, const symmetric_map& apply) {
    ritz_pair r;
    r.vector.assign(n, 0.0);
    for (std::size_t j = 0; j < k; ++j) {
        const double s = vectors[column * k + j];
        for (std::size_t i = 0; i < n; ++i) r.vector[i] += s * basis[j][i];
    }
    const double length = norm(r.vector);
    for (double& x : r.vector) x /= length;
    std::vector<double> image(n);
    apply(r.vector, image);
    require_finite(image);
    r.value = dot(r.vector, image);
    for (std::size_t i = 0; i < n; ++i) image[i] -= r.value * r.vector[i];
    r.residual = norm(image);
    return r;
}

}  // namespace

lanczos_result lanczos_extremes(std::size_t n, const symmetric_map& apply, const lanczos_options& options) {
    if (n == 0) throw std::invalid_argument("Lanczos: empty vector space");
    if (options.max_iterations == 0) throw std::invalid_argument("Lanczos: max_iterations must be at least 1");
    if (!(options.tolerance > 0.0)) throw std::invalid_argument("Lanczos: tolerance must be positive");
    const std::size_t m = std::min(options.max_iterations, n);
    std::vector<std::vector<double>> basis;
    basis.reserve(m);
    basis.push_back(start_vector(n, options.seed));
    std::vector<double> alpha, beta, w(n), values, vectors;
    lanczos_result result;
    // Check convergence every few steps (dstev costs O(k^2) with vectors), and at the end.
    constexpr std::size_t check_every = 5;
    std::size_t k = 0;
    bool invariant = false;
    while (k < m) {
        const std::vector<double>& q = basis[k];
        apply(q, w);
        require_finite(w);
        alpha.push_back(dot(q, w));
        // Full reorthogonalisation against the whole basis, twice (this also removes alpha q and beta q_prev).
        for (int pass = 0; pass < 2; ++pass)
            for (const std::vector<double>& b : basis) {
                const double c = dot(b, w);
                for (std::size_t i = 0; i < n; ++i) w[i] -= c * b[i];
            }
        const double b = norm(w);
        ++k;
        // An invariant subspace: beta is rounding noise relative to the map's scale.
        double scale = 0.0;
        for (double a : alpha) scale = std::max(scale, std::fabs(a));
        for (double x : beta) scale = std::max(scale, x);
        invariant = b <= 1e-13 * std::max(scale, 1e-300);
        beta.push_back(b);
        if (k == m || invariant || k % check_every == 0) {
            tridiagonal_eigen(alpha, beta, k, values, vectors);
            const double size = std::max(std::fabs(values.front()), std::fabs(values.back()));
            const double low = std::fabs(b * vectors[0 * k + (k - 1)]);
            const double high = std::fabs(b * vectors[(k - 1) * k + (k - 1)]);
            if (invariant || (low <= options.tolerance * size && high <= options.tolerance * size)) {
                result.converged = true;
                break;
            }
        }
        if (k == m) break;
        std::vector<double> next(n);
        for (std::size_t i = 0; i < n; ++i) next[i] = w[i] / b;
        basis.push_back(std::move(next));
    }
    result.iterations = k;
    result.smallest = ritz(basis, vectors, k, 0, n, apply);
    result.largest = ritz(basis, vectors, k, k - 1, n, apply);
    return result;
}

}  // namespace stokesian
