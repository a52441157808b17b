#include "initial_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "field_reader.hpp"
#include "particle_sources.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/close_pair.hpp"
#include "stokesian/core/lattice.hpp"
#include "toml_value_text.hpp"

namespace stokesian::settings {

namespace {

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

// Every pair term starts from the squared distance: finite coordinates 3.4e308 apart make it
// infinite and the mobility matrix NaN (dsyevr and Lanczos fail, a run blows up at its first step).
// No pair is farther apart than the diagonal of the positions' bounding box, so a diagonal whose
// square is finite (below sqrt(DBL_MAX) = 1.34e154) keeps every squared distance finite.
void check_pair_distances_finite(const checker& check, const std::string& positions_key,
                                 const std::vector<vec3<double>>& positions) {
    std::size_t lowest[3] = {0, 0, 0}, highest[3] = {0, 0, 0};
    auto coordinate = [&](std::size_t i, int k) {
        return k == 0 ? positions[i].x : k == 1 ? positions[i].y : positions[i].z;
    };
    for (std::size_t i = 1; i < positions.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            if (coordinate(i, k) < coordinate(lowest[k], k)) lowest[k] = i;
            if (coordinate(i, k) > coordinate(highest[k], k)) highest[k] = i;
        }
    double span[3], diagonal_squared = 0.0;
    for (int k = 0; k < 3; ++k) {
        span[k] = coordinate(highest[k], k) - coordinate(lowest[k], k);
        diagonal_squared += span[k] * span[k];
    }
    if (std::isfinite(diagonal_squared)) return;
    const int k = static_cast<int>(std::max_element(span, span + 3) - span);
    const std::size_t i = std::min(lowest[k], highest[k]), j = std::max(lowest[k], highest[k]);
    char detail[160];
    std::snprintf(detail, sizeof detail, "%c = %.6g and %.6g", "xyz"[k], coordinate(i, k), coordinate(j, k));
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.6g", std::sqrt(std::numeric_limits<double>::max()));
    check.fail(positions_key, "",
               "particles " + std::to_string(i) + " and " + std::to_string(j) + " lie too far apart (" + detail +
                   "): their squared distance overflows a double; the positions' bounding box must have a "
                   "diagonal below " +
                   bound + " (the square root of the largest double)");
}

}  // namespace

void check_box_reach(const checker& check, const section& box_section, const std::optional<entry>& edges_entry,
                     const system_parameters& system) {
    if (!system.box.periodic) return;
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
}

void read_particles(const checker& check, const section& particles, const section& box_section, scenario& s) {
    system_parameters& system = s.system;
    const bool periodic = system.box.periodic;
    std::string positions_key = particles.key("positions");

    // The positions come from exactly one source: a key or one of three tables. (Names built by
    // appending: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&&.)
    auto bracketed = [&](std::string_view table) { return std::string("[").append(particles.key(table)).append("]"); };
    const std::string lattice_name = bracketed("lattice");
    const std::string file_name = bracketed("file");
    const std::string random_name = bracketed("random");
    const auto positions_entry = particles.find("positions");
    const auto lattice_entry = particles.find("lattice");
    const auto file_entry = particles.find("file");
    const auto random_entry = particles.find("random");
    const std::pair<const std::optional<entry>*, std::string> sources[] = {
        {&positions_entry, particles.key("positions")},
        {&lattice_entry, lattice_name},
        {&file_entry, file_name},
        {&random_entry, random_name}};
    const std::pair<const std::optional<entry>*, std::string>* first = nullptr;
    for (const auto& source : sources) {
        if (!*source.first) continue;
        if (first != nullptr)
            check.fail((*source.first)->key, "", "set only one of " + first->second + " and " + source.second);
        first = &source;
    }
    if (first == nullptr)
        check.fail_missing(particles.key("positions"), "positions = [[x, y, z], ...] or a " + lattice_name + ", " +
                                                           file_name + " or " + random_name + " table");

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
        check_box_reach(check, box_section, edges_entry, system);
    } else if (lattice_entry) {
        const section lattice = particles.sub("lattice", keys_of(lattice_fields()));
        if (!periodic)
            check.fail(box_section.find("boundary")->key, "\"open\"",
                       "[" + lattice.name() + "] fills a periodic box: expected box.boundary = \"periodic\"");
        if (edges_entry)
            check.fail(*edges_entry, "box.edges must be absent with [" + lattice.name() +
                                         "] (the edges follow from the density: L = (N/density)^(1/3))");
        lattice_settings settings;
        read_fields(field_reader(lattice), lattice_fields(), settings);
        const std::int64_t cells = settings.cells;
        const double density = settings.density;
        const double perturbation = settings.perturbation;
        const std::uint64_t seed = settings.seed;

        // The lattice constant is rounded to 15 significant bits so that every coordinate is exact
        // in float (core/lattice.hpp); the density changes by < 1e-4 relative.
        const double lattice_constant = fcc_lattice_constant(density);
        const double edge = static_cast<double>(cells) * lattice_constant;
        if (!std::isfinite(edge) || !(edge > 0.0))
            check.fail(*lattice.find("density"), "expected a density that gives a finite box (L = (N/density)^(1/3))");
        system.box.edges = {edge, edge, edge};
        check_box_reach(check, box_section, edges_entry, system);
        s.particles.positions = fcc_lattice(static_cast<int>(cells), lattice_constant);
        if (perturbation > 0.0) perturb_positions(s.particles.positions, perturbation, seed, system.box.edges);
        positions_key = lattice.name();
    } else if (file_entry) {
        const section file = particles.sub("file", keys_of(positions_file_fields()));
        positions_file_settings settings;
        read_fields(field_reader(file), positions_file_fields(), settings);
        file_positions read = read_positions_file(check, file, settings);
        if (periodic) {
            if (read.periodic_edges) {
                if (edges_entry)
                    check.fail(*edges_entry, "box.edges must be absent with [" + file.name() +
                                                 "] of a file with a periodic box (the edges are the file's)");
                system.box.edges = *read.periodic_edges;
            } else {
                if (!edges_entry)
                    check.fail_missing(box_section.key("edges"),
                                       "[Lx, Ly, Lz] for a periodic box (the positions file gives none)");
                system.box.edges = check.vector(*edges_entry);
            }
        }
        check_box_reach(check, box_section, edges_entry, system);
        s.particles.positions = std::move(read.positions);
        s.positions_file = settings;
        positions_key = file.name();
    } else {
        const section random = particles.sub("random", keys_of(random_suspension_fields()));
        read_random_suspension(check, random, box_section, edges_entry, s);
        positions_key = random.name();
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

    if (periodic) check_inside_box(check, positions_key, s.particles.positions, system.box.edges);
    check_pair_distances_finite(check, positions_key, s.particles.positions);
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

}  // namespace stokesian::settings
