// Report of `stokesian port-check compare` (cmd_port_check_report.hpp).
#include "cmd_port_check_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "plot_script.hpp"
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

std::string html_escape(const std::string& s) {
    std::string out;
    for (const char c : s) {
        if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '&') out += "&amp;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

std::string md_cell(const std::string& s) {
    std::string out;
    for (const char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
    return out;
}

// A table rendered as Markdown and as HTML.
struct table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    void markdown(std::ostream& o) const {
        o << "|";
        for (const auto& h : header) o << " " << md_cell(h) << " |";
        o << "\n|";
        for (std::size_t k = 0; k < header.size(); ++k) o << "---|";
        o << "\n";
        for (const auto& r : rows) {
            o << "|";
            for (const auto& c : r) o << " " << md_cell(c) << " |";
            o << "\n";
        }
        o << "\n";
    }
    void html(std::ostream& o) const {
        o << "<table>\n<tr>";
        for (const auto& h : header) o << "<th>" << html_escape(h) << "</th>";
        o << "</tr>\n";
        for (const auto& r : rows) {
            o << "<tr>";
            for (const auto& c : r) {
                const std::string cls = c.starts_with("FAIL")                                   ? " class=\"fail\""
                                        : c == "bitwise"                                        ? " class=\"bitwise\""
                                        : c == "within rounding bound" || c.starts_with("pass") ? " class=\"pass\""
                                                                                                : "";
                o << "<td" << cls << ">" << html_escape(c) << "</td>";
            }
            o << "</tr>\n";
        }
        o << "</table>\n";
    }
};

std::string get(const std::map<std::string, std::string>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? "-" : it->second;
}

table provenance_table(const port::port_record& a, const port::port_record& b) {
    table t{{"", "A", "B"}, {}};
    auto row = [&](const std::string& label, auto pick) { t.rows.push_back({label, pick(a), pick(b)}); };
    row("file", [](const port::port_record& r) { return r.file.string(); });
    row("git describe", [](const port::port_record& r) { return get(r.build, "version"); });
    row("compiler", [](const port::port_record& r) { return get(r.build, "compiler"); });
    row("host fp flags", [](const port::port_record& r) { return get(r.build, "host_fp_flags"); });
    row("build type", [](const port::port_record& r) { return get(r.build, "build_type"); });
    for (const char* key : {"backend", "hi_kernel", "hi_math", "device_name", "compute_capability", "driver_version",
                            "runtime_version", "cuda_fp_profile", "cuda_fp_flags", "cuda_architectures"})
        row(key, [key](const port::port_record& r) { return get(r.device, key); });
    row("CUDA_FORCE_PTX_JIT", [](const port::port_record& r) { return get(r.settings, "CUDA_FORCE_PTX_JIT"); });
    row("host", [](const port::port_record& r) { return get(r.run, "host"); });
    row("date", [](const port::port_record& r) { return get(r.run, "date"); });
    row("command", [](const port::port_record& r) { return get(r.run, "command"); });
    row("configurations", [](const port::port_record& r) { return get(r.settings, "configurations"); });
    return t;
}

}  // namespace

