#pragma once
// A dense direct solve for test oracles (small systems only).
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace stokesian::test_support {

// Solves A x = b (n x n, column-major a[j * n + i]) by Gaussian elimination with partial pivoting.
inline std::vector<double> dense_solve(std::vector<double> a, std::vector<double> b, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t p = k;
        for (std::size_t i = k + 1; i < n; ++i)
            if (std::fabs(a[k * n + i]) > std::fabs(a[k * n + p])) p = i;
        for (std::size_t j = 0; j < n; ++j) std::swap(a[j * n + k], a[j * n + p]);
        std::swap(b[k], b[p]);
        for (std::size_t i = k + 1; i < n; ++i) {
            const double factor = a[k * n + i] / a[k * n + k];
            for (std::size_t j = k; j < n; ++j) a[j * n + i] -= factor * a[j * n + k];
            b[i] -= factor * b[k];
        }
    }
    std::vector<double> x(n);
    for (std::size_t k = n; k-- > 0;) {
        double sum = b[k];
        for (std::size_t j = k + 1; j < n; ++j) sum -= a[j * n + k] * x[j];
        x[k] = sum / a[k * n + k];
    }
    return x;
}

}  // namespace stokesian::test_support
