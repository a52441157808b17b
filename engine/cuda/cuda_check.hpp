#pragma once
// CUDA errors become one-line exceptions: "CUDA error in <what>: <cudaGetErrorString> (<name>)".
#include <cuda_runtime.h>

#include <string>

#include "stokesian/cuda/cuda_errors.hpp"

namespace stokesian::cuda {

inline void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        throw cuda_call_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status) + " (" +
                              cudaGetErrorName(status) + ")");
}

// After a kernel launch: launch errors at once, execution errors at the next synchronisation.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

// Makes device `ordinal` (device_context) this host thread's current device: every engine entry
// point calls it before allocating or launching, so an engine never assumes device 0.
inline void use_device(int ordinal) { check(cudaSetDevice(ordinal), "cudaSetDevice"); }

}  // namespace stokesian::cuda
