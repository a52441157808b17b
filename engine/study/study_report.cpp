// The study's data, study.json (study/study.hpp); tools/report renders summary.md and the figures.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "stokesian/io/json_text.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/study/study.hpp"

namespace stokesian::study {

namespace {

// {"degree": 2, "cycles": 38, "lack_of_fit_p": 0.41, "validity": "adequate"}; a degree below 0 (no
// trend fitted) is null.
io::json json_trend(const trend_fit& t) {
    return {{"degree", t.degree < 0 ? io::json(nullptr) : io::json(t.degree)},
            {"cycles", t.window},
            {"lack_of_fit_p", t.lack_of_fit_p},
            {"residual_runs_p", t.residual_runs_p},
            {"residual_lag1_correlation", t.residual_lag1_correlation},
            {"interval_widening", t.interval_widening},
            {"validity", to_string(t.validity)}};
}

}  // namespace

std::string study_json(const study_report& r, const std::vector<std::string>& figures,
                       const std::map<std::string, std::string>& provenance) {
    const study_settings& s = r.settings;
    io::json modes = io::json::array(), integrators = io::json::array();
    for (const auto& m : s.modes) modes.push_back(to_string(m));
    for (const auto& i : s.integrators) integrators.push_back(std::string(to_string(i)));
    io::json runs = io::json::array();
    for (const run_summary& x : r.runs)
        runs.push_back({{"name", x.name},
                        {"file", x.file},
                        {"mode", to_string(x.mode)},
                        {"integrator", std::string(to_string(x.integrator))},
                        {"dt", x.dt},
                        {"status", x.status},
                        {"backend", x.backend},
                        {"steps", x.steps},
                        {"evaluations", x.evaluations},
                        {"wall_seconds", x.wall_seconds},
                        {"regular_cycles", x.regular_cycles},
                        {"period_first", x.period_first},
                        {"period_first_ci95", x.period_first_ci95},
                        {"period_mean", x.period_mean},
                        {"period_drift", x.period_drift},
                        {"period_drift_ci95", x.period_drift_ci95},
                        {"amplitude_mean", x.amplitude_mean},
                        {"amplitude_drift", x.amplitude_drift},
                        {"amplitude_drift_ci95", x.amplitude_drift_ci95},
                        {"period_drift_mean", x.period_drift_mean},
                        {"period_drift_mean_ci95", x.period_drift_mean_ci95},
                        {"amplitude_drift_mean", x.amplitude_drift_mean},
                        {"amplitude_drift_mean_ci95", x.amplitude_drift_mean_ci95},
                        {"period_trend", json_trend(x.period_trend)},
                        {"amplitude_trend", json_trend(x.amplitude_trend)},
                        {"lost_periodicity_time", x.lost_periodicity_time},
                        {"max_abs_y1", x.max_abs_y1}});
    io::json convergence = io::json::array();
    for (const convergence_series& c : r.convergence) {
        std::vector<double> dv, ds;
        for (const difference_point& q : c.differences) {
            dv.push_back(q.value);
            ds.push_back(q.standard_error);
        }
        convergence.push_back({{"quantity", c.quantity},
                               {"mode", to_string(c.mode)},
                               {"integrator", std::string(to_string(c.integrator))},
                               {"dts", c.dts},
                               {"values", c.values},
                               {"differences", dv},
                               {"difference_standard_errors", ds},
                               {"order", c.fit.order},
                               {"order_ci95", c.fit.order_ci95},
                               {"coefficient", c.fit.coefficient},
                               {"resolved", c.fit.points},
                               {"unresolved", c.fit.unresolved},
                               {"extrapolated", c.extrapolated},
                               {"bias", c.bias},
                               {"bias_reference", c.bias_reference},
                               {"cycles", c.cycles},
                               {"note", c.fit.note}});
    }
    io::json cost = io::json::array();
    for (const cost_entry& c : r.cost)
        cost.push_back({{"mode", to_string(c.mode)},
                        {"integrator", std::string(to_string(c.integrator))},
                        {"evaluations_per_step", c.evaluations_per_step},
                        {"wall_per_evaluation", c.wall_per_evaluation},
                        {"drift_coefficient", c.drift_coefficient},
                        {"drift_order", c.drift_order},
                        {"targets", c.targets},
                        {"dt_needed", c.dt_needed},
                        {"evaluations_per_tau", c.evaluations_per_tau},
                        {"wall_per_tau", c.wall_per_tau},
                        {"beyond_range", c.beyond_range},
                        {"dt_min", c.dt_min},
                        {"dt_max", c.dt_max},
                        {"note", c.note}});
    return io::json_text({{"kind", s.kind},
                          {"scenario", s.scenario.string()},
                          {"case", s.case_name},
                          {"backend", s.backend},
                          {"time", s.time},
                          {"sample_every", s.sample_every},
                          {"trajectory_time", s.trajectory_time},
                          {"fit_cycles", s.fit_cycles},
                          {"wall_seconds", r.wall_seconds},
                          {"modes", std::move(modes)},
                          {"dts", s.dts},
                          {"integrators", std::move(integrators)},
                          {"drift_targets", r.drift_targets},
                          {"runs", std::move(runs)},
                          {"convergence", std::move(convergence)},
                          {"cost", std::move(cost)},
                          {"figures", figures},
                          {"provenance", io::json_object(provenance)}},
                         2);
}

}  // namespace stokesian::study
