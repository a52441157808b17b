#pragma once
// The last frame of a run of `steps` steps, on the engine the registry makes for `c` (run_engine) or
// on the fused engine with kernel `k` (run_fused): the fused kernels' GPU tests compare the two.
#include <cstdint>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/cuda/fused_backend.hpp"

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

}  // namespace stokesian::test_support
