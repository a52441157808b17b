// The resolved configuration (stokesian/core/scenario.hpp): every value as it ran, written through
// the field tables (scenario_tables.hpp) in the order of the format reference.
#include <algorithm>

#include "field_writer.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/digest.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/resolved_physics.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

using namespace settings;

namespace {

// FNV-1a 64 (core/digest.hpp): it is part of the resolved configurations stored in results, and
// so of their scenario fingerprints.
std::string positions_fingerprint(const std::vector<vec3<double>>& positions) {
    digest_builder hash;
    for (const auto& r : positions)
        for (double x : {r.x, r.y, r.z}) hash.bytes(&x, sizeof x);
    return hash.hex();
}

// Positions are written out in full up to this many particles; beyond, their count and
// fingerprint identify them, with the settings that generate them (a lattice's, a random
// suspension's, in the source text and [particles.random]); they are stored in the output's initial
// frame too. A positions file's are always listed: the file is not part of the output, and a run
// must be reproducible from its output alone (at most most_file_particles of them).
constexpr std::size_t max_listed_positions = 100;

void write_particles(toml_writer& w, const scenario& s) {
    const initial_state& particles = s.particles;
    w.section("particles");
    w.integer("count", particles.size());
    w.string("positions_fnv1a64", positions_fingerprint(particles.positions));
    if (particles.size() <= max_listed_positions || s.positions_file) w.vectors("positions", particles.positions);
    const auto& forces = particles.external_forces;
    const bool uniform = !forces.empty() && std::all_of(forces.begin(), forces.end(),
                                                        [&](const vec3<double>& f) { return f == forces.front(); });
    if (uniform) w.vector("force", forces.front());
    else if (forces.size() <= max_listed_positions) w.vectors("forces", forces);
    // The settings of the source the positions came from; the other sources have none.
    if (s.positions_file) {
        w.section("particles.file");
        write_fields(w, positions_file_fields(), *s.positions_file);
    }
    if (s.random_suspension) {
        w.section("particles.random");
        write_fields(w, random_suspension_fields(), *s.random_suspension);
    }
}

// [physics], its subtables and [box]: resolved_configuration's sections, and resolved_physics.
void write_physics(toml_writer& w, const system_parameters& system) {
    w.section("physics");
    write_fields(w, physics_fields(), system);
    w.section("physics.lubrication");
    write_fields(w, lubrication_fields(), system.lubrication);
    w.section("physics.pair_force");
    write_fields(w, pair_force_fields(), system.pair_force);
    // The Ewald sum's settings belong to its tensor alone (the reader refuses them with another).
    if (system.tensor == hydrodynamic_tensor::rpy_ewald) {
        w.section("physics.ewald");
        write_fields(w, ewald_fields(), system.ewald);
    }

    w.section("box");
    write_fields(w, box_fields(), system.box);
}

}  // namespace

std::string settings::resolved_physics(const system_parameters& system) {
    toml_writer w;
    write_physics(w, system);
    return w.str();
}

std::string resolved_configuration(const scenario& s) {
    toml_writer w;
    w.comment("Resolved configuration: every value as it ran, defaults included.");
    w.comment("Units: lengths in a, forces in F, time in tau_s = a / (mu0 F).");
    w.section("scenario");
    write_fields(w, scenario_fields(), s);
    w.string("case", s.case_name);
    w.string("source", s.source_path.string());

    write_physics(w, s.system);

    write_particles(w, s);

    w.section("run");
    write_fields(w, run_fields(), s.run);

    w.section("observables");
    write_fields(w, observables_fields(), s.observables);
    if (s.observables.cycle) {
        w.section("observables.cycle");
        write_fields(w, cycle_fields(), *s.observables.cycle);
    }
    if (s.observables.positive_definiteness) {
        w.section("observables.positive_definiteness");
        write_fields(w, positive_definiteness_fields(), *s.observables.positive_definiteness);
    }
    w.section("output");
    write_fields(w, output_fields(), s.output);
    return w.str();
}

}  // namespace stokesian
