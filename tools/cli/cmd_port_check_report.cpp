// Report of `stokesian port-check compare` (cmd_port_check_report.hpp): the data, report.json; the
// documents come from tools/report.
#include "cmd_port_check_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "report_renderer.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/io/output_target.hpp"

namespace stokesian::cli {

namespace fs = std::filesystem;

namespace {

std::string num(double x, int digits = 3) {
    if (std::isinf(x)) return "inf";
    if (std::isnan(x)) return "nan";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    return buf;
}

// "hi=ds,int=f32" of a reference entry's group path ("-" when it has none).
std::string mode_of(const regression::run_check& c) {
    const std::size_t p = c.entry.find("hi=");
    return p == std::string::npos ? std::string("-") : c.entry.substr(p, c.entry.find('/', p) - p);
}

// Per precision mode: the verdict, the worst configuration and the largest differences; the
// long-run observables of that mode (runs passed and failed).
io::json mode_summaries(const port::comparison& cmp, const std::vector<regression::run_check>& checks) {
    std::map<std::string, std::pair<int, int>> long_runs;  // mode -> (passed, failed)
    for (const auto& c : checks) (c.passed() ? long_runs[mode_of(c)].first : long_runs[mode_of(c)].second) += 1;
    std::vector<std::string> modes;
    for (const auto& [mode, v] : cmp.per_mode) modes.push_back(mode);
    for (const auto& [mode, counts] : long_runs)
        if (!cmp.per_mode.count(mode)) modes.push_back(mode);
    io::json out = io::json::array();
    for (const std::string& mode : modes) {
        const port::mode_comparison* worst = nullptr;
        double max_ulp = 0, max_rel = 0, factor = 0;
        for (const auto& r : cmp.rows)
            if (to_string(r.mode) == mode) {
                if (!worst || r.max_bound_ratio > worst->max_bound_ratio) worst = &r;
                max_ulp = std::max(max_ulp, r.max_ulp);
                max_rel = std::max(max_rel, r.max_relative);
                factor = std::max(factor, r.bound_factor);
            }
        if (worst && worst->max_bound_ratio == 0) worst = nullptr;  // bitwise everywhere
        const auto v = cmp.per_mode.find(mode);
        const auto l = long_runs.find(mode);
        io::json m{{"mode", mode},
                   {"verdict", v == cmp.per_mode.end() ? io::json(nullptr) : io::json(port::to_string(v->second))},
                   {"compared", v != cmp.per_mode.end()},
                   {"worst_configuration", worst ? io::json(worst->configuration) : io::json(nullptr)},
                   {"max_bound_ratio", worst ? worst->max_bound_ratio : 0.0},
                   {"max_ulp", max_ulp},
                   {"max_relative", max_rel},
                   {"bound_factor", factor},
                   {"long_runs_passed", l == long_runs.end() ? 0 : l->second.first},
                   {"long_runs_failed", l == long_runs.end() ? 0 : l->second.second}};
        out.push_back(std::move(m));
    }
    return out;
}

io::json comparison_rows(const port::comparison& cmp) {
    io::json rows = io::json::array();
    for (const auto& r : cmp.rows) {
        io::json c{{"configuration", r.configuration},
                   {"mode", to_string(r.mode)},
                   {"particles", r.particles},
                   {"verdict", port::to_string(r.result)},
                   {"differing_components", r.differing_components},
                   {"max_ulp", r.max_ulp},
                   {"median_ulp", r.median_ulp},
                   {"max_relative", r.max_relative},
                   {"rms_relative", r.rms_relative},
                   {"max_bound_ratio", r.max_bound_ratio},
                   {"bound_factor", r.bound_factor},
                   {"worst_particle", r.worst_particle},
                   {"worst_component", std::string(1, "xyz"[r.worst_component])},
                   {"ulp_histogram", r.ulp.counts},
                   {"ulp_histogram_labels", r.ulp.labels},
                   {"relative_histogram", r.relative.counts},
                   {"relative_histogram_labels", r.relative.labels}};
        if (r.has_run) {
            c["run_bitwise"] = r.run_bitwise;
            c["run_max_position_difference"] = r.run_max_position_difference;
            c["run_max_relative_velocity"] = r.run_max_relative_velocity;
        }
        rows.push_back(std::move(c));
    }
    return rows;
}

// The evaluators' comparisons (port/port_evaluators.cpp): one row per evaluator and working type.
io::json evaluator_rows(const port::comparison& cmp) {
    io::json rows = io::json::array();
    for (const auto& e : cmp.evaluators)
        rows.push_back({{"evaluator", e.evaluator},
                        {"working", e.working},
                        {"verdict", port::to_string(e.result)},
                        {"differing", e.differing},
                        {"max_ulp", e.max_ulp},
                        {"max_bound_ratio", e.max_bound_ratio},
                        {"allowance", e.allowance},
                        {"bound_factor", e.bound_factor},
                        {"worst_distance", e.worst_distance},
                        {"worst_mode", e.worst_mode}});
    return rows;
}

io::json long_run_rows(const std::vector<regression::run_check>& checks) {
    io::json runs = io::json::array();
    for (const auto& c : checks) {
        std::size_t failed = 0;
        std::string first;
        for (const auto& r : c.rows)
            if (r.failed() && failed++ == 0)
                first = r.observable + ": " + r.observed + " vs " + r.reference + " (" + r.tolerance + ") " + r.detail;
        runs.push_back({{"run", c.run},
                        {"mode", mode_of(c)},
                        {"entry", c.entry},
                        {"passed", c.passed()},
                        {"failed_checks", failed},
                        {"checks", c.rows.size()},
                        {"first_failure", first}});
    }
    return runs;
}

io::json record_provenance(const port::port_record& r) {
    return {{"file", r.file.string()},
            {"build", io::json_object(r.build)},
            {"device", io::json_object(r.device)},
            {"run", io::json_object(r.run)},
            {"settings", io::json_object(r.settings)}};
}

// {"rotne-prager": 80}: the per-term allowance of each tensor the record's configurations name
// (its evaluator's, physics/tensor_registry.hpp).
io::json term_allowances(const port::port_record& r) {
    io::json out = io::json::object();
    for (const port::configuration_record& c : r.configurations)
        out[std::string(to_string(c.tensor))] = tensor_term_allowance(c.tensor);
    return out;
}

}  // namespace

const std::vector<std::string>& port_report_files() {
    static const std::vector<std::string> files{"report.md",      "report.html",        "report.json",
                                                "histograms.csv", "verdicts.csv",       "render.log",
                                                "verdicts.png",   "ulp_histograms.png", "relative_histograms.png"};
    return files;
}

bool write_port_report(const port_report_options& o, const port::port_record& a, const port::port_record& b,
                       const port::comparison& cmp, const std::vector<regression::run_check>& checks,
                       std::ostream& out) {
    std::error_code e;
    fs::create_directories(o.directory, e);
    if (e || !fs::is_directory(o.directory))
        throw input_error(o.directory.string(), "--report", "", "cannot create the report directory");

    bool observables_passed = true;
    for (const auto& c : checks) observables_passed = observables_passed && c.passed();
    const bool passed = cmp.passed() && observables_passed;
    const io::json modes = mode_summaries(cmp, checks);

    io::json long_runs = io::json::array();
    for (const auto& c : checks) long_runs.push_back({{"run", c.run}, {"entry", c.entry}, {"passed", c.passed()}});
    io::json per_mode = io::json::object();
    for (const auto& [mode, v] : cmp.per_mode) per_mode[mode] = port::to_string(v);
    io::write_file_atomically(o.directory / "report.json",
                              io::json_text({{"passed", passed},
                                             {"a", a.file.string()},
                                             {"b", b.file.string()},
                                             {"per_mode", std::move(per_mode)},
                                             {"comparisons", comparison_rows(cmp)},
                                             {"not_compared", cmp.not_compared},
                                             {"long_runs", std::move(long_runs)},
                                             {"modes", modes},
                                             {"long_run_checks", long_run_rows(checks)},
                                             {"reference_dir", checks.empty() ? "" : o.reference_dir},
                                             {"term_allowances", term_allowances(a)},
                                             {"evaluators", evaluator_rows(cmp)},
                                             {"records", {{"a", record_provenance(a)}, {"b", record_provenance(b)}}}}));

    std::vector<std::string> args{"port-check", o.directory.string()};
    if (!o.plots) args.emplace_back("--no-figures");
    const render_outcome rendered = render_report(o.python, args, o.directory / "render.log");

    out << "port-check: " << (passed ? "PASS" : "FAIL") << " (" << cmp.per_mode.size() << " modes, " << cmp.rows.size()
        << " configuration x mode comparisons"
        << (checks.empty() ? "" : ", " + std::to_string(checks.size()) + " long runs") << ")\n";
    for (const auto& m : modes) {
        const int failed = m.at("long_runs_failed").get<int>(), ok = m.at("long_runs_passed").get<int>();
        const std::string long_run =
            failed > 0 ? "FAIL (" + std::to_string(failed) + " of " + std::to_string(ok + failed) + " runs)"
            : ok > 0   ? "pass (" + std::to_string(ok) + " runs)"
                       : "";
        out << "  " << m.at("mode").get<std::string>() << ": "
            << (m.at("compared").get<bool>() ? m.at("verdict").get<std::string>() : "-") << " (max |dv|/bound "
            << (m.at("worst_configuration").is_null() ? "-" : num(m.at("max_bound_ratio").get<double>())) << ", worst "
            << (m.at("worst_configuration").is_null() ? "-" : m.at("worst_configuration").get<std::string>()) << ")"
            << (long_run.empty() ? "" : "; long runs " + long_run) << "\n";
    }
    for (const auto& ev : cmp.evaluators)
        out << "  evaluator " << ev.evaluator << " (" << ev.working << "): " << port::to_string(ev.result)
            << " (max |dz|/bound " << (ev.differing == 0 ? std::string("-") : num(ev.max_bound_ratio))
            << ", k = " << num(ev.allowance) << ")\n";
    for (const auto& n : cmp.not_compared) out << "  not compared: " << n << "\n";
    for (const auto& c : checks) out << "  long run " << c.run << ": " << (c.passed() ? "pass" : "FAIL") << "\n";
    if (!rendered.note.empty()) out << "  " << rendered.note << "\n";
    out << "  report: " << (o.directory / (rendered.note.empty() ? "report.md" : "report.json")).string() << "\n";
    return passed;
}

}  // namespace stokesian::cli
