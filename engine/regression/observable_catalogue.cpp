// The regression observables read from a result file (observable_catalogue.hpp). Each is a
// quantity the engine's observables already wrote under /analysis or /observables
// (engine/docs/observables.md); the window maxima of |y1| are regrouped here from the decimated
// series so that references stay a few numbers per window, not a trajectory.
#include "observable_catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "stokesian/core/number_text.hpp"
#include "stokesian/observables/trend_fit.hpp"

namespace stokesian::regression {

namespace {

// (A named constant: GCC 12 warns falsely, -Wrestrict, on assigning a one-letter literal here.)
const std::string length_unit = "a";

// The value of a one-element dataset; nothing when the dataset is missing or holds another number
// of values (a damaged or foreign file: the observable is then not available).
std::optional<double> single_value(const io::h5md_file& f, const std::string& path) {
    if (!f.exists(path)) return std::nullopt;
    const std::vector<double> v = f.read_doubles(path);
    if (v.size() != 1) return std::nullopt;
    return v.front();
}

bool read_scalar(const io::h5md_file& f, const std::string& path, const std::string& unit, observed_value& out) {
    const auto v = single_value(f, path);
    if (!v) return false;
    out.values = {*v};
    out.scalar = true;
    out.unit = unit;
    return true;
}

// A least-squares slope with its 95% confidence half-width (cycle_observable.cpp writes both).
std::function<bool(const io::h5md_file&, observed_value&)> slope(const std::string& base, const std::string& unit) {
    return [base, unit](const io::h5md_file& f, observed_value& out) {
        if (!read_scalar(f, base + "_per_cycle", unit, out)) return false;
        const std::string ci = base + "_ci95_half_width";
        out.ci95_half_width = single_value(f, ci).value_or(not_a_number);
        return true;
    };
}

std::function<bool(const io::h5md_file&, observed_value&)> scalar(const std::string& path, const std::string& unit) {
    return [path, unit](const io::h5md_file& f, observed_value& out) { return read_scalar(f, path, unit, out); };
}

// The length of a 1-D result (how many periods were found, ...).
std::function<bool(const io::h5md_file&, observed_value&)> count_of(const std::string& path) {
    return [path](const io::h5md_file& f, observed_value& out) {
        if (!f.exists(path)) return false;
        out.values = {double(f.read_doubles(path).size())};
        return true;
    };
}

double window_length_of(const io::h5md_file& f, const std::string& path) {
    const auto text = f.string_attribute(path, "window_length");
    return text ? read_number(*text).value_or(not_a_number) : not_a_number;
}

// Per-window averages: values over the complete windows, coordinate = each window's end time.
std::function<bool(const io::h5md_file&, observed_value&)> per_window(const std::string& path,
                                                                      const std::string& unit) {
    return [path, unit](const io::h5md_file& f, observed_value& out) {
        const std::string end = "/analysis/cycle/window/end_time";
        if (!f.exists(path) || !f.exists(end)) return false;
        out.values = f.read_doubles(path);
        out.coordinate = f.read_doubles(end);
        out.scalar = false;
        out.window_length = window_length_of(f, path);
        out.unit = unit;
        return out.values.size() == out.coordinate.size();
    };
}

// max |y1| per window of the cycle's window length (Fig. 5 at a coarse resolution): the decimated
// series stores the largest |y1| of each block, and each block is assigned to the window holding
// its last sample. The last window may be cut short by the end of the run; runs of the same length
// have the same blocks and windows.
bool y1_window_maxima(const io::h5md_file& f, observed_value& out) {
    const std::string block_max = "/analysis/symmetry/y1_block_max_abs",
                      block_time = io::observable_path("symmetry/y1") + "/time";
    if (!f.exists(block_max) || !f.exists(block_time)) return false;
    const std::vector<double> maxima = f.read_doubles(block_max), time = f.read_doubles(block_time);
    if (maxima.size() != time.size() || time.empty()) return false;
    double window = f.exists("/analysis/cycle/window/end_time") ? window_length_of(f, "/analysis/cycle/window/end_time")
                                                                : not_a_number;
    if (!(window > 0.0)) window = 1e4;  // the cycle observable's default (docs/reference/scenario-file.md)
    const double start = 0.0;           // runs start at t = 0
    // The suite's longest run has 52 windows (5.2e5 tau_s); a million windows (1e10 tau_s at the
    // default length, 8 MB of values) is beyond any run. A non-finite end time, or more windows
    // than that (a window length of garbage), comes from a damaged file: not available.
    constexpr double most_windows = 1e6;
    const double windows = std::ceil((time.back() - start) / window);
    if (!std::isfinite(windows) || windows > most_windows) return false;
    out.values.assign(windows < 1.0 ? 1 : static_cast<std::size_t>(windows), 0.0);
    out.coordinate.resize(out.values.size());
    for (std::size_t k = 0; k < out.values.size(); ++k)
        out.coordinate[k] = std::min(start + double(k + 1) * window, time.back());
    for (std::size_t b = 0; b < time.size(); ++b) {
        // A block ending exactly on a boundary belongs to the window that closes there.
        const double position = std::ceil((time[b] - start) / window) - 1.0;  // NaN for a NaN time: window 0
        const std::size_t k = static_cast<std::size_t>(
            std::clamp(std::isnan(position) ? 0.0 : position, 0.0, double(out.values.size() - 1)));
        out.values[k] = std::max(out.values[k], maxima[b]);
    }
    out.scalar = false;
    out.window_length = window;
    out.unit = length_unit;
    return true;
}

// The early stretch of a run: its first half, at most this long. Until then every precision mode
// of the tetrahedron keeps |y1| below 1e-3 a in every measured realization (the asymmetry of the
// modes that break the mirror symmetry bursts after 2.2e5 tau_s at dt = 0.01; reference_data/README.md).
constexpr double early_horizon = 1.5e5;  // tau_s

// Drift per cycle over the early stretch (and before any loss of periodicity): the same
// least-squares slope as the engine's, with the same interval (trend_fit.hpp: noise from the
// residuals of the trend polynomial; cycle_observable.cpp: periods against the cycle index,
// amplitudes against half their index), over a stretch that does not depend on when the motion
// fell apart. The engine's own drift uses every regular cycle, so where the loss of periodicity
// varies between equally valid rounding histories (reference_data/README.md) so does its range.
std::function<bool(const io::h5md_file&, observed_value&)> early_drift(const std::string& quantity, double index_step,
                                                                       const std::string& unit) {
    return [quantity, index_step, unit](const io::h5md_file& f, observed_value& out) {
        const std::string times = "/analysis/cycle/" + quantity + "_time", values = "/analysis/cycle/" + quantity;
        if (!f.exists(times) || !f.exists(values)) return false;
        const std::vector<double> t = f.read_doubles(times), v = f.read_doubles(values);
        const auto steps = f.parameter_attribute("/parameters/run", "steps"),
                   dt = f.parameter_attribute("/parameters/run", "dt");
        const auto step_count = steps ? read_count(*steps) : std::nullopt;
        const auto step_length = dt ? read_number(*dt) : std::nullopt;
        if (t.size() != v.size() || !step_count || !step_length) return false;
        double horizon = std::min(early_horizon, 0.5 * double(*step_count) * *step_length);
        const double lost = single_value(f, "/analysis/cycle/lost_periodicity_time").value_or(not_a_number);
        if (std::isfinite(lost)) horizon = std::min(horizon, lost);
        std::vector<double> x, y;
        for (std::size_t k = 0; k < t.size() && t[k] <= horizon; ++k) {
            x.push_back(double(k) * index_step);
            y.push_back(v[k]);
        }
        const trend_fit fit = fit_trend(x, y);
        out.values = {x.size() >= 2 ? fit.mean_slope.value : not_a_number};
        out.ci95_half_width = x.size() >= 3 ? fit.mean_slope.ci95_half_width : not_a_number;
        out.unit = unit;
        return true;
    };
}

// The largest of the eight symmetry residuals (tetrahedron_symmetry_observable.cpp).
bool largest_symmetry_residual(const io::h5md_file& f, observed_value& out) {
    static const char* names[] = {"y1", "y3", "x1_plus_x3", "z3_minus_z1", "z4_minus_z2", "x2", "x4", "y2_plus_y4"};
    double largest = 0.0;
    for (const char* name : names) {
        const auto residual = single_value(f, std::string("/analysis/symmetry/") + name + "_max_abs");
        if (!residual) return false;
        largest = std::max(largest, *residual);
    }
    out.values = {largest};
    out.unit = length_unit;
    return true;
}

}  // namespace

const std::vector<catalogue_entry>& observable_catalogue() {
    static const std::vector<catalogue_entry> catalogue{
        // Tetrahedron (paper Sec. 5, Figs. 4 and 5).
        {"cycle.first_period",
         "period of the first cycle (first two maxima of x1); T(dt) = T0 + c dt (engine/docs/tetrahedron.md)",
         [](const io::h5md_file& f, observed_value& out) {
             if (!f.exists("/analysis/cycle/period")) return false;
             const std::vector<double> p = f.read_doubles("/analysis/cycle/period");
             out.values = {p.empty() ? not_a_number : p.front()};
             out.unit = "tau_s";
             return true;
         }},
        {"cycle.periods_found", "number of periods (maximum to maximum) found, regular or not",
         count_of("/analysis/cycle/period")},
        {"cycle.regular_cycles", "periods before the loss of periodicity (all if none)",
         scalar("/analysis/cycle/regular_cycles", "")},
        {"cycle.windows", "complete averaging windows of 1e4 tau_s before the end or the loss of periodicity",
         scalar("/analysis/cycle/windows", "")},
        {"cycle.window_period", "mean period per complete window (paper Fig. 4, top)",
         per_window("/analysis/cycle/window/period_mean", "tau_s")},
        {"cycle.window_amplitude", "mean amplitude (x_max - x_min)/2 per complete window (paper Fig. 4, bottom)",
         per_window("/analysis/cycle/window/amplitude_mean", "a")},
        {"cycle.period_drift",
         "least-squares slope of the period against the cycle index (mean drift), regular cycles, with 95% CI (noise "
         "from "
         "the trend's residuals)",
         slope("/analysis/cycle/period_drift", "tau_s")},
        {"cycle.amplitude_drift", "least-squares slope of the amplitude per cycle, regular cycles, with 95% CI",
         slope("/analysis/cycle/amplitude_drift", "a")},
        {"cycle.period_drift_early",
         "slope of the period per cycle over the first half of the run, at most 1.5e5 tau_s, before any loss; 95% CI",
         early_drift("period", 1.0, "tau_s")},
        {"cycle.amplitude_drift_early",
         "slope of the amplitude per cycle over the first half of the run, at most 1.5e5 tau_s, before any loss; 95% "
         "CI",
         early_drift("amplitude", 0.5, "a")},
        {"cycle.lost_periodicity_time",
         "end of the last regular cycle before the motion stopped being periodic; NaN: never",
         scalar("/analysis/cycle/lost_periodicity_time", "tau_s")},
        {"symmetry.max_abs_y1", "largest |y1| (deviation of particle 1 from the xz-plane, paper Fig. 5)",
         scalar("/analysis/symmetry/y1_max_abs", "a")},
        {"symmetry.max_abs_residual", "largest of the eight symmetry residuals of the four-sphere configuration",
         largest_symmetry_residual},
        {"symmetry.y1_window_max", "largest |y1| per window of 1e4 tau_s (paper Fig. 5, coarse)", y1_window_maxima},
        {"centre_of_mass.mean_velocity_z", "sedimentation velocity: (z_cm(end) - z_cm(0)) / run time",
         scalar("/analysis/centre_of_mass/mean_velocity_z", "mu0 F")},
        // Approaching pairs: the explicit lubrication scheme.
        {"pair_gap.first_sign_change_time",
         "first sign change of the sampled approach speed (explicit scheme unstable); NaN: none",
         scalar("/analysis/pair_gap/first_sign_change_time", "tau_s")},
        {"pair_gap.gap_at_first_sign_change", "gap s = r/a - 2 at the first sign change; NaN: none",
         scalar("/analysis/pair_gap/gap_at_first_sign_change", "a")},
        {"pair_gap.minimum_gap", "smallest sampled gap s = r/a - 2", scalar("/analysis/pair_gap/minimum_gap", "a")},
        {"pair_gap.minimum_gap_time", "time of the smallest sampled gap",
         scalar("/analysis/pair_gap/minimum_gap_time", "tau_s")},
        {"pair_gap.sign_changes", "sign changes of the sampled approach speed",
         scalar("/analysis/pair_gap/sign_changes", "")},
        {"pair_gap.critical_gap_crossing_time", "first sample below the explicit scheme's critical gap s_c = 0.282",
         scalar("/analysis/pair_gap/critical_gap_crossing_time", "tau_s")},
        {"mobility.checks", "configurations whose 3N x 3N mobility was checked",
         scalar("/analysis/mobility/checks", "")},
        {"mobility.failures", "checked configurations whose mobility was not positive definite",
         scalar("/analysis/mobility/failures", "")},
        {"mobility.min_smallest_eigenvalue", "smallest eigenvalue of the mobility along the run",
         scalar("/analysis/mobility/min_smallest_eigenvalue", "mu0")},
        // fcc sedimentation (paper Sec. 3.3).
        {"velocity_spread.initial_max_deviation", "max_i |v_i - <v>| at t = 0 (perfect lattice: rounding only)",
         scalar("/analysis/velocity_spread/initial_max_deviation", "mu0 F")},
        {"velocity_spread.initial_rms_deviation", "rms |v_i - <v>| at t = 0",
         scalar("/analysis/velocity_spread/initial_rms_deviation", "mu0 F")},
        {"velocity_spread.initial_mean_velocity_z", "<v_z> over the particles at t = 0",
         scalar("/analysis/velocity_spread/initial_mean_velocity_z", "mu0 F")},
        {"velocity_spread.final_mean_velocity_z", "<v_z> over the particles at the last sample",
         scalar("/analysis/velocity_spread/final_mean_velocity_z", "mu0 F")},
        {"velocity_spread.largest_max_deviation", "largest max_i |v_i - <v>| over the samples",
         scalar("/analysis/velocity_spread/largest_max_deviation", "mu0 F")},
    };
    return catalogue;
}

nan_meaning nan_meaning_of(const std::string& observable) {
    for (const char* never : {"cycle.lost_periodicity_time", "pair_gap.first_sign_change_time",
                              "pair_gap.gap_at_first_sign_change", "pair_gap.critical_gap_crossing_time"})
        if (observable == never) return nan_meaning::none;
    return nan_meaning::undefined;
}

}  // namespace stokesian::regression
