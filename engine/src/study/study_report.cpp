// The study's summary.md and study.json (study/study.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "stokesian/io/json_text.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/study/study.hpp"

namespace stokesian::study {

namespace {

std::string num(double x, int digits = 6) {
    if (std::isnan(x)) return "–";
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", digits, x);
    return b;
}

std::string pm(double x, double ci, int digits = 6) {
    if (std::isnan(x)) return "–";
    return std::isfinite(ci) ? num(x, digits) + " ± " + num(ci, 2) : num(x, digits);
}

// "adequate: degree 2 over 38 cycles, lack-of-fit p = 0.41, runs p = 0.3" (trend_fit.hpp); the
// amplitudes count half cycles.
std::string trend_text(const trend_fit& t, const std::string& points) {
    if (t.degree < 0) return "–";
    return to_string(t.validity) + ": degree " + std::to_string(t.degree) + " over " + std::to_string(t.window) + " " +
           points + (std::isnan(t.lack_of_fit_p) ? "" : ", lack-of-fit p = " + num(t.lack_of_fit_p, 2)) +
           (std::isnan(t.residual_runs_p) ? "" : ", runs p = " + num(t.residual_runs_p, 2));
}

std::string integrator_label(integrator_kind k) { return std::string(to_string(k)); }

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

std::string study_markdown(const study_report& r, const std::vector<std::string>& figures) {
    const study_settings& s = r.settings;
    std::ostringstream m;
    m << "# " << (s.kind == "precision" ? "Precision" : "Time-step") << " study: " << s.scenario.filename().string()
      << (s.case_name.empty() ? "" : " (case " + s.case_name + ")") << "\n\n";
    m << "- runs: " << r.runs.size() << " (" << s.modes.size() << " precision modes × " << s.dts.size()
      << " time steps × " << s.integrators.size() << " integrators), " << num(s.time) << " τ_s each, sampled every "
      << num(s.sample_every) << " τ_s; backend " << s.backend << "\n";
    if (std::isfinite(r.wall_seconds)) m << "- wall time of the study: " << num(r.wall_seconds, 4) << " s\n";
    m << "- data: `runs/<run>.h5` (H5MD, one per run), `study.json` (everything below), `manifest.toml` "
         "(`stokesian suite run` repeats the runs)\n";
    m << "- per run, from the trend of the periods and amplitudes over the regular cycles (before any loss of "
         "periodicity): a polynomial of the lowest degree >= 2 that passes a lack-of-fit F test "
         "(engine/docs/studies.md). "
         "`period, cycle 0` is its value and `drift` its slope d/d cycle at cycle 0, with 95% Student-t intervals; "
         "`mean drift` is the least-squares line's slope over all regular cycles (the engine's "
         "`period_drift_per_cycle`), its interval with the noise from the trend's residuals. `trend` names the "
         "degree, the cycles it was fitted to and the test's p-value; `lack of fit`: the intervals are not to be "
         "trusted\n\n";

    m << "## Runs\n\n"
      << "| run | mode | integrator | δt | status | regular cycles | period, cycle 0 (τ_s) | mean period (τ_s) | "
         "period drift at cycle 0 (τ_s/cycle) | mean period drift (τ_s/cycle) | period trend | "
         "amplitude drift at cycle 0 (a/cycle) | amplitude trend | lost periodicity at (τ_s) | max \\|y₁\\| (a) | "
         "velocity evaluations | wall (s) |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const run_summary& x : r.runs) {
        m << "| " << x.name << " | " << to_string(x.mode) << " | " << integrator_label(x.integrator) << " | "
          << num(x.dt) << " | " << (x.completed ? "completed" : x.status) << " | " << x.regular_cycles << " | "
          << pm(x.period_first, x.period_first_ci95, 9) << " | " << num(x.period_mean, 9) << " | "
          << pm(x.period_drift, x.period_drift_ci95) << " | " << pm(x.period_drift_mean, x.period_drift_mean_ci95)
          << " | " << trend_text(x.period_trend, "cycles") << " | " << pm(x.amplitude_drift, x.amplitude_drift_ci95)
          << " | " << trend_text(x.amplitude_trend, "half cycles") << " | "
          << (std::isfinite(x.lost_periodicity_time) ? num(x.lost_periodicity_time) : "periodic") << " | "
          << num(x.max_abs_y1, 2) << " | " << num(x.evaluations, 4) << " | " << num(x.wall_seconds, 3) << " |\n";
    }

