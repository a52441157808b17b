#pragma once
// Device times of `repeats` launches, each between two CUDA events on the current stream, in ms
// (the benchmarks' one timing loop; the caller warms up and reduces).
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.hpp"

namespace stokesian::bench {

template <class Launch>
std::vector<double> event_times_ms(int repeats, Launch&& launch) {
    cudaEvent_t start, stop;
    cuda::check(cudaEventCreate(&start), "cudaEventCreate");
    cuda::check(cudaEventCreate(&stop), "cudaEventCreate");
    std::vector<double> ms;
    for (int k = 0; k < repeats; ++k) {
        cuda::check(cudaEventRecord(start), "cudaEventRecord");
        launch();
        cuda::check(cudaEventRecord(stop), "cudaEventRecord");
        cuda::check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float t = 0.0f;
        cuda::check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
        ms.push_back(t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}

}  // namespace stokesian::bench
