// The host-side state the engines share (stokesian/core/host_state.hpp): initial rounding and
// wrapping, frames, and checkpoint words that restore bit for bit.
#include <gtest/gtest.h>

#include <stdexcept>

#include "stokesian/core/host_state.hpp"

using namespace stokesian;

namespace {
using ds_f32 = precision_policy<precision::ds, precision::f32>;  // float_float velocities, float positions
}

// 5 - 1e-9 rounds to the float 5 = +L/2, outside [-L/2, L/2): wrapped once more to -5, image +1.
TEST(HostState, InitialPositionsAreRoundedToStorageThenWrappedOnceMore) {
    box_settings box;
    box.periodic = true;
    box.edges = {10.0, 10.0, 10.0};
    initial_state s;
    s.positions = {{5.0 - 1e-9, 0.1, -4.0}, {1.0, 2.0, 3.0}};
    s.external_forces = {{0, 0, -1}, {0, 0, -1}};
    host_state<ds_f32> h;
    h.load_initial(s, storage_box<float>(box));
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h.position[0].x, -5.0f);
    EXPECT_EQ(h.image[0], (vec3<int>{1, 0, 0}));
    EXPECT_EQ(h.position[0].y, 0.1f);
    EXPECT_EQ(h.image[1], (vec3<int>{0, 0, 0}));
    EXPECT_EQ(h.velocity[1].x.hi, 0.0f);

    box.periodic = false;  // an open box never wraps
    h.load_initial(s, storage_box<float>(box));
    EXPECT_EQ(h.position[0].x, 5.0f);
    EXPECT_EQ(h.image[0], (vec3<int>{0, 0, 0}));

    std::vector<vec3<float>> forces(2);
    round_forces(s.external_forces, 2, forces.data());
    EXPECT_EQ(forces[1].z, -1.0f);
}

TEST(HostState, CheckpointWordsRestoreBitForBitAndFramesWidenExactly) {
    host_state<ds_f32> h;
    h.step = 42;
    h.position = {{0.1f, -0.2f, 0.3f}};
    h.image = {{1, -2, 3}};
    h.velocity = {{float_float{1.0f, 1e-9f}, float_float{-2.0f, 0.0f}, float_float{0.5f, -3e-10f}}};
    h.force = {{0.25f, 0.5f, -1.0f}};
    h.history = h.velocity;
    h.has_history = true;
    engine_state words;
    h.save(words);
    EXPECT_EQ(words.precision, ds_f32::mode);
    EXPECT_EQ(words.velocity_lo[0].x, double(1e-9f));

    host_state<ds_f32> back;
    back.restore(words, 1);
    EXPECT_EQ(back.step, 42u);
    EXPECT_EQ(back.position, h.position);
    EXPECT_EQ(back.image, h.image);
    EXPECT_EQ(back.velocity[0].x.lo, 1e-9f);
    EXPECT_EQ(back.velocity[0].z.lo, -3e-10f);
    EXPECT_TRUE(back.has_history);
    EXPECT_EQ(back.force, h.force);
    EXPECT_THROW(back.restore(words, 2), std::invalid_argument);  // a state of another size

    frame f;
    back.read_frame(f, 0.01);
    EXPECT_EQ(f.step, 42u);
    EXPECT_EQ(f.time, 42 * 0.01);
    EXPECT_EQ(f.position[0].y, double(-0.2f));
    EXPECT_EQ(f.velocity[0].x, 1.0 + double(1e-9f));
    EXPECT_EQ(f.image[0], (vec3<int>{1, -2, 3}));
}
