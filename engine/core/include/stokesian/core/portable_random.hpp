#pragma once
// Random numbers that are the same on every platform and with every compiler: std::mt19937_64,
// whose output sequence the C++ standard specifies ([rand.eng.mers], [rand.predef]: its 10000th
// output from the default seed is 9981545732273789042), mapped to doubles by the rule below, never
// by std::uniform_real_distribution, whose algorithm each standard library chooses for itself.
// The lattice perturbation (core/lattice.hpp) and the random suspension of a scenario
// ([particles.random]) draw through it. splitmix64, host and device, where one output per index
// is wanted without a generator's state (Lanczos' start vector, test inputs generated on a GPU).
#include <cstdint>
#include <random>

#include "stokesian/config.hpp"

namespace stokesian {

// [0, 1) from one output: its top 53 bits times 2^-53, so every value is a multiple of 2^-53 and
// exactly representable.
inline double unit_interval(std::mt19937_64& generator) { return static_cast<double>(generator() >> 11) * 0x1p-53; }

// splitmix64 (Steele, Lea and Flood 2014): advances `state` by one step and returns that step's
// output. The k-th output (k = 0, 1, ...) from a seed s is splitmix64 of the state
// s + k * splitmix64_step.
inline constexpr std::uint64_t splitmix64_step = 0x9E3779B97F4A7C15ull;
STOKESIAN_HD_INLINE std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += splitmix64_step);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace stokesian
