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

// The accepted range of the splitting parameter xi (in 1/a). The cutoff searches walk [0, 12/xi] in
// steps of 0.005/xi and [0, 24 xi] in steps of 0.01 xi (ewald_setup.cpp): both ends and both steps
// must be finite doubles above 0, which fails below 12/DBL_MAX = 6.7e-308 (12/xi overflows; a
// subnormal xi's step rounds to 0) and above DBL_MAX/24 = 7.5e306, where the walk would not end.
// Within these bounds it takes 2400 steps each, and whether the sums' tables hold the cutoffs it
// finds is decided by ewald_max_images and ewald_max_waves (which refuse, e.g., 1e-305 and 1e306
// for a box of 10 a).
inline constexpr double ewald_min_xi = 1e-307;
inline constexpr double ewald_max_xi = 1e306;

// 3 / V^(1/3).
double default_ewald_xi(const system_parameters& s);

// The estimated truncation errors (units of mu0) of the real-space sum beyond r_c and of the wave
// sum beyond k_c: continuum estimates of the lattice sums of the terms' magnitudes (ewald.md).
double ewald_real_space_tail(double radius, double xi, double volume, double real_cutoff);
double ewald_wave_space_tail(double radius, double xi, double wave_cutoff);

// Throws std::invalid_argument (one line) for a box that is not periodic, a tolerance out of range,
// xi outside [ewald_min_xi, ewald_max_xi], or truncations that need more than ewald_max_images /
// ewald_max_waves per axis.
ewald_parameters<double> make_ewald_parameters(const system_parameters& s);

// Real-space images and wave vectors (half space) one pair visits, for cost reports.
struct ewald_counts {
    std::size_t images = 0, waves = 0;
};
ewald_counts count_ewald_terms(const ewald_parameters<double>& p);

}  // namespace stokesian
