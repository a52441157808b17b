#include "stokesian/observables/extrema.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace stokesian {

bool parabola_vertex(const double* t, const double* x, std::size_t n, double& t_vertex, double& x_vertex) {
    // Fit x = c0 + c1 s + c2 s^2 with s = t - t_mid by the normal equations (3x3, solved by
    // Cramer's rule; n is small and s is centred, so the system is well conditioned).
    const double t_mid = t[n / 2];
    double S[5] = {0, 0, 0, 0, 0}, B[3] = {0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        const double s = t[i] - t_mid;
        double p = 1.0;
        for (int k = 0; k < 5; ++k) {
            S[k] += p;
            if (k < 3) B[k] += p * x[i];
            p *= s;
        }
    }
    const double m[3][3] = {{S[0], S[1], S[2]}, {S[1], S[2], S[3]}, {S[2], S[3], S[4]}};
    auto det3 = [](const double a[3][3]) {
        return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
               a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    };
    const double d = det3(m);
    if (d == 0.0) return false;
    double c[3];
    for (int col = 0; col < 3; ++col) {
        double mc[3][3];
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k) mc[r][k] = (k == col) ? B[r] : m[r][k];
        c[col] = det3(mc) / d;
    }
    if (c[2] == 0.0 || !std::isfinite(c[2])) return false;
    const double s_vertex = -c[1] / (2.0 * c[2]);
    t_vertex = t_mid + s_vertex;
    x_vertex = c[0] + c[1] * s_vertex + c[2] * s_vertex * s_vertex;
    return std::isfinite(t_vertex) && std::isfinite(x_vertex);
}

extremum_finder::extremum_finder(std::size_t half_window) : half_(std::max<std::size_t>(1, half_window)) {}

bool extremum_finder::add(double time, double value) {
    t_.push_back(time);
    x_.push_back(value);
    const std::size_t window = 2 * half_ + 1;
    if (t_.size() > window) {
        t_.pop_front();
        x_.pop_front();
    }
    if (t_.size() < window) return false;
    // The middle sample is a discrete maximum (minimum) if it is >= (<=) all samples of the window
    // and strictly above (below) its left neighbour, so a flat top is reported once.
    const double mid = x_[half_];
    bool is_max = x_[half_ - 1]<mid, is_min = x_[half_ - 1]> mid;
    for (std::size_t i = 0; i < window; ++i) {
        if (x_[i] > mid) is_max = false;
        if (x_[i] < mid) is_min = false;
    }
    if (!is_max && !is_min) return false;
    double tt[64], xx[64];
    const std::size_t n = std::min<std::size_t>(window, 64);
    for (std::size_t i = 0; i < n; ++i) {
        tt[i] = t_[i];
        xx[i] = x_[i];
    }
    double t_vertex = t_[half_], x_vertex = mid;
    if (!parabola_vertex(tt, xx, n, t_vertex, x_vertex) || t_vertex < tt[0] || t_vertex > tt[n - 1]) {
        t_vertex = t_[half_];  // degenerate fit: keep the discrete extremum
        x_vertex = mid;
    }
    extrema_.push_back({t_vertex, x_vertex, is_max});
    return true;
}

void extremum_finder::save(saved_state& s, const std::string& prefix) const {
    s.put_count(prefix + ".half_window", half_);
    s.put_reals(prefix + ".window_time", {t_.begin(), t_.end()});
    s.put_reals(prefix + ".window_value", {x_.begin(), x_.end()});
    std::vector<double> time, value;
    std::vector<std::uint64_t> maximum;
    for (const extremum& e : extrema_) {
        time.push_back(e.time);
        value.push_back(e.value);
        maximum.push_back(e.maximum ? 1 : 0);
    }
    s.put_reals(prefix + ".extremum_time", std::move(time));
    s.put_reals(prefix + ".extremum_value", std::move(value));
    s.put_counts(prefix + ".extremum_is_maximum", std::move(maximum));
}

void extremum_finder::restore(const saved_state& s, const std::string& prefix) {
    if (s.count(prefix + ".half_window") != half_)
        throw std::invalid_argument("state '" + prefix + ".half_window' differs from the run's half window " +
                                    std::to_string(half_));
    const std::vector<double>& window_time = s.real_array(prefix + ".window_time");
    const std::vector<double>& window_value = s.real_array(prefix + ".window_value");
    require_length(window_value, window_time.size(), prefix + ".window_value");
    if (window_time.size() > 2 * half_ + 1)
        throw std::invalid_argument("state '" + prefix + ".window_time' holds " + std::to_string(window_time.size()) +
                                    " samples, more than the window of " + std::to_string(2 * half_ + 1));
    const std::vector<double>& time = s.real_array(prefix + ".extremum_time");
    const std::vector<double>& value = s.real_array(prefix + ".extremum_value");
    const std::vector<std::uint64_t>& maximum = s.count_array(prefix + ".extremum_is_maximum");
    require_length(value, time.size(), prefix + ".extremum_value");
    require_length(maximum, time.size(), prefix + ".extremum_is_maximum");
    std::vector<extremum> extrema;
    for (std::size_t k = 0; k < time.size(); ++k) {
        if (maximum[k] > 1)
            throw std::invalid_argument("state '" + prefix + ".extremum_is_maximum' holds " +
                                        std::to_string(maximum[k]) + ", expected 0 or 1");
        extrema.push_back({time[k], value[k], maximum[k] == 1});
    }
    t_.assign(window_time.begin(), window_time.end());
    x_.assign(window_value.begin(), window_value.end());
    extrema_ = std::move(extrema);
}

cycle_statistics analyse_cycles(const std::vector<extremum>& extrema) {
    cycle_statistics c;
    const extremum* last_max = nullptr;
    const extremum* previous = nullptr;
    for (const auto& e : extrema) {
        if (e.maximum) {
            c.maximum_time.push_back(e.time);
            c.maximum_value.push_back(e.value);
            if (last_max) {
                c.period_time.push_back(e.time);
                c.period.push_back(e.time - last_max->time);
            }
            last_max = &e;
        } else {
            c.minimum_time.push_back(e.time);
            c.minimum_value.push_back(e.value);
        }
        if (previous && previous->maximum != e.maximum) {
            c.amplitude_time.push_back(e.time);
            c.amplitude.push_back(0.5 * std::fabs(e.value - previous->value));
        }
        previous = &e;
    }
    return c;
}

}  // namespace stokesian
