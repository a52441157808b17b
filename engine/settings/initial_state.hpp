#pragma once
// The initial particles of a scenario: explicit positions, a generated lattice, a positions file or
// a random suspension (particle_sources.hpp), the external forces, and the checks at t = 0 (inside
// the periodic box, no overlap).
#include "stokesian/core/scenario.hpp"
#include "toml_checker.hpp"

namespace stokesian::settings {

// Fills s.particles (and the box edges of a lattice) from the [particles] section; `box` is the
// [box] section, whose boundary is already in s.system.box.
void read_particles(const checker& check, const section& particles, const section& box, scenario& s);

}  // namespace stokesian::settings
