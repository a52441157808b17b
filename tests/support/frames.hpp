#pragma once
// Frames of engines: an engine's frame after some steps, and two frames bit for bit -- what "the
// same run" means in every test that compares engines, kernels, batches or devices (step, time and
// every component of every particle's position, image, velocity and force; signed zeros and NaN
// payloads included).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian::test_support {

// The frame of an engine made from `config` and `state` after `steps` steps.
inline frame frame_after(const engine_config& config, const initial_state& state, std::uint64_t steps) {
    auto e = make_engine(config, state);
    if (steps > 0) e->advance(steps);
    frame f;
    e->read_frame(f);
    return f;
}

inline bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
inline bool same_bits(vec3<double> a, vec3<double> b) {
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

inline void expect_bitwise_equal(const frame& a, const frame& b, const std::string& what) {
    ASSERT_EQ(a.step, b.step) << what;
    ASSERT_TRUE(same_bits(a.time, b.time)) << what << ": time " << a.time << " vs " << b.time;
    ASSERT_EQ(a.position.size(), b.position.size()) << what;
    for (std::size_t i = 0; i < a.position.size(); ++i) {
        ASSERT_TRUE(same_bits(a.position[i], b.position[i])) << what << ": position of particle " << i;
        ASSERT_EQ(a.image[i], b.image[i]) << what << ": image of particle " << i;
        ASSERT_TRUE(same_bits(a.velocity[i], b.velocity[i])) << what << ": velocity of particle " << i;
        ASSERT_TRUE(same_bits(a.force[i], b.force[i])) << what << ": force of particle " << i;
    }
}

}  // namespace stokesian::test_support
