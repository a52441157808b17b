// The scenario-file loader (format: scenarios/README.md). Every key of the file is checked; the
// first problem found ends the load with one input_error line "FILE: key 'K' = V: expected ...".
//
// Cases ([cases.NAME]) are read as layers over the top-level tables rather than by merging the
// TOML trees: a value is looked up in the case first, then at the top level, and an error names
// the key where the offending value was written (e.g. 'cases.oblique.run.dt').
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include <toml++/toml.h>

#include "core/close_pair.hpp"
#include "settings/text_input.hpp"
#include "settings/toml_parsing.hpp"
#include "stokesian/core/digest.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/safe_name.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/core/step_count.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/physics/mobility.hpp"

namespace stokesian {

// ---- run_settings -------------------------------------------------------------------------------

// Counts of validated settings (validate_run_settings); unvalidated ones give 0 steps and
// intervals of 1, never an overflowed count.
std::uint64_t run_settings::total_steps() const {
    if (steps) return *steps;
    if (time) return whole_steps(*time, dt).value_or(0);
    return 0;
}

std::uint64_t run_settings::checkpoint_interval_steps() const {
    if (!checkpoint_every) return 0;
    return whole_steps(*checkpoint_every, dt).value_or(1);
}

std::uint64_t run_settings::sample_interval_steps() const { return whole_steps(sample_every, dt).value_or(1); }

namespace {

// ---- formatting ---------------------------------------------------------------------------------

// Shortest decimal form that reads back to the same double ("25", "0.1", "1e-06").
std::string number_text(double x) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&&.
std::string vector_text(vec3<double> v) {
    std::string text = "(";
    text.append(number_text(v.x)).append(", ").append(number_text(v.y)).append(", ").append(number_text(v.z));
    return text.append(")");
}

// A value as it would be written in TOML: strings in double quotes, floats in their shortest
// round-trip form ("0.1", "40.0", "nan"), arrays as "[ 1.0, 2.0 ]", inline tables as "{ k = v }".
void write_value(std::string& out, const toml::node& node) {
    if (const auto* s = node.as_string()) {
        out += '"';
        for (const char c : s->get()) {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += c;
            } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += escaped;
            } else {
                out += c;
            }
        }
        out += '"';
    } else if (const auto* f = node.as_floating_point()) {
        const double x = f->get();
        if (std::isnan(x)) {
            out += "nan";
        } else if (std::isinf(x)) {
            out += x < 0 ? "-inf" : "inf";
        } else {
            const std::string text = number_text(x);
            out += text;
            if (text.find_first_of(".e") == std::string::npos) out += ".0";
        }
    } else if (const auto* i = node.as_integer()) {
        out += std::to_string(i->get());
    } else if (const auto* b = node.as_boolean()) {
        out += b->get() ? "true" : "false";
    } else if (const auto* a = node.as_array()) {
        if (a->empty()) {
            out += "[]";
            return;
        }
        out += "[ ";
        for (std::size_t k = 0; k < a->size(); ++k) {
            if (k > 0) out += ", ";
            write_value(out, *a->get(k));
            if (out.size() > 200) return;  // cut below anyway
        }
        out += " ]";
    } else if (const auto* t = node.as_table()) {
        out += "{ ";
        bool first = true;
        for (const auto& [key, value] : *t) {
            if (!first) out += ", ";
            first = false;
            out.append(key.str()).append(" = ");
            write_value(out, value);
            if (out.size() > 200) return;
        }
        out += first ? "}" : " }";
    } else {
        // Dates and times, as toml++ prints them.
        std::ostringstream stream;
        node.visit([&](const auto& value) { stream << value; });
        out += stream.str();
    }
}