    if (!r.convergence.empty()) {
        m << "\n## Convergence in δt\n\n"
             "Q(δt) = Q₀ + c δt^p fitted to the successive differences of paired cycles between neighbouring "
             "time steps (engine/docs/studies.md): `period_first` is the period of the first cycle (intercept "
             "of the line through the periods), `period_drift` its growth per cycle. A difference within 3 "
             "standard errors of zero counts as unresolved. Both are taken over the first "
          << s.fit_cycles
          << " cycles (or as many as every run of the group has: the column `cycles paired`). Q₀ is the "
             "Richardson-extrapolated value; for the "
             "drift it should vanish (the exact motion is periodic) and measures what the sampling adds.\n\n"
          << "| mode | integrator | quantity | order p ± 95% CI | c | resolved (unresolved) differences | Q₀ | "
             "cycles paired | note |\n|---|---|---|---|---|---|---|---|---|\n";
        for (const convergence_series& c : r.convergence)
            m << "| " << to_string(c.mode) << " | " << integrator_label(c.integrator) << " | " << c.quantity << " | "
              << pm(c.fit.order, c.fit.order_ci95, 4) << " | " << num(c.fit.coefficient, 4) << " | " << c.fit.points
              << " (" << c.fit.unresolved << ") | " << num(c.extrapolated, 10) << " | " << c.cycles << " | "
              << c.fit.note << " |\n";
        m << "\nBias per run (the quantity minus Q₀, or minus its value at the finest δt where no order was "
             "fitted):\n\n"
          << "| mode | integrator | quantity | δt | value | bias | difference to next δt ± SE |\n"
             "|---|---|---|---|---|---|---|\n";
        for (const convergence_series& c : r.convergence)
            for (std::size_t k = 0; k < c.dts.size(); ++k) {
                const std::string diff =
                    k < c.differences.size() ? pm(c.differences[k].value, c.differences[k].standard_error, 4) : "";
                m << "| " << to_string(c.mode) << " | " << integrator_label(c.integrator) << " | " << c.quantity
                  << " | " << num(c.dts[k]) << " | " << num(c.values[k], 10) << " | " << num(c.bias[k], 4) << " | "
                  << diff << " |\n";
            }
    }

    if (!r.cost.empty() && s.integrators.size() + s.dts.size() > 2) {
        m << "\n## Drift per compute cost\n\n"
             "Cost of a run = velocity evaluations (steps × evaluations per step: euler 1, heun 2, rk4 4, ab2 1; "
             "hardware-neutral) and wall seconds (this backend; on CUDA only Euler runs on the fused many-steps-"
             "per-launch path). From the fitted drift |drift| = |c| δt^q: the δt, the evaluations and the wall "
             "seconds per simulated τ_s needed to keep the period drift below each target.\n\n"
          << "| mode | integrator | evaluations/step | wall per evaluation (µs) | drift model |c| δt^q";
        for (const double t : r.drift_targets)
            m << " | target " << num(t) << " τ_s/cycle: δt, evaluations/τ_s, wall s/τ_s";
        m << " | note |\n|---|---|---|---|---|";
        for (std::size_t k = 0; k < r.drift_targets.size(); ++k) m << "---|";
        m << "---|\n";
        for (const cost_entry& c : r.cost) {
            m << "| " << to_string(c.mode) << " | " << integrator_label(c.integrator) << " | " << c.evaluations_per_step
              << " | " << num(1e6 * c.wall_per_evaluation, 3) << " | "
              << (std::isfinite(c.drift_order) && c.note.empty()
                      ? num(c.drift_coefficient, 3) + " δt^" + num(c.drift_order, 3)
                      : "–");
            for (std::size_t k = 0; k < r.drift_targets.size(); ++k) {
                if (k < c.dt_needed.size())
                    m << " | " << num(c.dt_needed[k], 3) << (c.beyond_range[k] ? "*" : "") << ", "
                      << num(c.evaluations_per_tau[k], 3) << ", " << num(c.wall_per_tau[k], 3);
                else m << " | –";
            }
            m << " | " << c.note << " |\n";
        }
        // Ranking: cheapest in wall seconds per tau_s at each target.
        for (std::size_t k = 0; k < r.drift_targets.size(); ++k) {
            std::vector<const cost_entry*> ranked;
            for (const cost_entry& c : r.cost)
                if (k < c.wall_per_tau.size() && std::isfinite(c.wall_per_tau[k])) ranked.push_back(&c);
            if (ranked.empty()) continue;
            std::sort(ranked.begin(), ranked.end(), [k](const cost_entry* a, const cost_entry* b) {
                return a->wall_per_tau[k] < b->wall_per_tau[k];
            });
            m << (k == 0 ? "\n" : "") << "- drift ≤ " << num(r.drift_targets[k])
              << " τ_s/cycle, cheapest first (wall s per τ_s): ";
            for (std::size_t j = 0; j < ranked.size(); ++j)
                m << (j ? ", " : "") << integrator_label(ranked[j]->integrator) << " ("
                  << (s.modes.size() > 1 ? mode_tag(ranked[j]->mode) + ", " : "") << num(ranked[j]->wall_per_tau[k], 3)
                  << (ranked[j]->beyond_range[k] ? "*" : "") << ")";
            m << "\n";
        }
        m << "\n\\* δt outside the fitted range ("
          << "extrapolated model; the ranking is indicative only)\n";
    }

    if (!figures.empty()) {
        m << "\n## Figures\n\n";
        for (const std::string& f : figures) m << "![" << f << "](" << f << ")\n\n";
    }
    return m.str();
}

std::string study_json(const study_report& r, const std::vector<std::string>& figures) {
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
                          {"figures", figures}},
                         2);
}

}  // namespace stokesian::study
