#pragma once
// Where an engine runs: the device ordinals it may use and the stream it launches on. Plain C++:
// the stream is an opaque handle (a cudaStream_t in the CUDA backend), so host code never includes
// <cuda_runtime.h> (engine/README.md, "Backends"). The CPU backend ignores both.
#include <vector>

namespace stokesian {

struct device_context {
    // Device ordinals (cudaSetDevice numbers). One today; the multi-GPU issue (#16) fills a list.
    std::vector<int> ordinals{0};
    // The stream to launch on; null: the calling thread's default stream (the build's
    // --default-stream=per-thread makes that one stream per host thread).
    void* stream = nullptr;

    int primary_ordinal() const { return ordinals.empty() ? 0 : ordinals.front(); }
};

}  // namespace stokesian
