#pragma once
// Random sphere systems of the engine tests (tests/cuda/fused_batched_gpu_test.cpp, fused_thread_gpu_test.cpp,
// tests/core/batch_test.cpp, cpu_engine_test.cpp, step_interruption_test.cpp).
#include <cstddef>
#include <random>
#include <vector>

#include "stokesian/core/batch.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/physics/box.hpp"

namespace stokesian::test_support {

// n spheres at least `min_distance` apart (minimum image in the periodic cube of this edge), in
// [-edge/2, edge/2)^3, forces mostly -z with random horizontal parts.
inline initial_state random_spheres(std::size_t n, double edge, double min_distance, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2);
    const box_geometry<double> box{true, {edge, edge, edge}};
    initial_state s;
    while (s.positions.size() < n) {
        const vec3<double> r{u(rng), u(rng), u(rng)};
        bool ok = true;
        for (const auto& q : s.positions) {
            const vec3<double> d = minimum_image(r - q, box);
            if (dot(d, d) < min_distance * min_distance) ok = false;
        }
        if (ok) {
            s.positions.push_back(r);
            s.external_forces.push_back({0.1 * u(rng) / edge, 0.2 * u(rng) / edge, -1.0});
        }
    }
    return s;
}

// `count` copies of `base`, each particle displaced by up to `amplitude` per component (member 0
// unperturbed), time steps alternating between dt[0] and dt[1].
inline std::vector<batch_member> perturbed_copies(const initial_state& base, std::size_t count, double amplitude,
                                                  const double (&dt)[2], unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-amplitude, amplitude);
    std::vector<batch_member> members(count);
    for (std::size_t k = 0; k < count; ++k) {
        members[k].state = base;
        if (k > 0)
            for (auto& r : members[k].state.positions) r = r + vec3<double>{u(rng), u(rng), u(rng)};
        members[k].dt = dt[k % 2];
    }
    return members;
}

}  // namespace stokesian::test_support
