// Reading a study's results and fitting (study/study.hpp): per-run cycle statistics, convergence
// orders per (mode, integrator), drift per compute cost per integrator.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/study/study.hpp"

namespace stokesian::study {

namespace {

double attribute_number(const io::h5md_file& f, const std::string& name) {
    const auto text = f.parameter_attribute("/parameters/run", name);
    return text ? read_number(*text).value_or(nan) : nan;
}

double scalar(const io::h5md_file& f, const std::string& path) {
    if (!f.exists(path)) return nan;
    const std::vector<double> v = f.read_doubles(path);
    return v.size() == 1 ? v.front() : nan;
}

std::vector<double> before(const io::h5md_file& f, const std::string& values, const std::string& times,
                           double horizon) {
    if (!f.exists(values) || !f.exists(times)) return {};
    const std::vector<double> v = f.read_doubles(values), t = f.read_doubles(times);
    std::vector<double> out;
    for (std::size_t k = 0; k < std::min(v.size(), t.size()); ++k)
        if (!(t[k] > horizon)) out.push_back(v[k]);
    return out;
}

double mean_of(const std::vector<double>& v) {
    if (v.empty()) return nan;
    double s = 0.0;
    for (const double x : v) s += x;
    return s / double(v.size());
}

std::vector<double> indices(std::size_t n, double step) {
    std::vector<double> x(n);
    for (std::size_t j = 0; j < n; ++j) x[j] = step * double(j);
    return x;
}

}  // namespace

run_summary read_run_summary(const std::filesystem::path& result) {
    const io::h5md_file f(result);
    run_summary r;
    r.file = result.string();
    r.name = result.stem().string();
    const auto text = [&](const std::string& group, const std::string& name) {
        return f.parameter_attribute(group, name).value_or("");
    };
    r.status = text("/parameters/run", "status");
    r.completed = r.status == "completed";
    r.backend = text("/parameters/engine", "backend");
    try {
        r.mode = parse_precision_mode(text("/parameters/run", "precision"));
        r.integrator = parse_integrator(text("/parameters/run", "integrator"));
    } catch (const std::invalid_argument& e) {
        throw input_error(result.string(), "/parameters/run", "", e.what());
    }
    r.dt = attribute_number(f, "dt");
    r.wall_seconds = attribute_number(f, "wall_seconds");
    const auto steps = read_count(text("/parameters/run", "steps"));
    if (!steps)
        throw input_error(result.string(), "/parameters/run steps", text("/parameters/run", "steps"),
                          "expected an integer");
    r.steps = *steps;
    r.evaluations = double(r.steps) * evaluations_per_step(r.integrator);
    r.lost_periodicity_time = scalar(f, "/analysis/cycle/lost_periodicity_time");
    const double horizon = std::isfinite(r.lost_periodicity_time) ? r.lost_periodicity_time : INFINITY;
    r.period = before(f, "/analysis/cycle/period", "/analysis/cycle/period_time", horizon);
    r.amplitude = before(f, "/analysis/cycle/amplitude", "/analysis/cycle/amplitude_time", horizon);
    r.regular_cycles = r.period.size();
    r.period_mean = mean_of(r.period);
    r.amplitude_mean = mean_of(r.amplitude);
    // Fitted here from the series (the same fit as the engine's, cycle_analysis.cpp): the study
    // reports the whole fit (the residuals' lag-1 correlation too), which the result stores in part.
    r.period_trend = fit_trend(indices(r.period.size(), 1.0), r.period);
    r.period_first = r.period_trend.first.value;
    r.period_first_ci95 = r.period_trend.first.ci95_half_width;
    r.period_drift = r.period_trend.initial_slope.value;
    r.period_drift_ci95 = r.period_trend.initial_slope.ci95_half_width;
    r.period_drift_mean = r.period_trend.mean_slope.value;
    r.period_drift_mean_ci95 = r.period_trend.mean_slope.ci95_half_width;
    r.amplitude_trend = fit_trend(indices(r.amplitude.size(), 0.5), r.amplitude);
    r.amplitude_drift = r.amplitude_trend.initial_slope.value;
    r.amplitude_drift_ci95 = r.amplitude_trend.initial_slope.ci95_half_width;
    r.amplitude_drift_mean = r.amplitude_trend.mean_slope.value;
    r.amplitude_drift_mean_ci95 = r.amplitude_trend.mean_slope.ci95_half_width;
    r.max_abs_y1 = scalar(f, "/analysis/symmetry/y1_max_abs");
    return r;
}

namespace {

// The convergence of one quantity over the dts of a group (runs sorted by descending dt), from
// the first `cycles` cycles of each.
convergence_series converge(const std::vector<const run_summary*>& group, std::size_t cycles, bool drift) {
    convergence_series c;
    c.quantity = drift ? "period_drift" : "period_first";
    c.mode = group.front()->mode;
    c.integrator = group.front()->integrator;
    c.cycles = cycles;
    for (const run_summary* r : group) {
        const std::vector<double> p(r->period.begin(), r->period.begin() + std::ptrdiff_t(cycles));
        const line_estimate own = fit_line_with_errors(indices(cycles, 1.0), p);
        c.dts.push_back(r->dt);
        c.values.push_back(drift ? own.slope : own.intercept);
    }
    for (std::size_t k = 0; k + 1 < group.size(); ++k) {
        const line_estimate d = paired_difference(group[k]->period, group[k + 1]->period, cycles);
        difference_point q;
        q.dt = group[k]->dt;
        q.dt_next = group[k + 1]->dt;
        q.value = drift ? d.slope : d.intercept;
        q.standard_error = drift ? d.slope_standard_error : d.intercept_standard_error;
        c.differences.push_back(q);
    }
    c.fit = fit_convergence_order(c.differences);
    c.extrapolated = extrapolate_to_zero(c.fit, c.dts.back(), c.values.back());
    const double reference = std::isfinite(c.extrapolated) ? c.extrapolated : c.values.back();
    c.bias_reference = std::isfinite(c.extrapolated) ? "extrapolated" : "finest dt";
    for (const double v : c.values) c.bias.push_back(v - reference);
    return c;
}

double median_of(std::vector<double> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
    if (v.empty()) return nan;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

study_report analyse_study(const study_settings& s, const std::filesystem::path& run_dir) {
    study_report report;
    report.settings = s;
    report.drift_targets = {1e-2, 1e-4, 1e-6};
    for (const study_run& r : study_matrix(s)) {
        if (r.trajectory) continue;
        const std::filesystem::path file = run_dir / (r.name + ".h5");
        if (!std::filesystem::exists(file)) continue;  // a run that failed before writing
        report.runs.push_back(read_run_summary(file));
        report.runs.back().file = (run_dir.filename() / file.filename()).string();  // relative to the study folder
    }
    // Groups of equal (mode, integrator) over the time steps.
    std::set<std::pair<std::string, std::string>> seen;
    for (const run_summary& first : report.runs) {
        const auto key = std::make_pair(to_string(first.mode), std::string(to_string(first.integrator)));
        if (!seen.insert(key).second) continue;
        std::vector<const run_summary*> group;
        for (const run_summary& r : report.runs)
            if (r.mode == first.mode && r.integrator == first.integrator && r.regular_cycles >= 3) group.push_back(&r);
        std::sort(group.begin(), group.end(), [](const run_summary* a, const run_summary* b) { return a->dt > b->dt; });
        cost_entry cost;
        cost.mode = first.mode;
        cost.integrator = first.integrator;
        cost.evaluations_per_step = evaluations_per_step(first.integrator);
        std::vector<double> per_evaluation;
        for (const run_summary& r : report.runs)
            if (r.mode == first.mode && r.integrator == first.integrator && r.evaluations > 0.0)
                per_evaluation.push_back(r.wall_seconds / r.evaluations);
        cost.wall_per_evaluation = median_of(per_evaluation);
        if (group.size() >= 3) {
            cost.dt_min = group.back()->dt;
            cost.dt_max = group.front()->dt;
            std::size_t cycles = group.front()->regular_cycles;
            for (const run_summary* r : group) cycles = std::min(cycles, r->regular_cycles);
            cycles = std::min(cycles, std::max<std::size_t>(3, s.fit_cycles));
            report.convergence.push_back(converge(group, cycles, false));
            report.convergence.push_back(converge(group, cycles, true));
            const order_fit& drift = report.convergence.back().fit;
            cost.drift_coefficient = std::fabs(drift.coefficient);
            cost.drift_order = drift.order;
            if (std::isfinite(drift.order) && drift.order > 0.0 && drift.note.empty()) {
                for (const double target : report.drift_targets) {
                    const double dt = std::pow(target / cost.drift_coefficient, 1.0 / drift.order);
                    cost.targets.push_back(target);
                    cost.dt_needed.push_back(dt);
                    cost.evaluations_per_tau.push_back(cost.evaluations_per_step / dt);
                    cost.wall_per_tau.push_back(cost.evaluations_per_step / dt * cost.wall_per_evaluation);
                    cost.beyond_range.push_back(dt < group.back()->dt * (1 - 1e-9) ||
                                                dt > group.front()->dt * (1 + 1e-9));
                }
            } else {
                cost.note = "no drift model: " + (drift.note.empty() ? std::string("no order fitted") : drift.note);
                if (drift.unresolved > 0) {
                    char text[96];
                    std::snprintf(text, sizeof text, " (drift differences below %.2g tau_s per cycle)",
                                  drift.resolution);
                    cost.note += text;
                }
            }
        } else {
            cost.note = "fewer than 3 time steps with >= 3 regular cycles";
        }
        report.cost.push_back(cost);
    }
    return report;
}

}  // namespace stokesian::study
