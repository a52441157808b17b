#include "stokesian/observables/velocity_spread.hpp"

#include <algorithm>
#include <cmath>

namespace stokesian {

namespace {

// Neumaier's variant of Kahan summation: the error of the sum is about one rounding of the result.
class compensated_sum {
public:
    void add(double x) {
        const double t = sum_ + x;
        compensation_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
        sum_ = t;
    }
    double value() const { return sum_ + compensation_; }

private:
    double sum_ = 0.0, compensation_ = 0.0;
};

}  // namespace

velocity_spread compute_velocity_spread(std::span<const vec3<double>> velocities) {
    velocity_spread out;
    const std::size_t n = velocities.size();
    if (n == 0) return out;
    compensated_sum x, y, z;
    for (const auto& v : velocities) {
        x.add(v.x);
        y.add(v.y);
        z.add(v.z);
    }
    const double inverse_n = 1.0 / double(n);
    out.mean = {x.value() * inverse_n, y.value() * inverse_n, z.value() * inverse_n};
    double squares = 0.0;
    for (const auto& v : velocities) {
        const vec3<double> d = v - out.mean;
        const double d2 = dot(d, d);
        squares += d2;
        out.max_deviation = std::max(out.max_deviation, std::sqrt(d2));
    }
    out.rms_deviation = std::sqrt(squares * inverse_n);
    return out;
}

}  // namespace stokesian
