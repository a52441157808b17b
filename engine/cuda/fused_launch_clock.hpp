#pragma once
// A fused launch's steps and when it samples (fused_kernels.cuh, fused_thread_kernel.cuh,
// fused_grid_kernel.cuh), in 32 bits: a launch runs at most 2^18 steps (fused_engine.cu), and
// 64-bit counters took registers that the grid kernel's f32 form spilled and reloaded every step.
// Host and device code without CUDA, so that a CPU test checks it against the counting it replaces
// (tests/cuda/fused_launch_clock_test.cpp).
#include <cstdint>

#include "stokesian/config.hpp"

namespace stokesian::cuda {

struct fused_launch_clock {
    unsigned steps;      // of this launch
    unsigned to_sample;  // steps left to the next sample
    unsigned every;      // steps between samples
};

// Samples every `interval` steps (0: none), `phase` < interval of them passed before this launch:
// the first comes interval - phase steps in, then one every interval steps. A countdown longer than
// the launch never ends in it.
STOKESIAN_HD_INLINE fused_launch_clock make_launch_clock(std::uint64_t interval, std::uint64_t phase,
                                                         std::uint64_t steps) {
    constexpr unsigned never = 0xffffffffu;
    const unsigned launch = static_cast<unsigned>(steps);
    if (interval == 0) return {launch, never, never};
    const std::uint64_t first = interval - phase;
    return {launch, first > launch ? never : static_cast<unsigned>(first),
            interval > launch ? never : static_cast<unsigned>(interval)};
}

// Called once after each step: whether this step records a sample.
STOKESIAN_HD_INLINE bool sample_due(fused_launch_clock& c) {
    if (--c.to_sample != 0) return false;
    c.to_sample = c.every;
    return true;
}

}  // namespace stokesian::cuda
