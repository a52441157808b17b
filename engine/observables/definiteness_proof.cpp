// The rigorous pieces of definiteness_verdict.hpp: quadratic forms with their rounding bounds, the
// Cholesky shift, and the host's LAPACK factorisation with its failure vector.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "lapack.hpp"
#include "stokesian/observables/definiteness_verdict.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian {

namespace {

constexpr double unit_roundoff = std::numeric_limits<double>::epsilon() / 2.0;  // 2^-53

// gamma_k = k u / (1 - k u) (Higham, Sec. 3.1), for k u < 1.
double gamma_of(double k) {
    const double ku = k * unit_roundoff;
    if (!(ku < 0.5)) throw std::invalid_argument("rounding bound: too many terms (" + std::to_string(k) + ")");
    return ku / (1.0 - ku);
}

// The bound for fl(q) = fl(sum_a x_a fl(sum_b m_ab x_b)) with rows of at most m terms: |dq| <=
// gamma_2m S, S = |x|^T |M| |x| (Higham (3.11) for each row sum, then the dot product). S itself is
// computed with relative error <= gamma_2m < 1%, covered by the factor 1.01.
double form_bound(std::size_t m, double s) { return 1.01 * gamma_of(2.0 * double(m)) * s; }

int fortran_order(std::size_t n) {
    if (n > 46340) throw std::invalid_argument("matrix of order " + std::to_string(n) + " is too large for LAPACK");
    return static_cast<int>(n);
}

}  // namespace

double cholesky_proof_shift(std::size_t n, double trace, double largest_diagonal) {
    const double g = gamma_of(double(n) + 1.0);
    return 1.01 * (g * trace / (1.0 - g) + unit_roundoff * largest_diagonal);
}

