#pragma once
// What the paper reads off the periodic four-sphere motion (Section 5, Fig. 4), from the extrema
// of one coordinate: period and amplitude averaged over time windows, their drift per cycle with a
// 95% confidence interval, and the moment the motion stops being periodic. The thresholds are
// derived in engine/docs/observables.md ("Tetrahedron cycle").
#include <cstddef>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "stokesian/observables/extrema.hpp"
#include "stokesian/observables/saved_state.hpp"
#include "stokesian/observables/statistics.hpp"
#include "stokesian/observables/trend_fit.hpp"

namespace stokesian {

// When the motion counts as no longer periodic (defaults derived in engine/docs/observables.md).
struct periodicity_criteria {
    double gap_factor = 2.0;                    // no maximum for more than gap_factor x the reference period
    double jump_tolerance = 0.05;               // a period off the reference by more than this, relative
    std::size_t reference_periods = 10;         // the reference is the median of the last this many periods
    std::size_t minimum_reference_periods = 3;  // periods needed before a jump can be judged
};

// Streaming detector of the loss of periodicity: fed every completed maximum and the time of every
// sample, it fires once, on the first of
//   - gap:  no maximum for more than gap_factor x the reference period (cycles are no longer found);
//   - jump: a period differing from the reference by more than jump_tolerance x the reference.
// The reference period is the median of the last (up to) reference_periods regular periods; a
// median, not a mean, so that one bad period cannot drag the reference towards itself.
class periodicity_monitor {
public:
    explicit periodicity_monitor(periodicity_criteria criteria = {});

    void add_maximum(double time);
    void observe(double time);

    bool lost() const { return lost_; }
    // The end of the last regular cycle (the maximum after which the motion went wrong); NaN if not lost.
    double lost_time() const { return lost_time_; }
    // When the criterion fired (the irregular maximum, or the first sample past the allowed gap).
    double detected_time() const { return detected_time_; }
    const std::string& reason() const { return reason_; }  // "" | "gap" | "jump"
    double reference_period() const;                       // NaN before the first period
    const periodicity_criteria& criteria() const { return criteria_; }

    // Checkpoints: the reference periods and the verdict, under "<prefix>.<member>"; restore()
    // requires the same criteria (they follow from the scenario).
    void save(saved_state& s, const std::string& prefix) const;
    void restore(const saved_state& s, const std::string& prefix);

private:
    void declare_lost(double lost_time, double detected_time, std::string reason);

    periodicity_criteria criteria_;
    std::deque<double> recent_periods_;
    bool have_maximum_ = false;
    double last_maximum_ = 0.0;
    bool lost_ = false;
    double lost_time_, detected_time_;
    std::string reason_;
};

// The mean of the values whose times fall in [origin + k length, origin + (k+1) length), for
// k = 0, 1, ... while the window starts before the horizon. A window is complete when it ends at
// or before the horizon (the end of the run, or the loss of periodicity); only the last can be
// partial. Empty windows have count 0 and mean NaN.
struct window_average {
    double start = 0.0, end = 0.0;
    std::size_t count = 0;
    double mean = 0.0;
    bool complete = false;
};
std::vector<window_average> average_over_windows(std::span<const double> time, std::span<const double> value,
                                                 double origin, double horizon, double length);

// Everything the cycle observable reports, from the extrema of a run.
struct cycle_report {
    cycle_statistics all;                                     // every period and amplitude found
    std::vector<double> regular_period_time, regular_period;  // before the loss of periodicity
    std::vector<double> regular_amplitude_time, regular_amplitude;
    trend_fit period_drift;     // period vs cycle index k = 0, 1, ...: slopes per cycle
    trend_fit amplitude_drift;  // amplitude vs half-cycle index / 2: slopes per cycle
    std::vector<window_average> period_windows, amplitude_windows;  // the last may be partial
    double horizon = 0.0;                                           // end of the analysed stretch
};
// origin: time of the first sample; end: time of the last; window: averaging length (tau_s).
cycle_report analyse_cycle_run(const std::vector<extremum>& extrema, const periodicity_monitor& monitor, double origin,
                               double end, double window);

}  // namespace stokesian
