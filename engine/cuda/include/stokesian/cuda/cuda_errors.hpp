#pragma once
// The CUDA backend's exceptions, in plain C++ so that host code (the backend registry) can catch
// them without <cuda_runtime.h>; cuda_check.hpp turns CUDA status codes into them.
#include <stdexcept>

namespace stokesian::cuda {

class cuda_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A CUDA or NCCL call reported an error (cuda_check.hpp): the device, not the input, failed. Inside
// a step the engines turn it into stokesian::device_error naming the device (device_failure.hpp).
class cuda_call_error : public cuda_error {
public:
    using cuda_error::cuda_error;
};

// The device has too little free memory for what the run asks (a system too large for it): the
// run driver reports it as bad input (exit code 2), with the amount needed and free.
class device_out_of_memory : public cuda_error {
public:
    using cuda_error::cuda_error;
};

}  // namespace stokesian::cuda
