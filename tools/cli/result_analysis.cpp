// The analysis of a result file, shared by `stokesian analyze` and `stokesian run --json`.
#include "result_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "lubrication_flags.hpp"
#include "map_text.hpp"
#include "stokesian/io/h5md.hpp"

namespace stokesian::cli {

namespace {

void collect_results(const io::h5md_file& file, const std::string& group, const std::string& prefix,
                     std::vector<analysis_result>& out) {
    for (const std::string& member : file.list(group)) {
        const std::string path = group + "/" + member;
        const std::string name = prefix.empty() ? member : prefix + "/" + member;
        if (file.is_group(path)) {
            collect_results(file, path, name, out);
            continue;
        }
        out.push_back({name, file.read_doubles(path), file.shape(path).empty()});
    }
}

constexpr headline headline_table[] = {
    {"cycle", "cycles", "cycle/period#count", "periods found", "", ""},
    {"cycle", "regular_cycles", "cycle/regular_cycles", "regular periods (before any loss)", "", ""},
    {"cycle", "period_mean", "cycle/period_mean", "period, mean", "tau_s", "no period"},
    {"cycle", "period_last", "cycle/period#last", "period, last", "tau_s", ""},
    {"cycle", "period_drift_per_cycle", "cycle/period_drift_per_cycle", "period drift per cycle", "tau_s",
     "fewer than 2 periods"},
    {"cycle", "period_drift_ci95_half_width", "cycle/period_drift_ci95_half_width", "  95% CI half-width", "tau_s",
     "fewer than 3 periods"},
    {"cycle", "amplitude_mean", "cycle/amplitude_mean", "amplitude, mean", "a", "no amplitude"},
    {"cycle", "amplitude_last", "cycle/amplitude#last", "amplitude, last", "a", ""},
    {"cycle", "amplitude_drift_per_cycle", "cycle/amplitude_drift_per_cycle", "amplitude drift per cycle", "a",
     "fewer than 2 amplitudes"},
    {"cycle", "amplitude_drift_ci95_half_width", "cycle/amplitude_drift_ci95_half_width", "  95% CI half-width", "a",
     "fewer than 3 amplitudes"},
    {"cycle", "windows", "cycle/windows", "complete averaging windows", "", ""},
    {"cycle", "partial_window_period_mean", "cycle/partial_window/period_mean", "period, mean of the partial window",
     "tau_s", "no period"},
    {"cycle", "lost_periodicity_time", "cycle/lost_periodicity_time", "lost periodicity at", "tau_s",
     "none (periodic to the end)"},
    {"symmetry", "max_abs_y1", "symmetry/y1_max_abs", "max |y1| (deviation from the xz-plane)", "a", ""},
    {"symmetry", "max_abs_y3", "symmetry/y3_max_abs", "max |y3|", "a", ""},
    {"symmetry", "max_abs_x1_plus_x3", "symmetry/x1_plus_x3_max_abs", "max |x1 + x3|", "a", ""},
    {"symmetry", "max_abs_z3_minus_z1", "symmetry/z3_minus_z1_max_abs", "max |z3 - z1|", "a", ""},
    {"symmetry", "max_abs_z4_minus_z2", "symmetry/z4_minus_z2_max_abs", "max |z4 - z2|", "a", ""},
    {"symmetry", "max_abs_x2", "symmetry/x2_max_abs", "max |x2|", "a", ""},
    {"symmetry", "max_abs_x4", "symmetry/x4_max_abs", "max |x4|", "a", ""},
    {"symmetry", "max_abs_y2_plus_y4", "symmetry/y2_plus_y4_max_abs", "max |y2 + y4|", "a", ""},
    {"symmetry", "max_abs_symmetry_residual", "symmetry/*_max_abs", "largest of them", "a", ""},
    {"centre of mass", "centre_of_mass_mean_velocity_z", "centre_of_mass/mean_velocity_z",
     "sedimentation velocity (mean over the run)", "mu0 F", ""},
    {"centre of mass", "centre_of_mass_mean_sampled_velocity_z", "centre_of_mass/mean_sampled_velocity_z",
     "mean of the sampled <v_z>", "mu0 F", ""},
    {"mobility", "mobility_checks", "mobility/checks", "configurations checked", "", ""},
    {"mobility", "mobility_failures", "mobility/failures", "not positive definite", "", ""},
    {"mobility", "mobility_min_eigenvalue", "mobility/min_smallest_eigenvalue", "smallest eigenvalue", "mu0",
     "not computed (N above the limit)"},
    {"mobility", "mobility_first_failure_time", "mobility/first_failure_time", "first failure at", "tau_s", "none"},
    {"pair gap", "minimum_gap", "pair_gap/minimum_gap", "minimum gap s", "a", ""},
    {"pair gap", "minimum_gap_time", "pair_gap/minimum_gap_time", "  at", "tau_s", ""},
    {"pair gap", "critical_gap", "pair_gap/critical_gap", "explicit scheme unstable below s_c", "a",
     "none (lubrication off or stable)"},
    {"pair gap", "critical_gap_crossing_time", "pair_gap/critical_gap_crossing_time", "  gap first below s_c at",
     "tau_s", "never"},
    {"pair gap", "separation_speed_sign_changes", "pair_gap/sign_changes", "sign changes of the separation speed", "",
     ""},
    {"pair gap", "first_sign_change_time", "pair_gap/first_sign_change_time", "  first at", "tau_s", "none"},
    {"pair gap", "gap_at_first_sign_change", "pair_gap/gap_at_first_sign_change", "  gap there", "a", "none"},
    {"lubrication solver", "lubrication_solver_mean_iterations", "lubrication_solver/mean_iterations",
     "CG iterations per solve, mean", "", "no solve sampled"},
    {"lubrication solver", "lubrication_solver_most_iterations", "lubrication_solver/most_iterations",
     "  most in a sampled solve", "", ""},
    {"lubrication solver", "lubrication_solver_largest_relative_residual",
     "lubrication_solver/largest_relative_residual", "largest relative residual", "", ""},
    {"lubrication solver", "lubrication_solver_tolerance", "lubrication_solver/tolerance", "  tolerance", "", ""},
    {"lubrication solver", "lubrication_solver_solved_samples", "lubrication_solver/solved_samples",
     "samples with a lubricated pair", "", ""},
    {"velocity spread", "velocity_spread_initial_max", "velocity_spread/initial_max_deviation",
     "max |v_i - <v>| at the start", "mu0 F", ""},
    {"velocity spread", "velocity_spread_initial_rms", "velocity_spread/initial_rms_deviation",
     "rms |v_i - <v>| at the start", "mu0 F", ""},
    {"velocity spread", "velocity_spread_final_max", "velocity_spread/final_max_deviation",
     "max |v_i - <v>| at the end", "mu0 F", ""},
    {"velocity spread", "velocity_spread_largest_max", "velocity_spread/largest_max_deviation",
     "largest max |v_i - <v>|", "mu0 F", ""},
    {"velocity spread", "velocity_spread_final_mean_velocity_z", "velocity_spread/final_mean_velocity_z",
     "<v_z> at the end", "mu0 F", ""},
};

const analysis_result* find_result(const std::vector<analysis_result>& results, const std::string& name) {
    for (const auto& r : results)
        if (r.name == name) return &r;
    return nullptr;
}

// The largest of the scalars named prefix...suffix (NaN if one is NaN); none when there is none.
std::optional<double> largest_scalar(const std::vector<analysis_result>& results, const std::string& prefix,
                                     const std::string& suffix) {
    std::optional<double> largest;
    for (const analysis_result& r : results)
        if (r.scalar && r.values.size() == 1 && r.name.size() >= prefix.size() + suffix.size() &&
            r.name.starts_with(prefix) && r.name.ends_with(suffix))
            largest = !largest || std::isnan(r.values.front()) ? r.values.front()
                      : std::isnan(*largest)                   ? *largest
                                                               : std::max(*largest, r.values.front());
    return largest;
}

std::map<std::string, std::string> attributes_if_present(const io::h5md_file& file, const std::string& path) {
    return file.exists(path) ? file.parameter_attributes(path) : std::map<std::string, std::string>{};
}

}  // namespace

std::span<const headline> headlines() { return headline_table; }

std::optional<double> headline_value(const result_file& file, const headline& h) {
    std::string path = h.path;
    if (const std::size_t star = path.find('*'); star != std::string::npos)
        return largest_scalar(file.results, path.substr(0, star), path.substr(star + 1));
    const std::size_t hash = path.find('#');
    const std::string part = hash == std::string::npos ? "" : path.substr(hash + 1);
    if (hash != std::string::npos) path.resize(hash);
    const analysis_result* r = find_result(file.results, path);
    if (r == nullptr) return std::nullopt;
    if (part == "count") return double(r->values.size());
    if (part == "last") return r->values.empty() ? std::nullopt : std::optional<double>(r->values.back());
    if (r->values.size() != 1) return std::nullopt;
    return r->values.front();
}

result_file read_result_file(const std::string& path) {
    const io::h5md_file file(path);  // one-line input_error (exit 2) if missing or not H5MD
    result_file f;
    f.path = path;
    f.scenario = attributes_if_present(file, "/parameters/scenario");
    f.run = attributes_if_present(file, "/parameters/run");
    f.engine = attributes_if_present(file, "/parameters/engine");
    if (file.is_group("/analysis")) collect_results(file, "/analysis", "", f.results);
    f.flags = lubrication_solver_flags(f.run);
    return f;
}

array_summary summarise_array(const std::vector<double>& v) {
    array_summary s{NAN, NAN, NAN, NAN, NAN};
    if (v.empty()) return s;
    s.first = v.front();
    s.last = v.back();
    double sum = 0.0;
    std::size_t finite = 0;
    for (const double x : v)
        if (std::isfinite(x)) {
            s.minimum = finite == 0 ? x : std::min(s.minimum, x);
            s.maximum = finite == 0 ? x : std::max(s.maximum, x);
            sum += x;
            ++finite;
        }
    if (finite > 0) s.mean = sum / double(finite);
    return s;
}

io::json result_json(const result_file& f) {
    io::json document{{"file", f.path},
                      {"scenario", text_or(f.scenario, "name")},
                      {"case", text_or(f.scenario, "case")},
                      {"precision", text_or(f.run, "precision")},
                      {"backend", text_or(f.engine, "backend")},
                      {"integrator", text_or(f.run, "integrator")},
                      {"lubrication_scheme", text_or(f.engine, "lubrication_scheme")},
                      {"status", text_or(f.run, "status")},
                      {"flags", f.flags}};
    auto number_field = [&](const char* key, const std::map<std::string, std::string>& m, const std::string& name) {
        document[key] = io::json_number_from_text(text_or(m, name));
    };
    number_field("dt", f.run, "dt");
    number_field("steps", f.run, "steps");
    number_field("planned_steps", f.run, "planned_steps");
    number_field("wall_seconds", f.run, "wall_seconds");
    // The implicit lubrication solver over the whole run (null for the explicit scheme).
    number_field("lubrication_solves", f.engine, "lubrication_solves");
    number_field("lubrication_iterations_total", f.engine, "lubrication_iterations_total");
    number_field("lubrication_iterations_most", f.engine, "lubrication_iterations_most");
    io::json observables = io::json::object();
    for (const headline& h : headlines())
        if (const std::optional<double> value = headline_value(f, h))
            observables[h.key] = io::json_quantity(h.key, *value);
    document["observables"] = std::move(observables);
    io::json analysis = io::json::object();
    for (const analysis_result& r : f.results) {
        if (r.scalar) {
            analysis[r.name] = io::json_quantity(r.name, r.values.empty() ? NAN : r.values.front());
            continue;
        }
        const array_summary s = summarise_array(r.values);
        analysis[r.name] = {{"count", r.values.size()}, {"first", s.first}, {"last", s.last},
                            {"min", s.minimum},         {"max", s.maximum}, {"mean", s.mean}};
    }
    document["analysis"] = std::move(analysis);
    return document;
}

}  // namespace stokesian::cli
