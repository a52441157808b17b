#include "stokesian/settings/scenario_reference.hpp"

#include <stdexcept>

#include "scenario_tables.hpp"

namespace stokesian::settings {

namespace {

// Built by appending: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&&.
void append_cell(std::string& row, std::string_view text) {
    if (!text.empty()) row.append(" ").append(text);
    row.append(" |");
}

// The constraint, and the command-line option where the key has one.
std::string constraint_cell(const field_doc& doc, const cli_spelling& cli) {
    std::string text(doc.constraint);
    if (cli.option.empty()) return text;
    text.append(" (command line: `").append(cli.option).append("`");
    if (cli.negated) text.append(" sets `false`");
    return text.append(")");
}

template <class S>
std::string markdown(std::span<const field<S>> fields) {
    std::string text = "| key | type | default | constraint |\n| --- | --- | --- | --- |\n";
    for (const auto& f : fields) {
        if (std::holds_alternative<derived_count<S>>(f.member)) continue;  // written, not read
        std::string key = "`";
        key.append(f.key).append("`");
        const std::string constraint = constraint_cell(f.doc, f.cli);
        text.append("|");
        for (const std::string_view c :
             {std::string_view(key), f.doc.type, f.doc.default_text, std::string_view(constraint)})
            append_cell(text, c);
        text.append("\n");
    }
    return text;
}

struct named_table {
    std::string_view name;
    std::string (*markdown)();
};

const named_table tables[] = {
    {"scenario", [] { return markdown(scenario_fields()); }},
    {"physics", [] { return markdown(physics_fields()); }},
    {"physics.lubrication", [] { return markdown(lubrication_fields()); }},
    {"physics.pair_force", [] { return markdown(pair_force_fields()); }},
    {"physics.ewald", [] { return markdown(ewald_fields()); }},
    {"box", [] { return markdown(box_fields()); }},
    {"particles", [] { return markdown(particles_fields()); }},
    {"particles.lattice", [] { return markdown(lattice_fields()); }},
    {"particles.file", [] { return markdown(positions_file_fields()); }},
    {"particles.random", [] { return markdown(random_suspension_fields()); }},
    {"run", [] { return markdown(run_fields()); }},
    {"observables", [] { return markdown(observables_fields()); }},
    {"observables.cycle", [] { return markdown(cycle_fields()); }},
    {"observables.positive_definiteness", [] { return markdown(positive_definiteness_fields()); }},
    {"output", [] { return markdown(output_fields()); }},
};

constexpr std::string_view begin_marker = "<!-- scenario-keys: ";
constexpr std::string_view end_marker = "<!-- end scenario-keys -->";

}  // namespace

std::vector<std::string> scenario_table_names() {
    std::vector<std::string> names;
    for (const auto& t : tables) names.emplace_back(t.name);
    return names;
}

std::string scenario_key_table(std::string_view table_name) {
    for (const auto& t : tables)
        if (t.name == table_name) return t.markdown();
    throw std::invalid_argument("no scenario table '" + std::string(table_name) + "'");
}

std::string with_generated_key_tables(const std::string& readme) {
    std::string out;
    std::size_t at = 0;
    for (;;) {
        const std::size_t begin = readme.find(begin_marker, at);
        if (begin == std::string::npos) break;
        const std::size_t name_end = readme.find(" -->\n", begin);
        const std::size_t end = readme.find(end_marker, begin);
        if (name_end == std::string::npos || end == std::string::npos || end < name_end)
            throw std::invalid_argument("unterminated '" + std::string(begin_marker) + "' block");
        const std::size_t body = name_end + 5;
        const std::string name = readme.substr(begin + begin_marker.size(), name_end - begin - begin_marker.size());
        out += readme.substr(at, body - at) + scenario_key_table(name);
        at = end;
    }
    return out + readme.substr(at);
}

}  // namespace stokesian::settings
