// `stokesian analyze FILE [--json]`: what a run wrote, read back from its H5MD file: the run's
// provenance (scenario, case, precision, backend, status, steps, wall time), the headline numbers
// of every observable, then every result under /analysis. --json prints the same as one object.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "lubrication_flags.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/json_text.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

// One dataset under /analysis.
struct result {
    std::string name;  // path below /analysis, e.g. "cycle/period"
    std::vector<double> values;
    bool scalar = true;
    std::map<std::string, std::string> attributes;
};

void collect_results(const io::h5md_file& file, const std::string& group, const std::string& prefix,
                     std::vector<result>& out) {
    for (const std::string& member : file.list(group)) {
        const std::string path = group + "/" + member;
        const std::string name = prefix.empty() ? member : prefix + "/" + member;
        if (file.is_group(path)) {
            collect_results(file, path, name, out);
            continue;
        }
        result r;
        r.name = name;
        r.values = file.read_doubles(path);
        r.scalar = file.shape(path).empty();
        r.attributes = file.string_attributes(path);
        out.push_back(std::move(r));
    }
}

// The headline numbers: the key (as in `stokesian run --json`), the result it comes from, and how
// the terminal shows it. A value "#count" of a path is the length of that 1-D result.
struct headline {
    const char* group;
    const char* key;
    const char* path;
    const char* label;
    const char* unit;
    const char* when_nan;  // what NaN means here ("none", "not computed"...)
};

constexpr headline headlines[] = {
    {"cycle", "cycles", "cycle/period#count", "periods found", "", ""},
    {"cycle", "regular_cycles", "cycle/regular_cycles", "regular periods (before any loss)", "", ""},
    {"cycle", "period_mean", "cycle/period_mean", "period, mean", "tau_s", "no period"},
    {"cycle", "period_drift_per_cycle", "cycle/period_drift_per_cycle", "period drift per cycle", "tau_s",
     "fewer than 2 periods"},
    {"cycle", "period_drift_ci95_half_width", "cycle/period_drift_ci95_half_width", "  95% CI half-width", "tau_s",
     "fewer than 3 periods"},
    {"cycle", "amplitude_mean", "cycle/amplitude_mean", "amplitude, mean", "a", "no amplitude"},
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

const result* find_result(const std::vector<result>& results, const std::string& name) {
    for (const auto& r : results)
        if (r.name == name) return &r;
    return nullptr;
}

std::optional<double> headline_value(const std::vector<result>& results, const headline& h) {
    std::string path = h.path;
    const bool count = path.ends_with("#count");
    if (count) path.resize(path.size() - 6);
    const result* r = find_result(results, path);
    if (r == nullptr) return std::nullopt;
    if (count) return double(r->values.size());
    if (r->values.size() != 1) return std::nullopt;
    return r->values.front();
}

std::string number(double x, const char* format = "%.10g") {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, x);
    return buffer;
}

struct run_info {
    std::map<std::string, std::string> scenario, run, engine;
    std::vector<std::string> flags;  // findings that make the run's numbers suspect
};

std::map<std::string, std::string> attributes_if_present(const io::h5md_file& file, const std::string& path) {
    return file.exists(path) ? file.parameter_attributes(path) : std::map<std::string, std::string>{};
}

std::string get(const std::map<std::string, std::string>& m, const std::string& key,
                const std::string& fallback = "-") {
    const auto it = m.find(key);
    return it == m.end() || it->second.empty() ? fallback : it->second;
}

