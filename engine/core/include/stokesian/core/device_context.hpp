#pragma once
// Where an engine runs: the device ordinals it may use and the stream it launches on. Plain C++:
// the stream is an opaque handle (a cudaStream_t in the CUDA backend), so host code never includes
// <cuda_runtime.h> (engine/README.md, "Backends"). The CPU backend ignores both; it splits its
// targets over `ranks` (core/communicator.hpp), as a backend with `capabilities::ranks` may.
#include <vector>

namespace stokesian {

class communicator;

struct device_context {
    // Device ordinals (cudaSetDevice numbers), the first the primary: run.devices / --devices
    // (core/device_selection.hpp), one device (0) when not given.
    std::vector<int> ordinals{0};
    // The stream to launch on; null: the calling thread's default stream (the build's
    // --default-stream=per-thread makes that one stream per host thread).
    void* stream = nullptr;
    // The MPI ranks that run this engine together, each computing its slice of the targets
    // (core/target_slices.hpp); null or one rank: this process alone. Not owned.
    communicator* ranks = nullptr;

    int primary_ordinal() const { return ordinals.empty() ? 0 : ordinals.front(); }
};

}  // namespace stokesian
