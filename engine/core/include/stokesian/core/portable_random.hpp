#pragma once
// Random numbers that are the same on every platform and with every compiler: std::mt19937_64,
// whose output sequence the C++ standard specifies ([rand.eng.mers], [rand.predef]: its 10000th
// output from the default seed is 9981545732273789042), mapped to doubles by the rule below, never
// by std::uniform_real_distribution, whose algorithm each standard library chooses for itself.
// The lattice perturbation (core/lattice.hpp) and the random suspension of a scenario
// ([particles.random]) draw through it.
#include <random>

namespace stokesian {

// [0, 1) from one output: its top 53 bits times 2^-53, so every value is a multiple of 2^-53 and
// exactly representable.
inline double unit_interval(std::mt19937_64& generator) { return static_cast<double>(generator() >> 11) * 0x1p-53; }

}  // namespace stokesian
