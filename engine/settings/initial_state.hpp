#pragma once
// The initial particles of a scenario: explicit positions or a generated lattice, the external
// forces, and the checks at t = 0 (inside the periodic box, no overlap).
#include "toml_checker.hpp"
#include "stokesian/core/scenario.hpp"

namespace stokesian::settings {

// Fills s.particles (and the box edges of a lattice) from the [particles] section; `box` is the
// [box] section, whose boundary is already in s.system.box.
void read_particles(const checker& check, const section& particles, const section& box, scenario& s);

}  // namespace stokesian::settings
