// The scenario-file reader (format: docs/reference/scenario-file.md): every logical table is read through its
// field table (scenario_tables.hpp); cases ([cases.NAME]) are layers over the top-level tables.
#include <algorithm>
#include <stdexcept>

#include <toml++/toml.h>

#include "field_reader.hpp"
#include "initial_state.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/ewald_setup.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/safe_name.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/text_input.hpp"
#include "stokesian/settings/toml_parsing.hpp"
#include "toml_value_text.hpp"

namespace stokesian {

using namespace settings;

namespace {

key_list case_keys() {
    key_list keys{{"description"}, {}};
    keys.tables.assign(sub_tables("case").begin(), sub_tables("case").end());
    return keys;
}

void read_physics(const section& physics, system_parameters& system) {
    read_fields(field_reader(physics), physics_fields(), system);
    const section lubrication = physics.sub("lubrication", keys_of(lubrication_fields()));
    read_fields(field_reader(lubrication), lubrication_fields(), system.lubrication);
    const section pair = physics.sub("pair_force", keys_of(pair_force_fields()));
    read_fields(field_reader(pair), pair_force_fields(), system.pair_force);
    const section ewald = physics.sub("ewald", keys_of(ewald_fields()));
    read_fields(field_reader(ewald), ewald_fields(), system.ewald);
}

// Rules of the Ewald tensor across tables, once the box is known (a lattice computes its edges):
// [physics.ewald] only with it, a periodic box, and truncations the tables hold.
void check_ewald(const checker& check, const section& physics, const section& box, const system_parameters& system) {
    const section ewald = physics.sub("ewald", keys_of(ewald_fields()));
    if (system.tensor != hydrodynamic_tensor::rpy_ewald) {
        if (ewald.present())
            check.fail(physics.key("ewald"), "", "[physics.ewald] is only allowed with tensor = \"rpy-ewald\"");
        return;
    }
    const auto tensor = physics.find("tensor");
    if (!system.box.periodic)
        check.fail(tensor ? tensor->key : physics.key("tensor"), "\"rpy-ewald\"",
                   "expected a periodic box for the Ewald sum ([box] boundary = \"periodic\"); an open system has "
                   "\"rotne-prager\"");
    try {
        make_ewald_parameters(system);
    } catch (const std::invalid_argument& e) {
        const auto xi = ewald.find("xi");
        check.fail(xi ? xi->key : box.key("edges"), "", e.what());
    }
}

// The two-body lubrication model needs the implicit scheme and the Rotne-Prager tensor
// (lubrication_model_refusal): the error names the model's key.
void check_lubrication_model(const checker& check, const section& physics, const system_parameters& system) {
    const std::string why = lubrication_model_refusal(system);
    if (why.empty()) return;
    const section lubrication = physics.sub("lubrication", keys_of(lubrication_fields()));
    if (const auto model = lubrication.find("model")) check.fail(*model, why);
    check.fail(lubrication.key("model"), "", why);
}

void read_observables(const field_reader& observables, observable_settings& settings) {
    const section& table = observables.table();
    const section cycle = table.sub("cycle", keys_of(cycle_fields()));
    if (cycle.present()) {
        cycle_spec spec;
        read_fields(field_reader(cycle, observables.particle_count()), cycle_fields(), spec);
        settings.cycle = spec;
    }
    read_fields(observables, observables_fields(), settings);
    const section definiteness = table.sub("positive_definiteness", keys_of(positive_definiteness_fields()));
    if (definiteness.present()) {
        positive_definiteness_spec spec;
        read_fields(field_reader(definiteness), positive_definiteness_fields(), spec);
        settings.positive_definiteness = spec;
    }
}

// observables.cycle.window against the run's sampling and length (cycle_window_problem).
void check_cycle_window(const checker& check, const section& observables, const scenario& s) {
    if (!s.observables.cycle) return;
    const std::string problem = cycle_window_problem(s.observables.cycle->window, s.run);
    if (problem.empty()) return;
    const section cycle = observables.sub("cycle", keys_of(cycle_fields()));
    if (const auto window = cycle.find("window")) check.fail(*window, problem);
    check.fail(cycle.key("window"), short_number(s.observables.cycle->window), problem + " (the default)");
}

// One layer per place the logical top-level table is written: the top level, then the case.
std::vector<layer> layers_of(const checker& check, const toml::table& root, const toml::table* case_table,
                             const std::string& case_prefix, std::string_view name, bool case_replaces) {
    std::vector<layer> layers;
    const toml::node* case_node = case_table ? case_table->get(name) : nullptr;
    if (const toml::node* n = root.get(name); n != nullptr && !(case_replaces && case_node != nullptr))
        layers.push_back({&check.table({n, std::string(name)}), std::string(name)});
    if (case_node != nullptr) {
        const std::string key = case_prefix + "." + std::string(name);
        layers.push_back({&check.table({case_node, key}), key});
    }
    return layers;
}

scenario resolve(const checker& check, const toml::table& root, const toml::table* case_table,
                 const std::string& case_name) {
    scenario s;
    s.case_name = case_name;
    const std::string case_prefix = "cases." + case_name;
    if (case_table != nullptr) section(check, case_prefix, {{case_table, case_prefix}}, case_keys());

    const section head(check, "scenario", layers_of(check, root, nullptr, "", "scenario", false),
                       keys_of(scenario_fields()));
    read_fields(field_reader(head), scenario_fields(), s);
    if (case_table != nullptr) {
        if (const toml::node* d = case_table->get("description")) {
            const std::string text = check.string({d, case_prefix + ".description"});
            if (!text.empty())
                s.description += (s.description.empty() ? "" : "; ") + ("case " + case_name + ": " + text);
        }
    }

    auto layers = [&](std::string_view n, bool replaces = false) {
        return layers_of(check, root, case_table, case_prefix, n, replaces);
    };
    const section physics(check, "physics", layers("physics"), keys_of(physics_fields(), sub_tables("physics")));
    read_physics(physics, s.system);
    check_lubrication_model(check, physics, s.system);

    const section box(check, "box", layers("box"), keys_of(box_fields()));
    read_fields(field_reader(box), box_fields(), s.system.box);

    // A case's [particles] replaces the top-level one wholesale.
    const section particles(check, "particles", layers("particles", true),
                            keys_of(particles_fields(), sub_tables("particles")));
    if (!particles.present()) check.fail_missing("particles.positions", "a [particles] table");
    read_particles(check, particles, box, s);
    check_ewald(check, physics, box, s.system);

    const section run(check, "run", layers("run"), keys_of(run_fields()));
    read_fields(field_reader(run), run_fields(), s.run);

    const section observables(check, "observables", layers("observables"),
                              keys_of(observables_fields(), sub_tables("observables")));
    read_observables(field_reader(observables, s.particles.size(), particles.key("positions")), s.observables);
    check_cycle_window(check, observables, s);

    const section output(check, "output", layers("output"), keys_of(output_fields()));
    read_fields(field_reader(output), output_fields(), s.output);
    return s;
}

// The cases in file order (toml++ tables are sorted by key, so order by source position).
std::vector<std::pair<std::string, const toml::table*>> cases_in_file_order(const checker& check,
                                                                            const toml::table& root) {
    std::vector<std::pair<std::string, const toml::table*>> cases;
    const toml::node* node = root.get("cases");
    if (node == nullptr) return cases;
    const toml::table& table = check.table({node, "cases"});
    for (const auto& [key, value] : table)
        cases.emplace_back(std::string(key.str()), &check.table({&value, "cases." + std::string(key.str())}));
    std::stable_sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) {
        const auto& pa = a.second->source().begin;
        const auto& pb = b.second->source().begin;
        return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
    });
    return cases;
}

}  // namespace

