#pragma once
// The Ewald sum's parameters (tensor "rpy-ewald", physics/tensors/rpy_ewald.hpp) from the scenario:
// the splitting parameter xi (physics.ewald.xi, else 3 / V^(1/3): a real-space term, with its erfc,
// costs ~10 wave-space terms, and of xi = (1, 1.5, 2, 2.5, 3) sqrt(pi) / V^(1/3) the middle ones
// were the fastest, engine/docs/ewald.md), and the truncations r_c and k_c chosen so that each estimated
// tail is at most tolerance/2 (in units of mu0, for every entry of every block), and the self block.
// Computed once, in double, on the host; engine/docs/ewald.md derives the estimates.
#include <cstddef>

#include "stokesian/physics/ewald_parameters.hpp"

namespace stokesian {

struct system_parameters;

// The accepted range of physics.ewald.tolerance: below 1e-12 the rounding of the double evaluation
// (the erfc series, the sums of ~100 terms) is of the size of the truncation.
inline constexpr double ewald_min_tolerance = 1e-12;
inline constexpr double ewald_max_tolerance = 1e-2;

// 3 / V^(1/3).
double default_ewald_xi(const system_parameters& s);

// The estimated truncation errors (units of mu0) of the real-space sum beyond r_c and of the wave
// sum beyond k_c: continuum estimates of the lattice sums of the terms' magnitudes (ewald.md).
double ewald_real_space_tail(double radius, double xi, double volume, double real_cutoff);
double ewald_wave_space_tail(double radius, double xi, double wave_cutoff);

// Throws std::invalid_argument (one line) for a box that is not periodic, a tolerance out of range,
// xi <= 0, or truncations that need more than ewald_max_images / ewald_max_waves per axis.
ewald_parameters<double> make_ewald_parameters(const system_parameters& s);

// Real-space images and wave vectors (half space) one pair visits, for cost reports.
struct ewald_counts {
    std::size_t images = 0, waves = 0;
};
ewald_counts count_ewald_terms(const ewald_parameters<double>& p);

}  // namespace stokesian