const std::vector<std::string>& port_report_files() {
    static const std::vector<std::string> files{"report.md",      "report.html",        "report.json",
                                                "histograms.csv", "verdicts.csv",       "plot.log",
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

    // Long-run observables per mode (the mode is part of the reference entry's key).
    auto mode_of = [](const regression::run_check& c) {
        const std::size_t p = c.entry.find("hi=");
        return p == std::string::npos ? std::string("-") : c.entry.substr(p, c.entry.find('/', p) - p);
    };
    std::map<std::string, std::pair<int, int>> long_runs;  // mode -> (passed, failed)
    for (const auto& c : checks) (c.passed() ? long_runs[mode_of(c)].first : long_runs[mode_of(c)].second) += 1;
    auto long_run_cell = [&](const std::string& mode) -> std::string {
        const auto it = long_runs.find(mode);
        if (it == long_runs.end()) return "-";
        const auto [p, f] = it->second;
        return f > 0 ? "FAIL (" + std::to_string(f) + " of " + std::to_string(p + f) + " runs)"
                     : "pass (" + std::to_string(p) + " runs)";
    };

    // Verdict per mode.
    table verdicts{{"mode", "verdict", "worst configuration", "max |dv| / bound", "max ULP", "max |dv|/|v|",
                    "bound factor (N max)", "long-run observables"},
                   {}};
    for (const auto& [mode, v] : cmp.per_mode) {
        const port::mode_comparison* worst = nullptr;
        for (const auto& r : cmp.rows)
            if (to_string(r.mode) == mode && (!worst || r.max_bound_ratio > worst->max_bound_ratio)) worst = &r;
        double max_ulp = 0, max_rel = 0, factor = 0;
        for (const auto& r : cmp.rows)
            if (to_string(r.mode) == mode) {
                max_ulp = std::max(max_ulp, r.max_ulp);
                max_rel = std::max(max_rel, r.max_relative);
                factor = std::max(factor, r.bound_factor);
            }
        if (worst && worst->max_bound_ratio == 0) worst = nullptr;  // bitwise everywhere
        verdicts.rows.push_back({mode, port::to_string(v), worst ? worst->configuration : "-",
                                 worst ? num(worst->max_bound_ratio) : "-", num(max_ulp, 4), num(max_rel), num(factor),
                                 long_run_cell(mode)});
    }
    for (const auto& [mode, counts] : long_runs)
        if (!cmp.per_mode.count(mode))
            verdicts.rows.push_back({mode, "-", "-", "-", "-", "-", "-", long_run_cell(mode)});
    table detail{{"configuration", "N", "mode", "verdict", "differing components", "max ULP", "median ULP",
                  "max |dv|/|v|", "rms |dv|/|v|", "max |dv|/bound", "worst (particle, component)"},
                 {}};
    for (const auto& r : cmp.rows)
        detail.rows.push_back(
            {r.configuration, std::to_string(r.particles), to_string(r.mode), port::to_string(r.result),
             std::to_string(r.differing_components) + " / " + std::to_string(3 * r.particles), num(r.max_ulp, 4),
             num(r.median_ulp, 3), num(r.max_relative), num(r.rms_relative), num(r.max_bound_ratio),
             r.differing_components ? "(" + std::to_string(r.worst_particle) + ", " + "xyz"[r.worst_component] + ")"
                                    : "-"});
    table runs{{"configuration", "mode", "short run", "max |dr| (a)", "max |dv| / max |v|"}, {}};
    for (const auto& r : cmp.rows)
        if (r.has_run)
            runs.rows.push_back({r.configuration, to_string(r.mode), r.run_bitwise ? "bitwise" : "differs",
                                 num(r.run_max_position_difference), num(r.run_max_relative_velocity)});
    table observables{{"run", "mode", "entry", "verdict", "failed checks", "first failure"}, {}};
    for (const auto& c : checks) {
        std::size_t failed = 0;
        std::string first;
        for (const auto& r : c.rows)
            if (r.failed()) {
                if (failed++ == 0)
                    first =
                        r.observable + ": " + r.observed + " vs " + r.reference + " (" + r.tolerance + ") " + r.detail;
            }
        observables.rows.push_back({c.run, mode_of(c), c.entry.empty() ? "(none)" : c.entry,
                                    c.passed() ? "pass" : "FAIL",
                                    std::to_string(failed) + " / " + std::to_string(c.rows.size()), first});
    }

    // Data for the plots.
    {
        std::ostringstream h;
        h << "configuration,mode,kind,bin,label,count\n";
        for (const auto& r : cmp.rows) {
            for (std::size_t k = 0; k < r.ulp.counts.size(); ++k)
                h << r.configuration << ",\"" << to_string(r.mode) << "\",ulp," << k << ",\"" << r.ulp.labels[k]
                  << "\"," << r.ulp.counts[k] << "\n";
            for (std::size_t k = 0; k < r.relative.counts.size(); ++k)
                h << r.configuration << ",\"" << to_string(r.mode) << "\",relative," << k << ",\""
                  << r.relative.labels[k] << "\"," << r.relative.counts[k] << "\n";
        }
        std::ostringstream v;
        v << "configuration,mode,verdict,max_bound_ratio,max_ulp,max_relative\n";
        for (const auto& r : cmp.rows)
            v << r.configuration << ",\"" << to_string(r.mode) << "\"," << port::to_string(r.result) << ","
              << num(r.max_bound_ratio, 6) << "," << num(r.max_ulp, 6) << "," << num(r.max_relative, 6) << "\n";
        io::write_file_atomically(o.directory / "histograms.csv", h.str());
        io::write_file_atomically(o.directory / "verdicts.csv", v.str());
    }
    std::vector<std::string> figures;
    std::string plot_note;
    if (o.plots) {
        const fs::path script = find_plot_script("plot_port_check.py");
        if (script.empty()) {
            plot_note = "plots skipped: tools/plot/plot_port_check.py not found (set STOKESIAN_PLOT_DIR)";
        } else {
            const plot_run run = run_plot_script(o.python, script, {o.directory.string()}, o.directory / "plot.log");
            if (run.status != 0) plot_note = "plots failed (see plot.log): " + run.command;
        }
        for (const char* f : {"verdicts.png", "ulp_histograms.png", "relative_histograms.png"})
            if (fs::is_regular_file(o.directory / f, e)) figures.push_back(f);
    }

    const std::string headline = std::string("port-check: ") + (passed ? "PASS" : "FAIL") + " (" +
                                 std::to_string(cmp.per_mode.size()) + " modes, " + std::to_string(cmp.rows.size()) +
                                 " configuration x mode comparisons" +
                                 (checks.empty() ? "" : ", " + std::to_string(checks.size()) + " long runs") + ")";
    const std::string bound_text =
        "Bound per component: |v^A_ic - v^B_ic| <= B_ic = f A_ic + N 2^-125, with A_ic = sum_j |mu_ij| |F_j| (absolute "
        "evaluation of every pair term, in double, stored in the record) and f = 2 [gamma_{N-1}(u_a)(1 + k u_w) + k "
        "u_w], "
        "gamma_n(u) = n u / (1 - n u): each of the two results is the exact sum up to a reordered sum of N terms in "
        "the "
        "accumulator (u_a = 2^-24 f32, 2^-47 ds (DWPlusFP), 2^-53 f64) and up to k u_w per term (k = " +
        num(port::term_allowance) +
        ": the roundings on the longest path of a pair term, with approximate rsqrt, division "
        "and square root of the fast kernels and the paper-fast flags; u_w = 2^-24 for f32 and ds, 2^-53 for f64). "
        "N 2^-125 covers subnormal terms flushed to zero (--ftz=true). Derivation: engine/docs/porting.md.";

    // report.md
    {
        std::ostringstream md;
        md << "# Port check: " << (passed ? "PASS" : "FAIL") << "\n\n";
        md << "A = `" << a.file.string() << "`, B = `" << b.file.string() << "`.\n\n## Verdict per precision mode\n\n";
        verdicts.markdown(md);
        md << bound_text << "\n\n";
        if (!cmp.not_compared.empty()) {
            md << "Not compared (present in one record only):\n\n";
            for (const auto& n : cmp.not_compared) md << "- " << n << "\n";
            md << "\n";
        }
        md << "## Provenance\n\n";
        provenance_table(a, b).markdown(md);
        md << "## Per configuration and mode\n\n";
        detail.markdown(md);
        if (!runs.rows.empty()) {
            md << "## Short runs (informational, no verdict)\n\nThe state after the recorded steps. A run amplifies "
                  "rounding differences through the dynamics (and the explicit lubrication coupling), so no rounding "
                  "bound is derived for it; bitwise equality is still meaningful.\n\n";
            runs.markdown(md);
        }
        if (!checks.empty()) {
            md << "## Long-run observables against `" << o.reference_dir << "`\n\n";
            observables.markdown(md);
        }
        if (!figures.empty() || !plot_note.empty()) {
            md << "## Figures\n\n";
            for (const auto& f : figures) md << "![" << f << "](" << f << ")\n\n";
            if (!plot_note.empty()) md << plot_note << "\n";
        }
        io::write_file_atomically(o.directory / "report.md", md.str());
    }
    // report.html
    {
        std::ostringstream h;
        h << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>port-check</title><style>"
             "body{font-family:sans-serif;max-width:1200px;margin:auto}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #aaa;padding:2px 6px;font-size:90%}.fail{background:#f99}.pass{background:#cfc}"
             ".bitwise{background:#9e9}</style></head><body>\n";
        h << "<h1>Port check: " << (passed ? "PASS" : "FAIL") << "</h1>\n<p>A = <code>" << html_escape(a.file.string())
          << "</code>, B = <code>" << html_escape(b.file.string())
          << "</code></p>\n<h2>Verdict per precision mode</h2>\n";
        verdicts.html(h);
        h << "<p>" << html_escape(bound_text) << "</p>\n";
        if (!cmp.not_compared.empty()) {
            h << "<p>Not compared:</p><ul>";
            for (const auto& n : cmp.not_compared) h << "<li>" << html_escape(n) << "</li>";
            h << "</ul>\n";
        }
        h << "<h2>Provenance</h2>\n";
        provenance_table(a, b).html(h);
        h << "<h2>Per configuration and mode</h2>\n";
        detail.html(h);
        if (!runs.rows.empty()) {
            h << "<h2>Short runs (informational, no verdict)</h2>\n";
            runs.html(h);
        }
        if (!checks.empty()) {
            h << "<h2>Long-run observables</h2>\n";
            observables.html(h);
        }
        if (!figures.empty() || !plot_note.empty()) {
            h << "<h2>Figures</h2>\n";
            for (const auto& f : figures)
                h << "<p><a href=\"" << f << "\"><img src=\"" << f << "\" style=\"max-width:100%\"></a></p>\n";
            if (!plot_note.empty()) h << "<p>" << html_escape(plot_note) << "</p>\n";
        }
        h << "</body></html>\n";
        io::write_file_atomically(o.directory / "report.html", h.str());
    }
    // report.json
    {
        io::json per_mode = io::json::object();
        for (const auto& [mode, v] : cmp.per_mode) per_mode[mode] = port::to_string(v);
        io::json comparisons = io::json::array();
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
                       {"ulp_histogram", r.ulp.counts},
                       {"relative_histogram", r.relative.counts}};
            if (r.has_run) {
                c["run_bitwise"] = r.run_bitwise;
                c["run_max_position_difference"] = r.run_max_position_difference;
                c["run_max_relative_velocity"] = r.run_max_relative_velocity;
            }
            comparisons.push_back(std::move(c));
        }
        io::json long_run_list = io::json::array();
        for (const auto& c : checks)
            long_run_list.push_back({{"run", c.run}, {"entry", c.entry}, {"passed", c.passed()}});
        io::json provenance = io::json::object();
        for (const auto* r : {&a, &b}) {
            io::json side = io::json::object();
            for (const auto* m : {&r->build, &r->device, &r->run})
                for (const auto& [k, v] : *m) side[k] = v;
            provenance[r == &a ? "a" : "b"] = std::move(side);
        }
        io::write_file_atomically(o.directory / "report.json", io::json_text({{"passed", passed},
                                                                              {"a", a.file.string()},
                                                                              {"b", b.file.string()},
                                                                              {"per_mode", std::move(per_mode)},
                                                                              {"comparisons", std::move(comparisons)},
                                                                              {"not_compared", cmp.not_compared},
                                                                              {"long_runs", std::move(long_run_list)},
                                                                              {"provenance", std::move(provenance)}}));
    }

    out << headline << "\n";
    for (const auto& row : verdicts.rows)
        out << "  " << row[0] << ": " << row[1] << " (max |dv|/bound " << row[3] << ", worst " << row[2] << ")"
            << (row[7] == "-" ? "" : "; long runs " + row[7]) << "\n";
    for (const auto& n : cmp.not_compared) out << "  not compared: " << n << "\n";
    for (const auto& c : checks) out << "  long run " << c.run << ": " << (c.passed() ? "pass" : "FAIL") << "\n";
    if (!plot_note.empty()) out << "  " << plot_note << "\n";
    out << "  report: " << (o.directory / "report.md").string() << "\n";
    return passed;
}

}  // namespace stokesian::cli
