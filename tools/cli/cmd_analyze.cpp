// `stokesian analyze FILE [--json]`: what a run wrote, read back from its H5MD file: the run's
// provenance (scenario, case, precision, backend, status, steps, wall time), the headline numbers
// of every observable, then every result under /analysis. --json prints the same as one object
// (result_analysis.hpp; the shared part of `stokesian run --json`).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "result_analysis.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

std::string number(double x, const char* format = "%.10g") {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, x);
    return buffer;
}

std::string get(const std::map<std::string, std::string>& m, const std::string& key,
                const std::string& fallback = "-") {
    const auto it = m.find(key);
    return it == m.end() || it->second.empty() ? fallback : it->second;
}

void print_text(const result_file& f) {
    std::printf("file:       %s\n", f.path.c_str());
    std::printf("scenario:   %s%s\n", get(f.scenario, "name").c_str(),
                get(f.scenario, "case", "").empty() ? "" : (" (case " + get(f.scenario, "case") + ")").c_str());
    std::printf("precision:  %s   backend: %s   integrator: %s   dt: %s tau_s\n", get(f.run, "precision").c_str(),
                get(f.engine, "backend").c_str(), get(f.run, "integrator").c_str(), get(f.run, "dt").c_str());
    // The lubrication scheme and, for the implicit one, the solver's counts over every velocity
    // evaluation of the run (the engine's description; the sampled solves are under /analysis).
    if (const std::string scheme = get(f.engine, "lubrication_scheme", ""); !scheme.empty()) {
        std::printf("lubrication: %s", scheme.c_str());
        if (scheme == "implicit")
            std::printf("   solves: %s   CG iterations: %s (mean %s, most %s)   largest residual: %s",
                        get(f.engine, "lubrication_solves").c_str(),
                        get(f.engine, "lubrication_iterations_total").c_str(),
                        get(f.engine, "lubrication_iterations_mean").c_str(),
                        get(f.engine, "lubrication_iterations_most").c_str(),
                        get(f.engine, "lubrication_largest_relative_residual").c_str());
        std::printf("\n");
    }
    std::printf("status:     %s\n", get(f.run, "status").c_str());
    for (const std::string& flag : f.flags) std::printf("FLAG:       %s\n", flag.c_str());
    const std::string wall = get(f.run, "wall_seconds", "");
    std::printf("steps:      %s of %s   wall time: %s\n", get(f.run, "steps").c_str(),
                get(f.run, "planned_steps").c_str(),
                wall.empty() ? "-" : format_duration(std::strtod(wall.c_str(), nullptr)).c_str());

    std::string group;
    for (const headline& h : headlines()) {
        const std::optional<double> value = headline_value(f, h);
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
    for (const analysis_result& r : f.results) {
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

struct analyze_options {
    std::string path;
    bool json = false;
};

int execute(const analyze_options& o) {
    const result_file f = read_result_file(o.path);
    if (o.json) std::cout << io::json_text(result_json(f));
    else print_text(f);
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
