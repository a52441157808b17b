// `stokesian reference show RESULT.h5... [--json]`: the regression observables of results as the
// reference store sees them (key, run length, every catalogued observable). Used by
// reference_data/spread/measure_spread.py to measure spreads with exactly the checked numbers.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "json.hpp"
#include "reference_commands.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/value_comparison.hpp"

namespace stokesian::cli {

namespace {

struct show_options {
    std::vector<std::string> results;
    bool json = false;
};

void print_json(const std::vector<regression::observed_run>& runs) {
    json_writer j(std::cout);
    j.begin_array();
    for (const auto& r : runs) {
        j.begin_object();
        j.field("file", r.file.string());
        j.field("entry", r.key.group_path());
        j.field("scenario", r.key.scenario);
        j.field("planned_steps", double(r.planned_steps));
        j.field("status", r.status);
        j.field("final_state_digest", r.final_state_digest);
        j.key("observables");
        j.begin_object();
        for (const auto& [name, v] : r.observables) {
            j.key(name);
            j.begin_object();
            j.key("values");
            j.begin_array();
            for (const double x : v.values) j.value(x);
            j.end_array();
            if (!v.coordinate.empty()) {
                j.key("window_end_time");
                j.begin_array();
                for (const double x : v.coordinate) j.value(x);
                j.end_array();
            }
            j.field("ci95_half_width", v.ci95_half_width);
            j.field("unit", v.unit);
            j.end_object();
        }
        j.end_object();
        j.end_object();
    }
    j.end_array();
    std::cout << "\n";
}

int execute(const show_options& o) {
    std::vector<regression::observed_run> runs;
    for (const std::string& path : o.results) runs.push_back(regression::read_observed_run(path));
    if (o.json) {
        print_json(runs);
        return 0;
    }
    for (const auto& r : runs) {
        std::printf("%s: %s, %llu steps, %s\n", r.file.string().c_str(), r.key.group_path().c_str(),
                    static_cast<unsigned long long>(r.planned_steps), r.status.c_str());
        for (const auto& [name, v] : r.observables) {
            std::string text = v.values.size() == 1 ? regression::format_number(v.values[0])
                                                    : std::to_string(v.values.size()) + " values";
            if (!std::isnan(v.ci95_half_width)) text += " +- " + regression::format_number(v.ci95_half_width);
            std::printf("  %-40s %s %s\n", name.c_str(), text.c_str(), v.unit.c_str());
        }
    }
    return 0;
}

}  // namespace

action register_reference_show(CLI::App& reference) {
    auto o = std::make_shared<show_options>();
    auto* cmd = reference.add_subcommand("show", "Print the regression observables of results");
    cmd->add_option("results", o->results, "result files (H5MD)")->required();
    cmd->add_flag("--json", o->json, "print JSON (an array, one object per result)");
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