struct array_summary {
    double minimum = NAN, maximum = NAN, mean = NAN, first = NAN, last = NAN;
};
array_summary summarise_array(const std::vector<double>& v) {
    array_summary s;
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

void print_text(const std::string& path, const run_info& info, const std::vector<result>& results) {
    std::printf("file:       %s\n", path.c_str());
    std::printf("scenario:   %s%s\n", get(info.scenario, "name").c_str(),
                get(info.scenario, "case", "").empty() ? "" : (" (case " + get(info.scenario, "case") + ")").c_str());
    std::printf("precision:  %s   backend: %s   integrator: %s   dt: %s tau_s\n", get(info.run, "precision").c_str(),
                get(info.engine, "backend").c_str(), get(info.run, "integrator").c_str(), get(info.run, "dt").c_str());
    // The lubrication scheme and, for the implicit one, the solver's counts over every velocity
    // evaluation of the run (the engine's description; the sampled solves are under /analysis).
    if (const std::string scheme = get(info.engine, "lubrication_scheme", ""); !scheme.empty()) {
        std::printf("lubrication: %s", scheme.c_str());
        if (scheme == "implicit")
            std::printf("   solves: %s   CG iterations: %s (mean %s, most %s)   largest residual: %s",
                        get(info.engine, "lubrication_solves").c_str(),
                        get(info.engine, "lubrication_iterations_total").c_str(),
                        get(info.engine, "lubrication_iterations_mean").c_str(),
                        get(info.engine, "lubrication_iterations_most").c_str(),
                        get(info.engine, "lubrication_largest_relative_residual").c_str());
        std::printf("\n");
    }
    std::printf("status:     %s\n", get(info.run, "status").c_str());
    for (const std::string& flag : info.flags) std::printf("FLAG:       %s\n", flag.c_str());
    const std::string wall = get(info.run, "wall_seconds", "");
    std::printf("steps:      %s of %s   wall time: %s\n", get(info.run, "steps").c_str(),
                get(info.run, "planned_steps").c_str(),
                wall.empty() ? "-" : format_duration(std::strtod(wall.c_str(), nullptr)).c_str());

    std::string group;
    for (const headline& h : headlines) {
        const std::optional<double> value = headline_value(results, h);
        if (!value) continue;
        if (group != h.group) {
            group = h.group;
            std::printf("\n%s\n", group.c_str());
        }
        std::string text = std::isnan(*value) && *h.when_nan ? std::string(h.when_nan) : number(*value);
        if (!std::isnan(*value) && *h.unit) text += std::string(" ") + h.unit;
        std::printf("  %-44s %s\n", h.label, text.c_str());
    }

    std::printf("\nall results (/analysis)\n");
    for (const result& r : results) {
        if (r.scalar) {
            std::printf("  %-44s %s\n", r.name.c_str(), number(r.values.empty() ? NAN : r.values.front()).c_str());
        } else {
            const array_summary s = summarise_array(r.values);
            std::printf("  %-44s %zu values", r.name.c_str(), r.values.size());
            if (!r.values.empty())
                std::printf(": first %s, last %s, min %s, max %s, mean %s", number(s.first).c_str(),
                            number(s.last).c_str(), number(s.minimum).c_str(), number(s.maximum).c_str(),
                            number(s.mean).c_str());
            std::printf("\n");
        }
    }
}

void print_json(const std::string& path, const run_info& info, const std::vector<result>& results) {
    io::json document{{"file", path},
                      {"scenario", get(info.scenario, "name", "")},
                      {"case", get(info.scenario, "case", "")},
                      {"precision", get(info.run, "precision", "")},
                      {"backend", get(info.engine, "backend", "")},
                      {"integrator", get(info.run, "integrator", "")},
                      {"lubrication_scheme", get(info.engine, "lubrication_scheme", "")},
                      {"status", get(info.run, "status", "")},
                      {"flags", info.flags}};
    auto number_field = [&](const char* key, const std::map<std::string, std::string>& m, const std::string& name) {
        document[key] = io::json_number_from_text(get(m, name, ""));
    };
    number_field("dt", info.run, "dt");
    number_field("steps", info.run, "steps");
    number_field("planned_steps", info.run, "planned_steps");
    number_field("wall_seconds", info.run, "wall_seconds");
    // The implicit lubrication solver over the whole run (null for the explicit scheme).
    number_field("lubrication_solves", info.engine, "lubrication_solves");
    number_field("lubrication_iterations_total", info.engine, "lubrication_iterations_total");
    number_field("lubrication_iterations_most", info.engine, "lubrication_iterations_most");
    io::json observables = io::json::object();  // the headline numbers, keyed as `stokesian run --json` keys them
    for (const headline& h : headlines)
        if (const std::optional<double> value = headline_value(results, h))
            observables[h.key] = io::json_quantity(h.key, *value);
    document["observables"] = std::move(observables);
    io::json analysis = io::json::object();
    for (const result& r : results) {
        if (r.scalar) {
            analysis[r.name] = io::json_quantity(r.name, r.values.empty() ? NAN : r.values.front());
            continue;
        }
        const array_summary s = summarise_array(r.values);
        analysis[r.name] = {{"count", r.values.size()}, {"first", s.first}, {"last", s.last},
                            {"min", s.minimum},         {"max", s.maximum}, {"mean", s.mean}};
    }
    document["analysis"] = std::move(analysis);
    std::cout << io::json_text(document);
}

struct analyze_options {
    std::string path;
    bool json = false;
};

int execute(const analyze_options& o) {
    const io::h5md_file file(o.path);  // one-line input_error (exit 2) if missing or not H5MD
    run_info info;
    info.scenario = attributes_if_present(file, "/parameters/scenario");
    info.run = attributes_if_present(file, "/parameters/run");
    info.engine = attributes_if_present(file, "/parameters/engine");
    std::vector<result> results;
    if (file.is_group("/analysis")) collect_results(file, "/analysis", "", results);
    const auto scalar = [&](const std::string& name) -> std::optional<double> {
        const result* r = find_result(results, name);
        if (r == nullptr || r->values.size() != 1) return std::nullopt;
        return r->values.front();
    };
    info.flags =
        lubrication_solver_flags({info.run, info.engine, scalar("lubrication_solver/largest_relative_residual"),
                                  scalar("lubrication_solver/tolerance")});
    if (o.json) print_json(o.path, info, results);
    else print_text(o.path, info, results);
    return 0;
}

}  // namespace

action register_analyze(CLI::App& app) {
    auto o = std::make_shared<analyze_options>();
    auto* cmd = app.add_subcommand("analyze", "Summarise an output file: provenance, headline numbers, /analysis");
    cmd->add_option("file", o->path, "H5MD file written by `stokesian run`")->required();
    cmd->add_flag("--json", o->json, "print the same as one JSON object on stdout");
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
