#pragma once
// Extrema of a sampled signal x(t), located by a least-squares parabola through the samples
// around each discrete extremum (the paper's method, Section 5: "the maxima and minima of x1(t)
// were determined by parabolic fits"). Streaming: it keeps only a window of 2k+1 samples, so a
// 50-million-step run never stores its trajectory.
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "stokesian/observables/saved_state.hpp"

namespace stokesian {

struct extremum {
    double time;
    double value;
    bool maximum;
};

// The vertex of the least-squares parabola through (t_i, x_i); times are taken relative to the
// middle sample for conditioning. Returns false when the points do not bend (no vertex).
bool parabola_vertex(const double* t, const double* x, std::size_t n, double& t_vertex, double& x_vertex);

class extremum_finder {
public:
    // half_window k: the fit uses 2k+1 samples centred on the discrete extremum (k >= 1).
    explicit extremum_finder(std::size_t half_window = 2);

    // Feeds the next sample (times strictly increasing). Returns true when it completed an extremum.
    bool add(double time, double value);

    const std::vector<extremum>& extrema() const { return extrema_; }

    // Checkpoints: the window and the extrema found, under "<prefix>.<member>".
    void save(saved_state& s, const std::string& prefix) const;
    void restore(const saved_state& s, const std::string& prefix);

private:
    std::size_t half_;
    std::deque<double> t_, x_;
    std::vector<extremum> extrema_;
};

// Cycle statistics from a sequence of extrema: the period between successive maxima (and between
// successive minima), and the amplitude (x_max - x_min) / 2 of each max-min pair.
struct cycle_statistics {
    std::vector<double> maximum_time, maximum_value;
    std::vector<double> minimum_time, minimum_value;
    std::vector<double> period_time, period;        // at the later maximum: t_k - t_{k-1}
    std::vector<double> amplitude_time, amplitude;  // at the later extremum of a max/min pair
};
cycle_statistics analyse_cycles(const std::vector<extremum>& extrema);

}  // namespace stokesian
