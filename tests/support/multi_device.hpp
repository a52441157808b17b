#pragma once
// The multi-device gpu tests' helpers (tests/cuda/multi_device_*_test.cpp): which device sets to
// run on, a run of an engine on some devices, and bitwise comparison of what two runs left.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "support/ctest_gpu_groups.hpp"

// Fails where CTest's resource allocation withheld the host's second GPU from a test that needs two
// (support/ctest_gpu_groups.hpp, gpus_withheld): a skip there would hide the test on every host.
#define FAIL_IF_GPUS_WITHHELD(needed)                                                            \
    if (const std::string withheld =                                                             \
            ::stokesian::test_support::gpus_withheld(needed, ::stokesian::cuda::device_count()); \
        !withheld.empty())                                                                       \
    GTEST_FAIL() << withheld

// Skips, with the reason, where one engine cannot run on two devices here.
#define REQUIRE_TWO_DEVICES()                                                              \
    FAIL_IF_GPUS_WITHHELD(2);                                                              \
    if (::stokesian::cuda::device_count() < 2)                                             \
        GTEST_SKIP() << "fewer than 2 CUDA devices (" << ::stokesian::cuda::device_count() \
                     << "): multi-device test skipped";                                    \
    if (!::stokesian::cuda::multi_device_build())                                          \
    GTEST_SKIP() << "this build has no NCCL (nccl.h was not found): multi-device test skipped"

namespace stokesian::test_support {

// {0, 1}, and every visible device when there are more than two.
inline std::vector<std::vector<int>> multi_device_sets() {
    std::vector<std::vector<int>> sets{{0, 1}};
    const int count = cuda::device_count();
    if (count > 2) {
        std::vector<int> all(static_cast<std::size_t>(count));
        for (int d = 0; d < count; ++d) all[static_cast<std::size_t>(d)] = d;
        sets.push_back(all);
    }
    return sets;
}

inline std::string device_list_text(const std::vector<int>& ordinals) {
    std::string text;
    for (std::size_t k = 0; k < ordinals.size(); ++k) text += (k ? "," : "") + std::to_string(ordinals[k]);
    return text;
}

// What a run left: its last frame and checkpoint state, and the lubrication solver's message if
// it stopped the run (both runs must then stop alike).
struct run_end {
    frame f;
    engine_state state;
    std::string stop;
    std::uint64_t step = 0;
};

inline run_end run_on(const engine_config& c, const initial_state& s, std::uint64_t steps,
                      const std::vector<int>& ordinals) {
    device_context device;
    device.ordinals = ordinals;
    auto e = backends::make_engine(c, device, s);
    run_end end;
    try {
        e->advance(steps);
    } catch (const lubrication_solver_error& x) {
        end.stop = x.what();
    }
    e->read_frame(end.f);
    e->save_state(end.state);
    end.step = e->step();
    return end;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Every stored word of the state and every value of the frame, bit for bit (NaN payloads too).
inline void expect_same_end(const run_end& one, const run_end& many, const std::string& what) {
    EXPECT_EQ(one.step, many.step) << what;
    EXPECT_EQ(one.stop, many.stop) << what;
    EXPECT_TRUE(same_bytes(one.f.position, many.f.position)) << what << ": frame positions";
    EXPECT_TRUE(same_bytes(one.f.image, many.f.image)) << what << ": frame images";
    EXPECT_TRUE(same_bytes(one.f.velocity, many.f.velocity)) << what << ": frame velocities";
    EXPECT_TRUE(same_bytes(one.f.force, many.f.force)) << what << ": frame forces";
    EXPECT_EQ(one.f.lubrication.iterations, many.f.lubrication.iterations) << what;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(one.f.lubrication.relative_residual),
              std::bit_cast<std::uint64_t>(many.f.lubrication.relative_residual))
        << what;
    const engine_state &a = one.state, &b = many.state;
    EXPECT_TRUE(same_bytes(a.position_hi, b.position_hi) && same_bytes(a.position_lo, b.position_lo)) << what;
    EXPECT_TRUE(same_bytes(a.velocity_hi, b.velocity_hi) && same_bytes(a.velocity_lo, b.velocity_lo)) << what;
    EXPECT_TRUE(same_bytes(a.force, b.force) && same_bytes(a.image, b.image)) << what;
    EXPECT_TRUE(same_bytes(a.history_hi, b.history_hi) && same_bytes(a.history_lo, b.history_lo)) << what;
}

}  // namespace stokesian::test_support
