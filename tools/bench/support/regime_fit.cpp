#include "regime_fit.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace stokesian::bench {

namespace {

double squared(double x) { return x * x; }

}  // namespace

linear_fit fit_linear(const std::vector<double>& n, const std::vector<double>& t) {
    // Normal equations of sum w (a N + b - t)^2 with w = 1/t^2.
    double sw = 0.0, sn = 0.0, snn = 0.0, st = 0.0, snt = 0.0;
    for (std::size_t k = 0; k < n.size(); ++k) {
        const double w = 1.0 / squared(t[k]);
        sw += w;
        sn += w * n[k];
        snn += w * n[k] * n[k];
        st += w * t[k];
        snt += w * n[k] * t[k];
    }
    const double det = sw * snn - sn * sn;
    if (!(det > 0.0)) throw std::invalid_argument("a linear fit needs two distinct particle numbers");
    linear_fit f;
    f.slope = (sw * snt - sn * st) / det;
    f.intercept = (snn * st - sn * snt) / det;
    for (std::size_t k = 0; k < n.size(); ++k) f.residual += squared((f.slope * n[k] + f.intercept - t[k]) / t[k]);
    return f;
}

quadratic_fit fit_quadratic(const std::vector<double>& n, const std::vector<double>& t) {
    if (n.empty()) throw std::invalid_argument("a quadratic fit needs at least one point");
    double numerator = 0.0, denominator = 0.0;
    for (std::size_t k = 0; k < n.size(); ++k) {
        const double x = n[k] * n[k] / t[k];
        numerator += x;
        denominator += x * x;
    }
    quadratic_fit f;
    f.coefficient = numerator / denominator;
    for (std::size_t k = 0; k < n.size(); ++k) f.residual += squared((f.coefficient * n[k] * n[k] - t[k]) / t[k]);
    return f;
}

std::optional<double> crossover(const linear_fit& linear, const quadratic_fit& quadratic) {
    const double a = linear.slope, b = linear.intercept, c = quadratic.coefficient;
    if (!(c > 0.0)) return std::nullopt;
    const double discriminant = a * a + 4.0 * b * c;
    if (discriminant < 0.0) return std::nullopt;
    const double root = (a + std::sqrt(discriminant)) / (2.0 * c);
    if (!(root > 0.0) || !std::isfinite(root)) return std::nullopt;
    return root;
}

regime_split split_regimes(std::vector<double> n, std::vector<double> t) {
    if (n.size() != t.size()) throw std::invalid_argument("split_regimes: N and t differ in length");
    std::vector<std::size_t> order(n.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::erase_if(order, [&](std::size_t k) { return !(t[k] > 0.0) || !std::isfinite(t[k]) || !(n[k] > 0.0); });
    if (order.empty()) throw std::invalid_argument("split_regimes: no positive, finite times to fit");
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return n[x] < n[y]; });
    std::vector<double> sn, st;
    for (std::size_t k : order) {
        sn.push_back(n[k]);
        st.push_back(t[k]);
    }
    const std::size_t count = sn.size();
    auto part = [](const std::vector<double>& v, std::size_t begin, std::size_t end) {
        return std::vector<double>(v.begin() + static_cast<long>(begin), v.begin() + static_cast<long>(end));
    };

    regime_split best;
    if (count < 4) {
        best.quadratic = fit_quadratic(sn, st);
        best.quadratic_points = count;
        best.quadratic_min_n = sn.front();
        return best;
    }
    double best_residual = INFINITY;
    for (std::size_t cut = 2; cut + 2 <= count; ++cut) {
        const std::vector<double> linear_n = part(sn, 0, cut), linear_t = part(st, 0, cut);
        if (linear_n.front() == linear_n.back()) continue;  // no slope from one N
        const linear_fit linear = fit_linear(linear_n, linear_t);
        const quadratic_fit quadratic = fit_quadratic(part(sn, cut, count), part(st, cut, count));
        const double residual = linear.residual + quadratic.residual;
        if (residual <= best_residual) {  // '<=': on ties the larger linear part
            best_residual = residual;
            best.linear = linear;
            best.quadratic = quadratic;
            best.linear_points = cut;
            best.quadratic_points = count - cut;
            best.linear_max_n = sn[cut - 1];
            best.quadratic_min_n = sn[cut];
        }
    }
    if (!best.linear) {  // every N the same: nothing to split
        best.quadratic = fit_quadratic(sn, st);
        best.quadratic_points = count;
        best.quadratic_min_n = sn.front();
        return best;
    }
    best.crossover_n = crossover(*best.linear, best.quadratic);
    return best;
}

}  // namespace stokesian::bench