// One line of at most about 60 characters, so that messages stay one line.
std::string written(const toml::node& node) {
    std::string text;
    write_value(text, node);
    constexpr std::size_t limit = 60;
    if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
    return text;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

// ---- reading with checks ------------------------------------------------------------------------

// One TOML table that contributes to a logical section: the top-level [run], or [cases.X.run].
struct layer {
    const toml::table* table;
    std::string prefix;  // dotted key of the table in the file
};

// A value found in a section, with the dotted key it was written under.
struct entry {
    const toml::node* node;
    std::string key;
};

enum class sign_rule { any, positive, non_negative };

// An integer or floating-point node as a double (TOML integers are accepted wherever a number is).
double as_double(const toml::node& node) {
    if (const auto* i = node.as_integer()) return static_cast<double>(i->get());
    return node.as_floating_point()->get();
}

class checker {
public:
    explicit checker(std::string file) : file_(std::move(file)) {}
    const std::string& file() const { return file_; }

    [[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& expected) const {
        throw input_error(file_, key, value, expected);
    }
    [[noreturn]] void fail(const entry& e, const std::string& expected) const {
        fail(e.key, written(*e.node), expected);
    }
    [[noreturn]] void fail_missing(const std::string& key, const std::string& expected) const {
        fail(key, "", "required key is missing (expected " + expected + ")");
    }

    double number(const entry& e, sign_rule rule, const std::string& what = "a number") const {
        const std::string rule_text = rule == sign_rule::positive       ? " > 0"
                                      : rule == sign_rule::non_negative ? " >= 0"
                                                                        : "";
        if (!e.node->is_number()) fail(e, "expected " + what + rule_text);
        const double x = as_double(*e.node);
        if (!std::isfinite(x)) fail(e, "expected a finite number" + rule_text);
        if (rule == sign_rule::positive && !(x > 0.0)) fail(e, "expected " + what + " > 0");
        if (rule == sign_rule::non_negative && !(x >= 0.0)) fail(e, "expected " + what + " >= 0");
        return x;
    }

    // Integers; a float with an integral value (1e5) is accepted as well.
    std::int64_t integer(const entry& e, std::int64_t minimum,
                         std::int64_t maximum = std::numeric_limits<std::int64_t>::max()) const {
        const std::string range = maximum == std::numeric_limits<std::int64_t>::max()
                                      ? " >= " + std::to_string(minimum)
                                      : " in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]";
        std::int64_t value = 0;
        if (const auto* i = e.node->as_integer()) {
            value = i->get();
        } else if (const auto* f = e.node->as_floating_point()) {
            const double x = f->get();
            // 2^63 is exactly representable; anything from there on does not fit.
            if (!std::isfinite(x) || x != std::floor(x) || std::fabs(x) >= 0x1p63)
                fail(e, "expected an integer" + range);
            value = static_cast<std::int64_t>(x);
        } else {
            fail(e, "expected an integer" + range);
        }
        if (value < minimum || value > maximum) fail(e, "expected an integer" + range);
        return value;
    }

    std::string string(const entry& e, const std::string& what = "a string") const {
        if (!e.node->is_string()) fail(e, "expected " + what);
        return e.node->as_string()->get();
    }

    bool boolean(const entry& e) const {
        if (!e.node->is_boolean()) fail(e, "expected true or false");
        return e.node->as_boolean()->get();
    }

    std::string one_of(const entry& e, const std::vector<std::string>& choices) const {
        std::string quoted;
        for (const auto& c : choices) quoted += (quoted.empty() ? "\"" : ", \"") + c + "\"";
        const std::string expected = "expected one of " + quoted;
        if (!e.node->is_string()) fail(e, expected);
        const std::string value = e.node->as_string()->get();
        if (std::find(choices.begin(), choices.end(), value) == choices.end()) fail(e, expected);
        return value;
    }

    vec3<double> vector(const entry& e) const {
        const auto* array = e.node->as_array();
        const std::string expected = "expected an array of 3 numbers";
        if (array == nullptr || array->size() != 3) fail(e, expected);
        double c[3];
        for (std::size_t k = 0; k < 3; ++k) {
            const toml::node& component = *array->get(k);
            if (!component.is_number()) fail(e, expected);
            c[k] = as_double(component);
            if (!std::isfinite(c[k])) fail(e, "expected an array of 3 finite numbers");
        }
        return {c[0], c[1], c[2]};
    }

    const toml::table& table(const entry& e) const {
        if (!e.node->is_table()) fail(e, "expected a table");
        return *e.node->as_table();
    }

private:
    std::string file_;
};

struct key_list {
    std::vector<std::string_view> values;
    std::vector<std::string_view> tables;
};

// A logical table of the scenario, seen through its layers (lowest priority first).
class section {
public:
    section(const checker& check, std::string name, std::vector<layer> layers, const key_list& keys)
        : check_(&check), name_(std::move(name)), layers_(std::move(layers)), keys_(keys) {
        for (const auto& l : layers_) {
            for (const auto& [key, node] : *l.table) {
                const std::string_view k = key.str();
                const bool is_value = std::find(keys_.values.begin(), keys_.values.end(), k) != keys_.values.end();
                const bool is_table = std::find(keys_.tables.begin(), keys_.tables.end(), k) != keys_.tables.end();
                const std::string full = dotted(l.prefix, k);
                if (is_table && !node.is_table()) check.fail(full, written(node), "expected a table");
                if (!is_value && !is_table) {
                    std::vector<std::string> known;
                    for (auto v : keys_.values) known.emplace_back(v);
                    for (auto t : keys_.tables) known.emplace_back(std::string(t) + " (table)");
                    const std::string where = name_.empty() ? "the top level" : "[" + name_ + "]";
                    check.fail("", "",
                               std::string(node.is_table() ? "unknown table '" : "unknown key '") + full + "' (" +
                                   where + " accepts " + (known.empty() ? "nothing" : joined(known)) + ")");
                }
            }
        }
    }

    static std::string dotted(const std::string& prefix, std::string_view key) {
        return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
    }
    std::string key(std::string_view k) const { return dotted(name_, k); }
    const std::string& name() const { return name_; }
    bool present() const { return !layers_.empty(); }

    // The value with the highest priority, if any.
    std::optional<entry> find(std::string_view k) const {
        for (auto l = layers_.rbegin(); l != layers_.rend(); ++l)
            if (const toml::node* n = l->table->get(k)) return entry{n, dotted(l->prefix, k)};
        return std::nullopt;
    }
    // Every written value of the key (lower layers too, so that they are checked as well).
    std::vector<entry> find_all(std::string_view k) const {
        std::vector<entry> all;
        for (auto l = layers_.rbegin(); l != layers_.rend(); ++l)
            if (const toml::node* n = l->table->get(k)) all.push_back({n, dotted(l->prefix, k)});
        return all;
    }
    // Of two mutually exclusive keys, the one set by the highest layer that sets either (a case
    // that sets `steps` overrides a top-level `time`). Both in one layer is an error.
    std::optional<entry> exclusive(std::string_view a, std::string_view b) const {
        for (auto l = layers_.rbegin(); l != layers_.rend(); ++l) {
            const toml::node* na = l->table->get(a);
            const toml::node* nb = l->table->get(b);
            if (na != nullptr && nb != nullptr)
                check_->fail(dotted(l->prefix, b), written(*nb), "set only one of " + key(a) + " and " + key(b));
            if (na != nullptr) return entry{na, dotted(l->prefix, a)};
            if (nb != nullptr) return entry{nb, dotted(l->prefix, b)};
        }
        return std::nullopt;
    }

    section sub(std::string_view k, const key_list& keys) const {
        std::vector<layer> sub_layers;
        for (const auto& l : layers_)
            if (const toml::node* n = l.table->get(k))
                sub_layers.push_back({&check_->table({n, dotted(l.prefix, k)}), dotted(l.prefix, k)});
        return section(*check_, key(k), std::move(sub_layers), keys);
    }

    // Typed look-ups: every layer's value is checked, the highest one is returned.
    std::optional<double> number(std::string_view k, sign_rule rule) const {
        std::optional<double> result;
        for (const auto& e : find_all(k)) {
            const double x = check_->number(e, rule);
            if (!result) result = x;
        }
        return result;
    }
    std::optional<std::string> string(std::string_view k) const {
        std::optional<std::string> result;
        for (const auto& e : find_all(k)) {
            std::string s = check_->string(e);
            if (!result) result = std::move(s);
        }
        return result;
    }
    std::optional<bool> boolean(std::string_view k) const {
        std::optional<bool> result;
        for (const auto& e : find_all(k)) {
            const bool b = check_->boolean(e);
            if (!result) result = b;
        }
        return result;
    }
    std::optional<std::string> one_of(std::string_view k, const std::vector<std::string>& choices) const {
        std::optional<std::string> result;
        for (const auto& e : find_all(k)) {
            std::string s = check_->one_of(e, choices);
            if (!result) result = std::move(s);
        }
        return result;
    }

private:
    const checker* check_;
    std::string name_;
    std::vector<layer> layers_;
    key_list keys_;
};

// ---- the sections -------------------------------------------------------------------------------

const key_list top_level_keys{{}, {"scenario", "physics", "box", "particles", "run", "observables", "cases"}};
const key_list case_keys{{"description"}, {"physics", "box", "particles", "run", "observables"}};
const key_list scenario_keys{{"name", "description"}, {}};
const key_list physics_keys{{"radius", "self_mobility", "viscosity", "tensor"}, {"lubrication", "pair_force"}};
const key_list lubrication_keys{{"enabled", "min_gap", "scheme", "max_iterations"}, {}};
const key_list pair_force_keys{{"kind", "strength", "range", "cutoff"}, {}};
const key_list box_keys{{"boundary", "edges"}, {}};
const key_list particles_keys{{"positions", "force", "forces", "allow_overlap"}, {"lattice"}};
const key_list lattice_keys{{"kind", "cells", "density", "perturbation", "seed"}, {}};
const key_list run_keys{{"dt", "time", "steps", "sample_every", "precision", "backend", "hi_kernel", "integrator",
                         "write_trajectory", "checkpoint_every", "min_separation"},
                        {}};
const key_list observables_keys{{"tetrahedron_symmetry", "pair_gap", "velocity_spread"},
                                {"cycle", "positive_definiteness"}};
const key_list cycle_keys{{"particle", "component", "window", "period_jump_tolerance"}, {}};
const key_list positive_definiteness_keys{{"every"}, {}};

void read_physics(const checker& check, const section& physics, system_parameters& system) {
    if (auto a = physics.number("radius", sign_rule::positive)) system.radius = *a;
    // Validate both spellings wherever written, then take the one of the highest layer.
    physics.number("self_mobility", sign_rule::positive);
    physics.number("viscosity", sign_rule::positive);
    if (auto e = physics.exclusive("self_mobility", "viscosity")) {
        const double x = check.number(*e, sign_rule::positive);
        system.self_mobility = e->key.ends_with("viscosity") ? stokes_self_mobility(x, system.radius) : x;
    }
    if (auto t = physics.one_of("tensor", tensor_names())) system.tensor = *parse_tensor(*t);

    const section lubrication = physics.sub("lubrication", lubrication_keys);
    if (auto on = lubrication.boolean("enabled")) system.lubrication.enabled = *on;
    const auto min_gaps = lubrication.find_all("min_gap");
    for (const auto& e : min_gaps) {
        const double g = check.number(e, sign_rule::any);
        if (!(g > 0.0 && g < 1.0)) check.fail(e, "expected a number with 0 < min_gap < 1 (in units of a)");
    }
    if (!min_gaps.empty()) system.lubrication.min_gap = check.number(min_gaps.front(), sign_rule::any);
    if (auto scheme = lubrication.one_of("scheme", {"explicit", "implicit"}))
        system.lubrication.scheme = parse_lubrication_scheme(*scheme);
    // An upper limit keeps a typo from turning a failing solve into hours of iterations.
    constexpr std::int64_t most_iterations = 1000000;
    for (const auto& e : lubrication.find_all("max_iterations")) check.integer(e, 1, most_iterations);
    if (const auto e = lubrication.find("max_iterations"))
        system.lubrication.max_iterations = static_cast<std::uint32_t>(check.integer(*e, 1, most_iterations));

    const section pair = physics.sub("pair_force", pair_force_keys);
    if (auto k = pair.one_of("kind", {"none", "exponential"}))
        system.pair_force.kind = *k == "exponential" ? pair_force_kind::exponential : pair_force_kind::none;
    if (auto x = pair.number("strength", sign_rule::non_negative)) system.pair_force.strength = *x;
    if (auto x = pair.number("range", sign_rule::positive)) system.pair_force.range = *x;
    if (auto x = pair.number("cutoff", sign_rule::positive)) system.pair_force.cutoff = *x;
}

// ---- positions ----------------------------------------------------------------------------------

std::string box_text(vec3<double> edges) {
    auto interval = [](double edge) {
        std::string text = "[";
        return text.append(number_text(-0.5 * edge)).append(", ").append(number_text(0.5 * edge)).append(")");
    };
    if (edges.x == edges.y && edges.y == edges.z) return interval(edges.x) + "^3";
    return interval(edges.x) + " x " + interval(edges.y) + " x " + interval(edges.z);
}

// Initial positions must lie in [-L/2, L/2] per component; +L/2 is wrapped to -L/2 (the box is
// half-open, and both are the same point of the periodic system).
void check_inside_box(const checker& check, const std::string& positions_key, std::vector<vec3<double>>& positions,
                      vec3<double> edges) {
    for (std::size_t i = 0; i < positions.size(); ++i) {
        vec3<double>& r = positions[i];
        double* coordinates[3] = {&r.x, &r.y, &r.z};
        const double edge[3] = {edges.x, edges.y, edges.z};
        const vec3<double> original = r;
        for (int k = 0; k < 3; ++k) {
            const double half = 0.5 * edge[k];
            double& x = *coordinates[k];
            if (!(x >= -half && x <= half))
                check.fail(positions_key + "[" + std::to_string(i) + "]", "",
                           "particle " + std::to_string(i) + " at " + vector_text(original) +
                               " lies outside the periodic box " + box_text(edges));
            if (x == half) x = -half;
        }
    }
}

void read_particles(const checker& check, const section& particles, const section& box_section, scenario& s) {
    system_parameters& system = s.system;
    const bool periodic = system.box.periodic;
    std::string positions_key = particles.key("positions");

    const auto positions_entry = particles.find("positions");
    const auto lattice_entry = particles.find("lattice");
    if (positions_entry && lattice_entry)
        check.fail(lattice_entry->key, "",
                   "set only one of " + particles.key("positions") + " and [" + particles.key("lattice") + "]");
    if (!positions_entry && !lattice_entry)
        check.fail_missing(particles.key("positions"),
                           "positions = [[x, y, z], ...] or a [" + particles.key("lattice") + "] table");

    const auto edges_entry = box_section.find("edges");
    if (positions_entry) {
        const auto* array = positions_entry->node->as_array();
        if (array == nullptr) check.fail(*positions_entry, "expected an array of positions [[x, y, z], ...]");
        if (array->empty()) check.fail(*positions_entry, "expected at least one position [[x, y, z], ...]");
        s.particles.positions.reserve(array->size());
        for (std::size_t i = 0; i < array->size(); ++i)
            s.particles.positions.push_back(
                check.vector({array->get(i), positions_entry->key + "[" + std::to_string(i) + "]"}));
        positions_key = positions_entry->key;
        if (periodic) {
            if (!edges_entry) check.fail_missing(box_section.key("edges"), "[Lx, Ly, Lz] for a periodic box");
            system.box.edges = check.vector(*edges_entry);
        }
    } else {
        const section lattice = particles.sub("lattice", lattice_keys);
        if (!periodic)
            check.fail(box_section.find("boundary")->key, "\"open\"",
                       "[" + lattice.name() + "] fills a periodic box: expected box.boundary = \"periodic\"");
        if (edges_entry)
            check.fail(*edges_entry, "box.edges must be absent with [" + lattice.name() +
                                         "] (the edges follow from the density: L = (N/density)^(1/3))");
        const auto kind = lattice.find("kind");
        if (!kind) check.fail_missing(lattice.key("kind"), "\"fcc\"");
        check.one_of(*kind, {"fcc"});
        const auto cells_entry = lattice.find("cells");
        if (!cells_entry) check.fail_missing(lattice.key("cells"), "an integer >= 1 (N = 4 cells^3)");
        const std::int64_t cells = check.integer(*cells_entry, 1, max_fcc_cells);
        const auto density_entry = lattice.find("density");
        if (!density_entry) check.fail_missing(lattice.key("density"), "a number > 0 (particles per a^3)");
        const double density = check.number(*density_entry, sign_rule::positive);
        const double perturbation = lattice.number("perturbation", sign_rule::non_negative).value_or(0.0);
        std::int64_t seed = 1;
        if (const auto e = lattice.find("seed")) seed = check.integer(*e, 0);

        // The lattice constant is rounded to 15 significant bits so that every coordinate is exact
        // in float (core/lattice.hpp); the density changes by < 1e-4 relative.
        const double lattice_constant = fcc_lattice_constant(density);
        const double edge = static_cast<double>(cells) * lattice_constant;
        if (!std::isfinite(edge) || !(edge > 0.0))
            check.fail(*density_entry, "expected a density that gives a finite box (L = (N/density)^(1/3))");
        system.box.edges = {edge, edge, edge};
        s.particles.positions = fcc_lattice(static_cast<int>(cells), lattice_constant);
        if (perturbation > 0.0)
            perturb_positions(s.particles.positions, perturbation, static_cast<std::uint64_t>(seed), system.box.edges);
        positions_key = lattice.name();
    }
    const std::size_t n = s.particles.positions.size();

    // Forces.
    const auto force_choice = particles.exclusive("force", "forces");
    if (!force_choice)
        check.fail_missing(particles.key("force"), "force = [Fx, Fy, Fz] (every particle) or forces = [[...], ...]");
    if (force_choice->key.ends_with("forces")) {
        const auto* array = force_choice->node->as_array();
        if (array == nullptr) check.fail(*force_choice, "expected an array of forces [[Fx, Fy, Fz], ...]");
        if (array->size() != n)
            check.fail(*force_choice, "expected one force per particle: " + std::to_string(array->size()) +
                                          " forces for " + std::to_string(n) + " particles");
        for (std::size_t i = 0; i < n; ++i)
            s.particles.external_forces.push_back(
                check.vector({array->get(i), force_choice->key + "[" + std::to_string(i) + "]"}));
    } else {
        s.particles.external_forces.assign(n, check.vector(*force_choice));
    }
    const bool allow_overlap = particles.boolean("allow_overlap").value_or(false);

    if (periodic) {
        // The minimum-image convention with the nearest image only needs every short-range partner
        // closer than half an edge.
        const double reach = system.short_range_cutoff();
        const double shortest = std::min({system.box.edges.x, system.box.edges.y, system.box.edges.z});
        if (reach > 0.0 && !(shortest > 2.0 * reach)) {
            const std::string value = edges_entry ? written(*edges_entry->node) : vector_text(system.box.edges);
            check.fail(edges_entry ? edges_entry->key : box_section.key("edges"), value,
                       "expected every edge > 2 x the short-range cutoff (" + number_text(reach) +
                           " a, lubrication and pair force) for the minimum-image convention");
        }
        check_inside_box(check, positions_key, s.particles.positions, system.box.edges);
    }
    if (!allow_overlap) {
        if (const auto o = find_close_pair(s.particles.positions, system.box, 2.0 * system.radius)) {
            char distance[32];
            std::snprintf(distance, sizeof distance, "%.6g", o->distance / system.radius);
            check.fail(positions_key, "",
                       "particles " + std::to_string(o->i) + " and " + std::to_string(o->j) + " overlap (r = " +
                           distance + " a < 2a); set " + particles.key("allow_overlap") + " = true if intended");
        }
    }
}

// time (or sample_every) = k dt with a whole number of steps k (core/step_count.hpp).
void multiple_of_dt(const checker& check, const entry& e, double value, double dt, const std::string& dt_key) {
    const std::string problem = whole_steps_problem(value, dt, e.key, dt_key);
    if (!problem.empty()) check.fail(e, problem);
}

void read_run(const checker& check, const section& run, run_settings& settings) {
    const auto dt_entry = run.find("dt");
    if (!dt_entry) check.fail_missing(run.key("dt"), "a number > 0 (the time step in tau_s)");
    run.number("dt", sign_rule::positive);
    settings.dt = check.number(*dt_entry, sign_rule::positive);

    run.number("time", sign_rule::positive);
    for (const auto& e : run.find_all("steps")) check.integer(e, 1, std::int64_t(max_step_count));
    const auto length = run.exclusive("time", "steps");
    if (!length) check.fail_missing(run.key("time"), "time = <tau_s> or steps = <integer>, the run length");
    if (length->key.ends_with("steps")) {
        settings.steps = static_cast<std::uint64_t>(check.integer(*length, 1, std::int64_t(max_step_count)));
    } else {
        const double time = check.number(*length, sign_rule::positive);
        multiple_of_dt(check, *length, time, settings.dt, dt_entry->key);
        settings.time = time;
    }

    run.number("sample_every", sign_rule::positive);
    if (const auto e = run.find("sample_every")) {
        settings.sample_every = check.number(*e, sign_rule::positive);
        multiple_of_dt(check, *e, settings.sample_every, settings.dt, dt_entry->key);
    } else {
        // The multiple of dt closest to 1 tau_s (dt itself when dt > 1).
        settings.sample_every = settings.dt * std::max(1.0, std::round(1.0 / settings.dt));
    }

    for (const auto& e : run.find_all("precision")) {
        const std::string text = check.string(e, "a string such as \"hi=ds,int=f32\"");
        try {
            const precision_mode mode = parse_precision_mode(text);
            if (e.key == run.find("precision")->key) settings.precision = mode;
        } catch (const std::invalid_argument& error) {
            check.fail(e, error.what());
        }
    }
    if (auto b = run.one_of("backend", {"cpu", "cuda", "auto"})) settings.backend = *b;
    if (auto k = run.string("hi_kernel")) settings.hi_kernel = *k;
    for (const auto& e : run.find_all("integrator")) {
        const std::string text = check.string(e);
        try {
            const integrator_kind kind = parse_integrator(text);
            if (e.key == run.find("integrator")->key) settings.integrator = kind;
        } catch (const std::invalid_argument& error) {
            check.fail(e, error.what());
        }
    }
    if (auto w = run.boolean("write_trajectory")) settings.write_trajectory = *w;

    run.number("checkpoint_every", sign_rule::positive);
    if (const auto e = run.find("checkpoint_every")) {
        const double every = check.number(*e, sign_rule::positive);
        multiple_of_dt(check, *e, every, settings.dt, dt_entry->key);
        settings.checkpoint_every = every;
    }
    if (auto d = run.number("min_separation", sign_rule::non_negative)) settings.min_separation = *d;
}

void read_observables(const checker& check, const section& observables, const std::string& positions_key,
                      std::size_t particle_count, observable_settings& settings) {
    const section cycle = observables.sub("cycle", cycle_keys);
    if (cycle.present()) {
        const auto particle = cycle.find("particle");
        if (!particle) check.fail_missing(cycle.key("particle"), "a 0-based particle index");
        const std::int64_t index = check.integer(*particle, 0);
        if (static_cast<std::uint64_t>(index) >= particle_count)
            check.fail(*particle, "expected a 0-based particle index < N = " + std::to_string(particle_count));
        const auto component = cycle.find("component");
        if (!component) check.fail_missing(cycle.key("component"), "\"x\", \"y\" or \"z\"");
        const std::string c = check.one_of(*component, {"x", "y", "z"});
        observable_settings::cycle_spec spec;
        spec.particle = static_cast<std::size_t>(index);
        spec.component = c == "x" ? 0 : c == "y" ? 1 : 2;
        if (const auto window = cycle.number("window", sign_rule::positive)) spec.window = *window;
        for (const auto& e : cycle.find_all("period_jump_tolerance")) {
            const double tolerance = check.number(e, sign_rule::any);
            if (!(tolerance > 0.0 && tolerance < 1.0))
                check.fail(e, "expected a number with 0 < period_jump_tolerance < 1 (relative to the period)");
        }
        if (const auto e = cycle.find("period_jump_tolerance"))
            spec.period_jump_tolerance = check.number(*e, sign_rule::any);
        settings.cycle = spec;
    }
    // A boolean that only makes sense for a given number of particles.
    auto switch_for = [&](std::string_view key, std::size_t required_count, bool& setting) {
        for (const auto& e : observables.find_all(key)) {
            const bool on = check.boolean(e);
            if (on && required_count != 0 && particle_count != required_count)
                check.fail(e, std::string(key) + " = true requires exactly " + std::to_string(required_count) +
                                  " particles (" + positions_key + " has " + std::to_string(particle_count) + ")");
            if (e.key == observables.find(key)->key) setting = on;
        }
    };
    switch_for("tetrahedron_symmetry", 4, settings.tetrahedron_symmetry);
    switch_for("pair_gap", 2, settings.pair_gap);
    switch_for("velocity_spread", 0, settings.velocity_spread);

    const section definiteness = observables.sub("positive_definiteness", positive_definiteness_keys);
    if (definiteness.present()) {
        observable_settings::positive_definiteness_spec spec;
        for (const auto& e : definiteness.find_all("every")) check.integer(e, 1);
        if (const auto e = definiteness.find("every")) spec.every = static_cast<std::uint64_t>(check.integer(*e, 1));
        settings.positive_definiteness = spec;
    }
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
    if (case_table != nullptr) section(check, case_prefix, {{case_table, case_prefix}}, case_keys);

    const section head(check, "scenario", layers_of(check, root, nullptr, "", "scenario", false), scenario_keys);
    const auto name = head.find("name");
    if (!name) check.fail_missing("scenario.name", "a non-empty string");
    s.name = check.string(*name, "a non-empty string");
    if (s.name.empty()) check.fail(*name, "expected a non-empty string");
    // The name becomes the default output's file name (stokesian/core/safe_name.hpp).
    if (const std::string why = unsafe_name_reason(s.name); !why.empty())
        check.fail(name->key, quoted_printable(s.name), "not a safe file name: " + why);
    s.description = head.string("description").value_or("");
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
    const section physics(check, "physics", layers("physics"), physics_keys);
    read_physics(check, physics, s.system);

    const section box(check, "box", layers("box"), box_keys);
    const auto boundary = box.find("boundary");
    if (!boundary) check.fail_missing("box.boundary", "\"periodic\" or \"open\"");
    box.one_of("boundary", {"periodic", "open"});
    s.system.box.periodic = check.string(*boundary) == "periodic";
    for (const auto& e : box.find_all("edges")) {
        const vec3<double> edges = check.vector(e);
        if (!(edges.x > 0.0 && edges.y > 0.0 && edges.z > 0.0))
            check.fail(e, "expected an array of 3 numbers > 0 (the box edges in a)");
    }
    if (!s.system.box.periodic)
        if (const auto e = box.find("edges")) check.fail(*e, "box.edges is only allowed with boundary = \"periodic\"");

    // A case's [particles] replaces the top-level one wholesale.
    const section particles(check, "particles", layers("particles", true), particles_keys);
    if (!particles.present()) check.fail_missing("particles.positions", "a [particles] table");
    read_particles(check, particles, box, s);

    const section run(check, "run", layers("run"), run_keys);
    read_run(check, run, s.run);

    const section observables(check, "observables", layers("observables"), observables_keys);
    read_observables(check, observables, particles.key("positions"), s.particles.size(), s.observables);
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
    section(check, "", {{&root, ""}}, top_level_keys);

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

namespace {
// A small TOML emitter for the resolved configuration: sections in the order of the format
// reference, floats in their shortest round-trip form (toml++'s own printer writes 17 digits).
class toml_writer {
public:
    void section(const std::string& name) {
        if (!text_.empty()) text_ += '\n';
        text_ += "[" + name + "]\n";
    }
    void number(const std::string& key, double x) { line(key, float_text(x)); }
    void integer(const std::string& key, std::uint64_t x) { line(key, std::to_string(x)); }
    void boolean(const std::string& key, bool x) { line(key, x ? "true" : "false"); }
    void string(const std::string& key, const std::string& x) {
        std::string quoted;
        write_value(quoted, toml::value<std::string>(x));
        line(key, quoted);
    }
    void vector(const std::string& key, vec3<double> v) { line(key, vector_literal(v)); }
    void vectors(const std::string& key, const std::vector<vec3<double>>& vs) {
        std::string text = "[\n";
        for (const auto& v : vs) text.append("    ").append(vector_literal(v)).append(",\n");
        line(key, text + "]");
    }
    void comment(const std::string& text) { text_ += "# " + text + "\n"; }
    std::string str() const { return text_; }

private:
    static std::string float_text(double x) {
        std::string text;
        write_value(text, toml::value<double>(x));
        return text;
    }
    static std::string vector_literal(vec3<double> v) {
        std::string text = "[";
        return text.append(float_text(v.x))
            .append(", ")
            .append(float_text(v.y))
            .append(", ")
            .append(float_text(v.z))
            .append("]");
    }
    void line(const std::string& key, const std::string& value) {
        text_.append(key).append(" = ").append(value).append("\n");
    }
    std::string text_;
};

// Always FNV-1a 64 (this fingerprint never used the legacy basis, core/digest.hpp): it is part of
// the resolved configurations stored in results, and so of their scenario fingerprints.
std::string positions_fingerprint(const std::vector<vec3<double>>& positions) {
    digest_builder hash(digest_algorithm::fnv1a64);
    for (const auto& r : positions)
        for (double x : {r.x, r.y, r.z}) hash.bytes(&x, sizeof x);
    return hash.hex();
}

// Positions are written out in full up to this many particles; beyond, their count and
// fingerprint identify them (they are stored in the output's initial frame anyway).
constexpr std::size_t max_listed_positions = 100;
}  // namespace

std::string resolved_configuration(const scenario& s) {
    toml_writer w;
    w.comment("Resolved configuration: every value as it ran, defaults included.");
    w.comment("Units: lengths in a, forces in F, time in tau_s = a / (mu0 F).");
    w.section("scenario");
    w.string("name", s.name);
    w.string("description", s.description);
    w.string("case", s.case_name);
    w.string("source", s.source_path.string());

    const system_parameters& p = s.system;
    w.section("physics");
    w.number("radius", p.radius);
    w.number("self_mobility", p.self_mobility);
    w.string("tensor", std::string(to_string(p.tensor)));
    w.section("physics.lubrication");
    w.boolean("enabled", p.lubrication.enabled);
    w.number("min_gap", p.lubrication.min_gap);
    w.string("scheme", std::string(to_string(p.lubrication.scheme)));
    w.integer("max_iterations", p.lubrication.max_iterations);
    w.section("physics.pair_force");
    w.string("kind", p.pair_force.kind == pair_force_kind::exponential ? "exponential" : "none");
    w.number("strength", p.pair_force.strength);
    w.number("range", p.pair_force.range);
    w.number("cutoff", p.pair_force.cutoff);

    w.section("box");
    w.string("boundary", p.box.periodic ? "periodic" : "open");
    if (p.box.periodic) w.vector("edges", p.box.edges);

    w.section("particles");
    w.integer("count", s.particles.size());
    w.string("positions_fnv1a64", positions_fingerprint(s.particles.positions));
    if (s.particles.size() <= max_listed_positions) w.vectors("positions", s.particles.positions);
    const auto& forces = s.particles.external_forces;
    const bool uniform = !forces.empty() && std::all_of(forces.begin(), forces.end(),
                                                        [&](const vec3<double>& f) { return f == forces.front(); });
    if (uniform) w.vector("force", forces.front());
    else if (forces.size() <= max_listed_positions) w.vectors("forces", forces);

    const run_settings& r = s.run;
    w.section("run");
    w.number("dt", r.dt);
    if (r.time) w.number("time", *r.time);
    if (r.steps) w.integer("steps", *r.steps);
    w.integer("total_steps", r.total_steps());
    w.number("sample_every", r.sample_every);
    w.integer("sample_interval_steps", r.sample_interval_steps());
    w.string("precision", to_string(r.precision));
    w.string("backend", r.backend);
    w.string("hi_kernel", r.hi_kernel);
    w.string("integrator", std::string(to_string(r.integrator)));
    w.boolean("write_trajectory", r.write_trajectory);
    if (r.checkpoint_every) w.number("checkpoint_every", *r.checkpoint_every);
    w.number("min_separation", r.min_separation);

    w.section("observables");
    w.boolean("tetrahedron_symmetry", s.observables.tetrahedron_symmetry);
    w.boolean("pair_gap", s.observables.pair_gap);
    w.boolean("velocity_spread", s.observables.velocity_spread);
    if (s.observables.cycle) {
        static constexpr const char* components[3] = {"x", "y", "z"};
        w.section("observables.cycle");
        w.integer("particle", s.observables.cycle->particle);
        w.string("component", components[s.observables.cycle->component]);
        w.number("window", s.observables.cycle->window);
        w.number("period_jump_tolerance", s.observables.cycle->period_jump_tolerance);
    }
    if (s.observables.positive_definiteness) {
        w.section("observables.positive_definiteness");
        w.integer("every", s.observables.positive_definiteness->every);
    }
    return w.str();
}

engine_config make_engine_config(const scenario& s) {
    engine_config config;
    config.system = s.system;
    config.precision = s.run.precision;
    config.integrator = s.run.integrator;
    config.backend = s.run.backend;
    config.hi_kernel = s.run.hi_kernel;
    config.dt = s.run.dt;
    config.threads = 0;
    return config;
}

}  // namespace stokesian