quadratic_form_value mobility_quadratic_form(const std::vector<vec3<double>>& positions,
                                             const system_parameters& system, const std::vector<double>& x,
                                             unsigned threads) {
    const std::size_t n = positions.size();
    if (x.size() != 3 * n)
        throw std::invalid_argument("quadratic form: " + std::to_string(x.size()) +
                                    " components for N = " + std::to_string(n));
    std::vector<std::size_t> support;  // particles with a nonzero component
    for (std::size_t i = 0; i < n; ++i)
        if (x[3 * i] != 0.0 || x[3 * i + 1] != 0.0 || x[3 * i + 2] != 0.0) support.push_back(i);
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    // Per row particle: its three components of x^T (M x) and of |x|^T (|M| |x|).
    std::vector<double> row_value(support.size()), row_size(support.size());
    const vec3<double> unit[3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    const auto rows = [&](std::size_t begin, std::size_t end) {
        dispatch_tensor(system.tensor, [&]<class Tensor>(Tensor) {
            for (std::size_t r = begin; r < end; ++r) {
                const std::size_t i = support[r];
                double y[3] = {0.0, 0.0, 0.0}, s[3] = {0.0, 0.0, 0.0};
                for (std::size_t j : support)
                    for (int c = 0; c < 3; ++c) {
                        // Column 3j + c of M, the entries mobility_matrix() stores.
                        const vec3<double> col =
                            hydrodynamic_contribution<Tensor>(i == j, positions[i], positions[j], unit[c], p);
                        const double entries[3] = {col.x, col.y, col.z};
                        const double xj = x[3 * j + c];
                        for (int a = 0; a < 3; ++a) {
                            y[a] += entries[a] * xj;
                            s[a] += std::fabs(entries[a]) * std::fabs(xj);
                        }
                    }
                double value = 0.0, size = 0.0;
                for (int a = 0; a < 3; ++a) {
                    value += x[3 * i + a] * y[a];
                    size += std::fabs(x[3 * i + a]) * s[a];
                }
                row_value[r] = value;
                row_size[r] = size;
            }
        });
    };
    unsigned workers = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
    workers = static_cast<unsigned>(std::min<std::size_t>(workers, std::max<std::size_t>(1, support.size() / 16)));
    if (workers <= 1) rows(0, support.size());
    else {
        std::vector<std::thread> pool;
        std::vector<std::exception_ptr> errors(workers);
        for (unsigned t = 0; t < workers; ++t)
            pool.emplace_back([&, t] {
                try {
                    rows(support.size() * t / workers, support.size() * (t + 1) / workers);
                } catch (...) {
                    errors[t] = std::current_exception();
                }
            });
        for (std::thread& t : pool) t.join();
        for (const std::exception_ptr& e : errors)
            if (e) std::rethrow_exception(e);
    }
    // The outer sum in row order: the same for any number of threads. Each row term is itself a sum
    // of 3 products of row sums of 3 |support| terms: rows of m = 3 |support| terms, then m terms.
    quadratic_form_value q;
    double size = 0.0;
    for (std::size_t r = 0; r < support.size(); ++r) {
        q.value += row_value[r];
        size += row_size[r];
    }
    q.bound = form_bound(3 * support.size(), size);
    return q;
}

quadratic_form_value dense_quadratic_form(const dense_matrix& m, const std::vector<double>& x) {
    if (x.size() != m.size) throw std::invalid_argument("quadratic form: vector and matrix sizes differ");
    quadratic_form_value q;
    double size = 0.0;
    for (std::size_t a = 0; a < m.size; ++a) {
        double y = 0.0, s = 0.0;
        for (std::size_t b = 0; b < m.size; ++b) {
            y += m(a, b) * x[b];
            s += std::fabs(m(a, b)) * std::fabs(x[b]);
        }
        q.value += x[a] * y;
        size += std::fabs(x[a]) * s;
    }
    q.bound = form_bound(m.size, size);
    return q;
}

host_cholesky_result host_cholesky(const dense_matrix& m, double shift) {
    host_cholesky_result r;
    const int n = fortran_order(m.size);
    if (n == 0) {
        r.factorised = true;
        return r;
    }
    const auto shifted = [&] {
        std::vector<double> a = m.values;
        for (std::size_t i = 0; i < m.size; ++i) a[i * m.size + i] -= shift;
        return a;
    };
    std::vector<double> a = shifted();
    dpotrf_("L", &n, a.data(), &n, &r.info, 1);
    if (r.info < 0) throw std::logic_error("dpotrf: illegal argument " + std::to_string(-r.info));
    r.factorised = r.info == 0;
    if (r.info == 0) return r;
    // x = [-A11^-1 a_k; 1; 0 ...] / norm: its quadratic form is the k-th pivot (mobility_device.cu).
    const int k = r.info;
    r.failure_vector.assign(m.size, 0.0);
    std::vector<double> z;
    if (k >= 2) {
        a = shifted();
        const int leading = k - 1, one = 1;
        int info = 0;
        dpotrf_("L", &leading, a.data(), &n, &info, 1);
        if (info != 0) return {false, r.info, {}};  // the leading block did not factorise again: no vector
        z.assign(a.begin() + std::ptrdiff_t(k - 1) * n, a.begin() + std::ptrdiff_t(k - 1) * n + (k - 1));
        dpotrs_("L", &leading, &one, a.data(), &n, z.data(), &leading, &info, 1);
        if (info != 0) throw std::logic_error("dpotrs: INFO = " + std::to_string(info));
    }
    double norm2 = 1.0;
    for (double v : z) norm2 += v * v;
    const double scale = 1.0 / std::sqrt(norm2);
    for (std::size_t i = 0; i < z.size(); ++i) r.failure_vector[i] = -z[i] * scale;
    r.failure_vector[std::size_t(k - 1)] = scale;
    return r;
}

eigenpair smallest_eigenpair(const dense_matrix& m) {
    const int n = fortran_order(m.size);
    if (n == 0) throw std::invalid_argument("smallest eigenpair of an empty matrix");
    std::vector<double> a = m.values;
    const int one = 1;
    const double unused = 0.0, abstol = 0.0;
    int found = 0, info = 0;
    std::vector<double> values(m.size);
    eigenpair e;
    e.vector.assign(m.size, 0.0);
    std::vector<int> support(2);
    double work_size = 0.0;
    int iwork_size = 0;
    const int query = -1;
    dsyevr_("V", "I", "L", &n, a.data(), &n, &unused, &unused, &one, &one, &abstol, &found, values.data(),
            e.vector.data(), &n, support.data(), &work_size, &query, &iwork_size, &query, &info, 1, 1, 1);
    if (info != 0) throw std::logic_error("dsyevr workspace query: INFO = " + std::to_string(info));
    const int lwork = static_cast<int>(work_size), liwork = iwork_size;
    std::vector<double> work(std::size_t(std::max(1, lwork)));
    std::vector<int> iwork(std::size_t(std::max(1, liwork)));
    dsyevr_("V", "I", "L", &n, a.data(), &n, &unused, &unused, &one, &one, &abstol, &found, values.data(),
            e.vector.data(), &n, support.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1, 1);
    if (info != 0 || found != 1) throw std::runtime_error("dsyevr failed: INFO = " + std::to_string(info));
    e.value = values[0];
    return e;
}

}  // namespace stokesian
