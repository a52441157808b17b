#pragma once
// A seeded random aggregate of spheres in an open box, for the implicit lubrication tests: many
// lubricated pairs at gaps between gap_min and gap_max, an irregular shape, and a condition
// number of the solve far above that of the regular test cluster. Reproducible on every platform:
// std::mt19937_64's output is fixed by the standard, and the mapping to [0, 1) is written here
// (std::uniform_real_distribution's is not specified).
#include <cmath>
#include <cstdint>
#include <random>

#include "stokesian/core/engine.hpp"

namespace stokesian::testing_support {

// Sphere 0 at the origin; each further sphere is put at a random direction from a randomly chosen
// earlier one, at a surface gap drawn uniformly from [gap_min, gap_max] (radius 1), and kept if it
// stays at a gap >= gap_min from every other sphere. Every sphere carries `force`.
inline initial_state random_aggregate(std::size_t n, std::uint64_t seed, double gap_min, double gap_max,
                                      vec3<double> force) {
    std::mt19937_64 rng(seed);
    const auto uniform = [&] { return double(rng() >> 11) * 0x1p-53; };
    initial_state s;
    s.positions.push_back({0.0, 0.0, 0.0});
    while (s.positions.size() < n) {
        const vec3<double> anchor = s.positions[std::size_t(uniform() * double(s.positions.size()))];
        vec3<double> d;
        double length2;
        do {
            d = {2.0 * uniform() - 1.0, 2.0 * uniform() - 1.0, 2.0 * uniform() - 1.0};
            length2 = dot(d, d);
        } while (length2 > 1.0 || length2 < 1e-4);
        const double distance = 2.0 + gap_min + (gap_max - gap_min) * uniform();
        const vec3<double> candidate = anchor + (distance / std::sqrt(length2)) * d;
        bool free = true;
        for (const vec3<double>& p : s.positions) {
            const vec3<double> r = candidate - p;
            if (dot(r, r) < (2.0 + gap_min) * (2.0 + gap_min) * (1.0 - 1e-12)) free = false;
        }
        if (free) s.positions.push_back(candidate);
    }
    s.external_forces.assign(n, force);
    return s;
}

}  // namespace stokesian::testing_support
