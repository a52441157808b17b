#include "stokesian/observables/cycle_analysis.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "stokesian/core/errors.hpp"

namespace stokesian {

namespace {
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
}

periodicity_monitor::periodicity_monitor(periodicity_criteria criteria)
    : criteria_(criteria), lost_time_(not_a_number), detected_time_(not_a_number) {}

double periodicity_monitor::reference_period() const {
    const std::vector<double> recent(recent_periods_.begin(), recent_periods_.end());
    return median(recent);
}

void periodicity_monitor::declare_lost(double lost_time, double detected_time, std::string reason) {
    lost_ = true;
    lost_time_ = lost_time;
    detected_time_ = detected_time;
    reason_ = std::move(reason);
}

void periodicity_monitor::add_maximum(double time) {
    if (lost_) return;
    if (have_maximum_) {
        const double period = time - last_maximum_;
        if (recent_periods_.size() >= criteria_.minimum_reference_periods) {
            const double reference = reference_period();
            if (std::fabs(period - reference) > criteria_.jump_tolerance * reference) {
                declare_lost(last_maximum_, time, "jump");
                return;
            }
        }
        recent_periods_.push_back(period);
        if (recent_periods_.size() > criteria_.reference_periods) recent_periods_.pop_front();
    }
    have_maximum_ = true;
    last_maximum_ = time;
}

void periodicity_monitor::observe(double time) {
    if (lost_ || !have_maximum_ || recent_periods_.empty()) return;
    if (time - last_maximum_ > criteria_.gap_factor * reference_period()) declare_lost(last_maximum_, time, "gap");
}

void periodicity_monitor::save(saved_state& s, const std::string& prefix) const {
    s.put_reals(prefix + ".criteria",
                {criteria_.gap_factor, criteria_.jump_tolerance, double(criteria_.reference_periods),
                 double(criteria_.minimum_reference_periods)});
    s.put_reals(prefix + ".recent_periods", {recent_periods_.begin(), recent_periods_.end()});
    s.put_count(prefix + ".have_maximum", have_maximum_ ? 1 : 0);
    s.put_real(prefix + ".last_maximum", last_maximum_);
    s.put_count(prefix + ".lost", lost_ ? 1 : 0);
    s.put_real(prefix + ".lost_time", lost_time_);
    s.put_real(prefix + ".detected_time", detected_time_);
    s.put_text(prefix + ".reason", reason_);
}

void periodicity_monitor::restore(const saved_state& s, const std::string& prefix) {
    saved_state mine;
    save(mine, prefix);
    const std::vector<double>& criteria = s.real_array(prefix + ".criteria");
    require_length(criteria, 4, prefix + ".criteria");
    for (std::size_t k = 0; k < criteria.size(); ++k)
        if (!(criteria[k] == mine.reals[prefix + ".criteria"][k]))
            throw std::invalid_argument("state '" + prefix + ".criteria' differs from the run's periodicity criteria");
    const std::vector<double>& recent = s.real_array(prefix + ".recent_periods");
    if (recent.size() > criteria_.reference_periods)
        throw std::invalid_argument("state '" + prefix + ".recent_periods' holds " + std::to_string(recent.size()) +
                                    " periods, more than the " + std::to_string(criteria_.reference_periods) + " kept");
    const std::string& reason = s.text(prefix + ".reason");
    if (reason != "" && reason != "gap" && reason != "jump")
        throw std::invalid_argument("state '" + prefix + ".reason' = '" + echoed(reason) +
                                    "', expected '', 'gap' or 'jump'");
    recent_periods_.assign(recent.begin(), recent.end());
    have_maximum_ = s.flag(prefix + ".have_maximum");
    last_maximum_ = s.real(prefix + ".last_maximum");
    lost_ = s.flag(prefix + ".lost");
    lost_time_ = s.real(prefix + ".lost_time");
    detected_time_ = s.real(prefix + ".detected_time");
    reason_ = reason;
}

std::vector<window_average> average_over_windows(std::span<const double> time, std::span<const double> value,
                                                 double origin, double horizon, double length) {
    std::vector<window_average> windows;
    if (!(length > 0.0) || !(horizon > origin)) return windows;
    // Window k covers [origin + k L, origin + (k+1) L); the bounds are computed from k, not
    // accumulated, so thousands of windows do not drift.
    for (std::size_t k = 0;; ++k) {
        const double start = origin + double(k) * length;
        if (!(start < horizon)) break;
        window_average w;
        w.start = start;
        w.end = origin + double(k + 1) * length;
        w.complete = w.end <= horizon;
        double sum = 0.0;
        for (std::size_t i = 0; i < time.size() && i < value.size(); ++i)
            if (time[i] >= w.start && time[i] < w.end && time[i] <= horizon) {
                sum += value[i];
                ++w.count;
            }
        w.mean = w.count > 0 ? sum / double(w.count) : not_a_number;
        windows.push_back(w);
    }
    return windows;
}

cycle_report analyse_cycle_run(const std::vector<extremum>& extrema, const periodicity_monitor& monitor, double origin,
                               double end, double window) {
    cycle_report r;
    r.all = analyse_cycles(extrema);
    r.horizon = monitor.lost() ? monitor.lost_time() : end;
    for (std::size_t k = 0; k < r.all.period.size(); ++k)
        if (r.all.period_time[k] <= r.horizon) {
            r.regular_period_time.push_back(r.all.period_time[k]);
            r.regular_period.push_back(r.all.period[k]);
        }
    for (std::size_t k = 0; k < r.all.amplitude.size(); ++k)
        if (r.all.amplitude_time[k] <= r.horizon) {
            r.regular_amplitude_time.push_back(r.all.amplitude_time[k]);
            r.regular_amplitude.push_back(r.all.amplitude[k]);
        }
    // Drift per cycle: the period against its cycle index; the amplitude (one per half cycle,
    // max-min and min-max pairs alternating) against half its index, so both slopes are per cycle.
    std::vector<double> cycle_index(r.regular_period.size());
    for (std::size_t k = 0; k < cycle_index.size(); ++k) cycle_index[k] = double(k);
    r.period_drift = fit_trend(cycle_index, r.regular_period);
    std::vector<double> half_cycle_index(r.regular_amplitude.size());
    for (std::size_t k = 0; k < half_cycle_index.size(); ++k) half_cycle_index[k] = 0.5 * double(k);
    r.amplitude_drift = fit_trend(half_cycle_index, r.regular_amplitude);
    r.period_windows = average_over_windows(r.regular_period_time, r.regular_period, origin, r.horizon, window);
    r.amplitude_windows =
        average_over_windows(r.regular_amplitude_time, r.regular_amplitude, origin, r.horizon, window);
    return r;
}

}  // namespace stokesian
