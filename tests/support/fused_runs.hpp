#pragma once
// What the fused kernels' GPU tests compare: the last frame of a run of `steps` steps on the engine
// the registry makes for `c` (run_engine) or on the fused engine with kernel `k` (run_fused), and
// frames sampled on the device against frames stepped to (expect_samples_equal_steps).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "support/frames.hpp"

namespace stokesian::test_support {

inline frame run_engine(const engine_config& c, const initial_state& s, std::uint64_t steps) {
    auto e = make_engine(c, s);
    e->advance(steps);
    frame f;
    e->read_frame(f);
    return f;
}

inline frame run_fused(const engine_config& c, const initial_state& s, std::uint64_t steps,
                       cuda::fused_kernel_choice k) {
    auto e = cuda::make_fused_engine(c, s, k);
    e->advance(steps);
    frame f;
    e->read_frame(f);
    return f;
}

// The frames `sampled` records in advance_sampled(samples, interval) equal `stepped`'s
// advance(interval) + read_frame() repeated, field by field, and so do the states after them: the
// two engines start from the same state.
inline void expect_samples_equal_steps(engine& sampled, engine& stepped, std::uint64_t samples, std::uint64_t interval,
                                       const std::string& what) {
    std::vector<frame> frames;
    sampled.advance_sampled(samples, interval, frames);
    ASSERT_EQ(frames.size(), samples) << what;
    for (std::uint64_t j = 0; j < samples; ++j) {
        stepped.advance(interval);
        frame f;
        stepped.read_frame(f);
        ASSERT_EQ(frames[j].time, f.time) << what << ", sample " << j;
        expect_bitwise_equal(frames[j], f, what + ", sample " + std::to_string(j));
    }
    frame last_sampled, last_stepped;
    sampled.read_frame(last_sampled);
    stepped.read_frame(last_stepped);
    expect_bitwise_equal(last_sampled, last_stepped, what + ", final state");
}

}  // namespace stokesian::test_support
