// `stokesian reference show RESULT.h5... [--json]`: the regression observables of results as the
// reference store sees them (key, run length, every catalogued observable). Used by
// reference_data/spread/measure_spread.py to measure spreads with exactly the checked numbers.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "reference_commands.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/value_comparison.hpp"

namespace stokesian::cli {

namespace {

struct show_options {
    std::vector<std::string> results;
    bool json = false;
};

void print_json(const std::vector<regression::observed_run>& runs) {
    io::json list = io::json::array();
    for (const auto& r : runs) {
        io::json observables = io::json::object();
        for (const auto& [name, v] : r.observables) {
            io::json values = io::json::array();  // counts (periods found, windows, checks) as integers
            for (const double x : v.values) values.push_back(io::json_quantity(name, x));
            io::json value{{"values", std::move(values)}};
            if (!v.coordinate.empty()) value["window_end_time"] = v.coordinate;
            value["ci95_half_width"] = v.ci95_half_width;
            value["unit"] = v.unit;
            observables[name] = std::move(value);
        }
        list.push_back({{"file", r.file.string()},
                        {"entry", r.key.group_path()},
                        {"scenario", r.key.scenario},
                        {"planned_steps", r.planned_steps},
                        {"status", r.status},
                        {"final_state_digest", r.final_state_digest},
                        {"observables", std::move(observables)}});
    }
    std::cout << io::json_text(list);
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
