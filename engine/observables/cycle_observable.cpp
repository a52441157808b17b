// Period and amplitude of a periodic coordinate (paper, Section 5 and Fig. 4): per cycle, averaged
// over windows, their drift per cycle, and the loss of periodicity (cycle_analysis.hpp).
#include <cmath>
#include <limits>
#include <numeric>

#include "observables_impl.hpp"
#include "stokesian/observables/cycle_analysis.hpp"
#include "stokesian/observables/extrema.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

std::string text(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

double mean_of(const std::vector<double>& values) {
    return values.empty() ? not_a_number : std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

class cycle_observable final : public observable {
public:
    cycle_observable(observable_settings::cycle_spec spec, box_settings box)
        : spec_(spec), box_(box), monitor_(periodicity_criteria{2.0, spec.period_jump_tolerance, 10, 3}) {}

    void sample(const frame& f) override {
        const vec3<double> r = unwrapped_position(f, spec_.particle, box_);
        const double value = spec_.component == 0 ? r.x : spec_.component == 1 ? r.y : r.z;
        if (samples_++ == 0) first_time_ = f.time;
        last_time_ = f.time;
        if (finder_.add(f.time, value) && finder_.extrema().back().maximum)
            monitor_.add_maximum(finder_.extrema().back().time);
        monitor_.observe(f.time);
    }

    void write(result_sink& out) const override {
        const cycle_report c = report();
        const std::map<std::string, std::string> attrs{
            {"particle", std::to_string(spec_.particle)},
            {"component", std::string(1, "xyz"[spec_.component])},
            {"method", "least-squares parabola through the 5 samples around each discrete extremum"}};
        out.write_result("cycle/maximum_time", c.all.maximum_time, attrs);
        out.write_result("cycle/maximum_value", c.all.maximum_value, attrs);
        out.write_result("cycle/minimum_time", c.all.minimum_time, attrs);
        out.write_result("cycle/minimum_value", c.all.minimum_value, attrs);
        out.write_result("cycle/period_time", c.all.period_time, attrs);
        out.write_result("cycle/period", c.all.period, attrs);
        out.write_result("cycle/amplitude_time", c.all.amplitude_time, attrs);
        out.write_result("cycle/amplitude", c.all.amplitude, attrs);

        const std::string regular = "cycles completed before the loss of periodicity (all of them if none)";
        out.write_result("cycle/regular_cycles", double(c.regular_period.size()),
                         {{"meaning", "number of periods (maximum to maximum) counted as regular: " + regular}});
        out.write_result("cycle/period_mean", mean_of(c.regular_period),
                         {{"meaning", "mean period of the " + regular}});
        out.write_result("cycle/amplitude_mean", mean_of(c.regular_amplitude),
                         {{"meaning", "mean amplitude (x_max - x_min) / 2 of the " + regular}});
        write_drift(out, "period", c.period_drift, "period (maximum to maximum) against the cycle index k = 0, 1, ...");
        write_drift(out, "amplitude", c.amplitude_drift,
                    "amplitude (one per half cycle) against half its index, i.e. per cycle");
        write_windows(out, c);
        write_loss(out);
    }

    void summarise(std::map<std::string, double>& summary) const override {
        const cycle_report c = report();
        summary["cycles"] = static_cast<double>(c.all.period.size());
        if (!c.all.period.empty()) {
            summary["period_mean"] = mean_of(c.regular_period);
            summary["period_last"] = c.all.period.back();
        }
        if (!c.all.amplitude.empty()) {
            summary["amplitude_mean"] = mean_of(c.regular_amplitude);
            summary["amplitude_last"] = c.all.amplitude.back();
        }
        summary["period_drift_per_cycle"] = c.period_drift.mean_slope.value;
        summary["period_drift_ci95_half_width"] = c.period_drift.mean_slope.ci95_half_width;
        summary["amplitude_drift_per_cycle"] = c.amplitude_drift.mean_slope.value;
        summary["amplitude_drift_ci95_half_width"] = c.amplitude_drift.mean_slope.ci95_half_width;
        summary["windows"] = static_cast<double>(complete_windows(c.period_windows));
        summary["lost_periodicity_time"] = monitor_.lost_time();
    }

    std::string kind() const override { return "cycle"; }

    void save(saved_state& s) const override {
        finder_.save(s, "finder");
        monitor_.save(s, "monitor");
        s.put_count("samples", samples_);
        s.put_reals("first_last_time", {first_time_, last_time_});
    }

    void restore(const saved_state& s) override {
        const std::vector<double>& times = s.real_array("first_last_time");
        require_length(times, 2, "first_last_time");
        finder_.restore(s, "finder");
        monitor_.restore(s, "monitor");
        samples_ = s.count("samples");
        first_time_ = times[0];
        last_time_ = times[1];
    }

private:
    cycle_report report() const {
        return analyse_cycle_run(finder_.extrema(), monitor_, first_time_, last_time_, spec_.window);
    }

    static std::size_t complete_windows(const std::vector<window_average>& windows) {
        std::size_t n = 0;
        for (const auto& w : windows) n += w.complete ? 1 : 0;
        return n;
    }

    static void write_drift(result_sink& out, const std::string& name, const trend_fit& fit, const std::string& what) {
        const std::string base = "cycle/" + name + "_drift";
        const std::string fitted = "least-squares slope of the " + what + ", regular cycles only (the mean drift)";
        const std::string degree = std::to_string(fit.degree);
        out.write_result(base + "_per_cycle", fit.mean_slope.value,
                         {{"meaning", fitted}, {"points", std::to_string(fit.points)}});
        out.write_result(base + "_standard_error", fit.mean_slope.standard_error,
                         {{"meaning",
                           "standard error of the slope: s / sqrt(sum (k - mean k)^2), s from the residuals of "
                           "the trend polynomial (" +
                               name +
                               "_trend/degree) over the regular cycles, so "
                               "curvature is not counted as noise (engine/docs/studies.md)"}});
        out.write_result(base + "_ci95_half_width", fit.mean_slope.ci95_half_width,
                         {{"meaning",
                           "half-width of the 95% confidence interval of the slope: t_{0.975, n-d-1} x "
                           "standard error (Student's t, Boost.Math; d the trend's degree); NaN for n < 3"}});
        out.write_result(base + "_intercept", fit.line_intercept, {{"meaning", "the least-squares line at cycle 0"}});
        // The trend itself: the polynomial of the lowest degree >= 2 the residuals support
        // (trend_fit.hpp), and what it says at the first cycle.
        const std::string trend = "cycle/" + name + "_trend/";
        const std::map<std::string, std::string> model{
            {"validity", to_string(fit.validity)},
            {"meaning",
             "polynomial in the cycle index of the lowest degree >= 2 that passes the lack-of-fit F test "
             "(p >= 0.001) against degree min(5, n - 2), fitted to the first `cycles` regular cycles "
             "(all, or the longest leading half, quarter, ... that passes); engine/docs/studies.md"}};
        out.write_result(trend + "degree", double(fit.degree), model);
        out.write_result(trend + "cycles", double(fit.window), model);
        out.write_result(
            trend + "lack_of_fit_p", fit.lack_of_fit_p,
            {{"meaning", "p-value of the lack-of-fit F test of the chosen degree; NaN: too few cycles to test"}});
        out.write_result(
            trend + "residual_runs_p", fit.residual_runs_p,
            {{"meaning", "p-value of the runs test of the residual signs (independent errors); NaN: < 10 cycles"}});
        out.write_result(trend + "interval_widening", fit.interval_widening,
                         {{"meaning",
                           "factor sqrt((1 + rho)/(1 - rho)) on the standard errors where the residuals are "
                           "positively correlated (lag-1 correlation rho), else 1"}});
        out.write_result(trend + "at_first_cycle", fit.first.value, {{"meaning", "the trend at cycle 0"}});
        out.write_result(trend + "at_first_cycle_ci95_half_width", fit.first.ci95_half_width,
                         {{"meaning", "95% half-width, Student t with cycles - degree - 1 degrees of freedom"}});
        out.write_result(trend + "drift_at_first_cycle", fit.initial_slope.value,
                         {{"meaning", "derivative of the trend at cycle 0, per cycle"}});
        out.write_result(trend + "drift_at_first_cycle_ci95_half_width", fit.initial_slope.ci95_half_width,
                         {{"meaning", "95% half-width, Student t with cycles - degree - 1 degrees of freedom"}});
    }

    void write_windows(result_sink& out, const cycle_report& c) const {
        // Complete windows under cycle/window/, the partial last one (run end or loss of
        // periodicity inside it) under cycle/partial_window/ so it is never averaged with the others.
        std::vector<double> start, end, count, period, amplitude;
        for (std::size_t k = 0; k < c.period_windows.size(); ++k) {
            const window_average& w = c.period_windows[k];
            const window_average& a = c.amplitude_windows[k];
            if (!w.complete) {
                const std::map<std::string, std::string> partial{
                    {"meaning", "the last window, cut short by the end of the analysed stretch (" + text(c.horizon) +
                                    " tau_s); not comparable with the complete windows"}};
                out.write_result("cycle/partial_window/start_time", w.start, partial);
                out.write_result("cycle/partial_window/end_time", c.horizon, partial);
                out.write_result("cycle/partial_window/cycles", double(w.count), partial);
                out.write_result("cycle/partial_window/period_mean", w.mean, partial);
                out.write_result("cycle/partial_window/amplitude_mean", a.mean, partial);
                continue;
            }
            start.push_back(w.start);
            end.push_back(w.end);
            count.push_back(double(w.count));
            period.push_back(w.mean);
            amplitude.push_back(a.mean);
        }
        const std::map<std::string, std::string> attrs{
            {"window_length", text(spec_.window)},
            {"meaning",
             "averages over complete windows [t0 + k W, t0 + (k+1) W) of the regular cycles; a period "
             "belongs to the window holding its closing maximum, an amplitude to the window holding "
             "its later extremum"}};
        out.write_result("cycle/window/start_time", start, attrs);
        out.write_result("cycle/window/end_time", end, attrs);
        out.write_result("cycle/window/cycles", count, attrs);
        out.write_result("cycle/window/period_mean", period, attrs);
        out.write_result("cycle/window/amplitude_mean", amplitude, attrs);
        out.write_result("cycle/windows", double(start.size()),
                         {{"meaning", "number of complete windows of " + text(spec_.window) + " tau_s"}});
    }

    void write_loss(result_sink& out) const {
        const periodicity_criteria& k = monitor_.criteria();
        const std::map<std::string, std::string> attrs{
            {"status", monitor_.lost() ? "lost" : "none"},
            {"reason",
             monitor_.lost()
                 ? (monitor_.reason() == "gap"
                        ? "gap: no maximum for more than " + text(k.gap_factor) + " x the reference period"
                        : "jump: a period off the reference by more than " + text(k.jump_tolerance) + " relative")
                 : "none"},
            {"reference_period", "median of the last " + std::to_string(k.reference_periods) + " regular periods"},
            {"gap_factor", text(k.gap_factor)},
            {"jump_tolerance", text(k.jump_tolerance)},
            {"meaning",
             "end of the last regular cycle (the maximum after which the motion stopped being "
             "periodic); NaN: periodic to the end (status none)"}};
        out.write_result("cycle/lost_periodicity_time", monitor_.lost_time(), attrs);
        out.write_result("cycle/lost_periodicity_detected_time", monitor_.detected_time(),
                         {{"meaning", "when the criterion fired; NaN: never"}});
    }

    observable_settings::cycle_spec spec_;
    box_settings box_;
    extremum_finder finder_{2};
    periodicity_monitor monitor_;
    std::uint64_t samples_ = 0;
    double first_time_ = 0.0, last_time_ = 0.0;
};

}  // namespace

std::unique_ptr<observable> make_cycle_observable(observable_settings::cycle_spec spec, const box_settings& box) {
    return std::make_unique<cycle_observable>(spec, box);
}

}  // namespace stokesian
