#pragma once
// Rows of a device buffer into a host array in one strided copy (cudaMemcpy2D): the fused engine on
// several devices gathers each device's slice of every sample this way (fused_parts.cuh). Host-only.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"

namespace stokesian::cuda {

// Rows k < rows of `count` elements from first + k * stride of `from` (stride >= count), each into
// `host` at the same place (host holds the last one already). Throws std::out_of_range, before any
// copy, for rows beyond either side.
template <class T>
void download_rows(const device_buffer<T>& from, std::vector<T>& host, std::size_t first, std::size_t count,
                   std::size_t rows, std::size_t stride) {
    if (rows == 0 || count == 0) return;
    const std::size_t end = first + (rows - 1) * stride + count;
    if (stride < count || end > from.size() || end > host.size())
        throw std::out_of_range("download_rows: " + std::to_string(rows) + " rows of " + std::to_string(count) +
                                " every " + std::to_string(stride) + " from " + std::to_string(first) + " (device " +
                                std::to_string(from.size()) + ", host " + std::to_string(host.size()) + ")");
    check(cudaStreamSynchronize(cudaStreamPerThread), "download_rows");
    check(cudaMemcpy2D(host.data() + first, stride * sizeof(T), from.data() + first, stride * sizeof(T),
                       count * sizeof(T), rows, cudaMemcpyDeviceToHost),
          "download_rows");
}

}  // namespace stokesian::cuda
