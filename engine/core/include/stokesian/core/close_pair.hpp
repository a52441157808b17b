#pragma once
// The first pair of particles closer than a given distance.
#include <cstddef>
#include <optional>
#include <vector>

#include "stokesian/core/system.hpp"

namespace stokesian {

struct close_pair {
    std::size_t i, j;  // i < j
    double distance;   // |r_i - r_j|, minimum image when periodic
};

// The pair with |r_i - r_j| < contact (minimum image when periodic) with the smallest (i, j), or
// none. A cell list with cells of at least `contact` keeps this O(N) for lattices and suspensions
// (fcc with 256 000 particles takes a fraction of a second). Positions must be finite.
std::optional<close_pair> find_close_pair(const std::vector<vec3<double>>& positions, const box_settings& box,
                                          double contact);

}  // namespace stokesian