// ---- public API ---------------------------------------------------------------------------------

scenario parse_scenario(const std::string& text, const std::string& origin, const std::string& case_name) {
    const checker check(origin);
    const toml::table root = parse_toml(text, origin);
    // Constructed for its check of the top-level keys only.
    // NOLINTNEXTLINE(bugprone-unused-raii)
    section(check, "", {{&root, ""}}, key_list{{}, {sub_tables("").begin(), sub_tables("").end()}});

    const auto cases = cases_in_file_order(check, root);
    if (root.get("cases") != nullptr && cases.empty())
        check.fail("cases", "", "expected at least one [cases.NAME] table");
    if (!case_name.empty() && cases.empty())
        check.fail("", "", "case '" + case_name + "' was requested, but the file defines no [cases]");

    std::vector<std::string> names;
    for (const auto& c : cases) {
        // A case name becomes part of the default output's file name (stokesian/core/safe_name.hpp).
        if (const std::string why = unsafe_name_reason(c.first); !why.empty())
            check.fail("cases", quoted_printable(c.first), "a case name must be a safe file name: " + why);
        names.push_back(c.first);
    }
    std::string selected = case_name;
    if (selected.empty() && !cases.empty()) selected = cases.front().first;
    if (!selected.empty() && std::find(names.begin(), names.end(), selected) == names.end())
        check.fail("", "", "no case '" + selected + "' in the file; available cases: " + joined(names));

    scenario result;
    if (cases.empty()) {
        result = resolve(check, root, nullptr, "");
    } else {
        // Every case is resolved so that a broken case is reported whichever one is selected;
        // an error that only arises in a combination names the case.
        for (const auto& [name, table] : cases) {
            try {
                scenario s = resolve(check, root, table, name);
                if (name == selected) result = std::move(s);
            } catch (const input_error& error) {
                const std::string message = error.what();
                if (message.find("cases." + name + ".") != std::string::npos) throw;
                throw input_error(message + " (in case '" + name + "')");
            }
        }
    }
    result.source_path = origin;
    result.source_text = text;
    return result;
}

scenario load_scenario(const std::filesystem::path& path, const std::string& case_name) {
    const std::string file = path.string();
    const std::string text = read_text_input(path, "the scenario file");
    scenario s = parse_scenario(text, file, case_name);
    s.source_path = path;
    return s;
}

}  // namespace stokesian
