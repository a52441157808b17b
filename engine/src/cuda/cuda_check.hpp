#pragma once
// CUDA errors become one-line exceptions: "CUDA error in <what>: <cudaGetErrorString> (<name>)".
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace stokesian::cuda {

class cuda_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The device has too little free memory for what the run asks (a system too large for it): the
// run driver reports it as bad input (exit code 2), with the amount needed and free.
class device_out_of_memory : public cuda_error {
public:
    using cuda_error::cuda_error;
};

inline void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        throw cuda_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status) + " (" +
                         cudaGetErrorName(status) + ")");
}

// After a kernel launch: launch errors at once, execution errors at the next synchronisation.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace stokesian::cuda
