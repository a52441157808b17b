// The appendix's minimal memory-access kernels (Algorithms 3 and 4) and their timing. The only
// arithmetic is the sum of the elements read ("a trivial computation"), written to global memory
// so that the compiler cannot drop the reads; the host checks the sums.
#include "event_times.cuh"
#include "stokesian/cuda/memory_benchmark.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_types.cuh"

namespace stokesian::cuda {

memory_kernel parse_memory_kernel(const std::string& name) {
    if (name == "naive") return memory_kernel::naive;
    if (name == "tiling") return memory_kernel::tiling;
    if (name == "small-tiling") return memory_kernel::small_tiling;
    throw std::invalid_argument("unknown memory kernel '" + name + "' (expected naive, tiling or small-tiling)");
}
access_pattern parse_access_pattern(const std::string& name) {
    if (name == "linear") return access_pattern::linear;
    if (name == "strided") return access_pattern::strided;
    if (name == "unordered") return access_pattern::unordered;
    throw std::invalid_argument("unknown access pattern '" + name + "' (expected linear, strided or unordered)");
}
memory_element parse_memory_element(const std::string& name) {
    if (name == "float") return memory_element::float1;
    if (name == "float4") return memory_element::float4;
    throw std::invalid_argument("unknown element type '" + name + "' (expected float or float4)");
}
const char* to_string(memory_kernel k) {
    switch (k) {
        case memory_kernel::naive: return "naive";
        case memory_kernel::tiling: return "tiling";
        case memory_kernel::small_tiling: return "small-tiling";
    }
    return "?";
}
const char* to_string(access_pattern p) {
    switch (p) {
        case access_pattern::linear: return "linear";
        case access_pattern::strided: return "strided";
        case access_pattern::unordered: return "unordered";
    }
    return "?";
}
const char* to_string(memory_element e) { return e == memory_element::float4 ? "float4" : "float"; }

namespace {

__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ float4 add(float4 a, float4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }

// Algorithm 3.
template <class T, access_pattern Pattern>
__global__ void naive_read_kernel(T* out, const T* in, std::uint32_t n) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    T sum = in[j];
    if constexpr (Pattern == access_pattern::linear) {
        for (std::uint32_t k = 0; k < n; ++k) sum = add(sum, in[k]);
    } else {
        index_walk walk = index_walk::start(Pattern, 0, 1, j, n);
        for (std::uint32_t k = 0; k < n; ++k) {
            sum = add(sum, in[walk.index]);
            walk.advance();
        }
    }
    out[j] = sum;
}

// Algorithm 4: tiles of Tile elements (the block size for "tiling", 32 for "small-tiling"),
// loaded by the first Tile threads of the block. Full tiles are summed with a loop of constant trip
// count, as in the paper; only the last tile can be partial (N need not be a multiple of Tile).
template <class T, access_pattern Pattern, std::uint32_t Tile>
__global__ void tiling_read_kernel(T* out, const T* in, std::uint32_t n) {
    __shared__ T tile[Tile];
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t t = threadIdx.x;
    T sum = j < n ? in[j] : T{};
    // Threads j >= n (the last block's tail) still load tiles and meet the barriers.
    index_walk walk = index_walk::start(Pattern, t, Tile, j, n);
    for (std::uint32_t m = 0; m < n; m += Tile) {
        if (t < Tile) {
            if (m + t < n) tile[t] = in[Pattern == access_pattern::linear ? m + t : walk.index];
            walk.advance();
        }
        __syncthreads();
        if (m + Tile <= n) {
            for (std::uint32_t k = 0; k < Tile; ++k) sum = add(sum, tile[k]);
        } else {
            for (std::uint32_t k = 0; k < n - m; ++k) sum = add(sum, tile[k]);
        }
        __syncthreads();
    }
    if (j < n) out[j] = sum;
}

template <class T, access_pattern Pattern>
void launch(memory_kernel kernel, T* out, const T* in, std::uint32_t n) {
    const unsigned blocks = blocks_for(n, memory_block_size);
    switch (kernel) {
        case memory_kernel::naive: naive_read_kernel<T, Pattern><<<blocks, memory_block_size>>>(out, in, n); break;
        case memory_kernel::tiling:
            tiling_read_kernel<T, Pattern, memory_block_size><<<blocks, memory_block_size>>>(out, in, n);
            break;
        case memory_kernel::small_tiling:
            tiling_read_kernel<T, Pattern, 32><<<blocks, memory_block_size>>>(out, in, n);
            break;
    }
    check_launch("memory benchmark kernel");
}

template <class T>
void launch(memory_kernel kernel, access_pattern pattern, T* out, const T* in, std::uint32_t n) {
    switch (pattern) {
        case access_pattern::linear: launch<T, access_pattern::linear>(kernel, out, in, n); break;
        case access_pattern::strided: launch<T, access_pattern::strided>(kernel, out, in, n); break;
        case access_pattern::unordered: launch<T, access_pattern::unordered>(kernel, out, in, n); break;
    }
}

float4 input_element(std::uint32_t k) { return {float(k & 1u), float((k >> 1) & 1u), float((k >> 2) & 1u), 1.0f}; }

// Threads whose sums are checked: the first and last of the first warps and blocks, and a spread.
std::vector<std::uint32_t> checked_threads(std::uint32_t n) {
    std::vector<std::uint32_t> j{0, 1, 31, 32, 127, 128, n / 3, n / 2, n - 129, n - 2, n - 1};
    for (std::uint32_t k = 1; k < 16; ++k) j.push_back(static_cast<std::uint32_t>(std::uint64_t(n) * k / 16));
    std::erase_if(j, [&](std::uint32_t x) { return x >= n; });
    std::sort(j.begin(), j.end());
    j.erase(std::unique(j.begin(), j.end()), j.end());
    return j;
}

template <class T>
memory_timing time_with(memory_kernel kernel, access_pattern pattern, memory_element element, std::uint32_t n,
                        int repeats) {
    std::vector<T> host(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        const float4 e = input_element(k);
        if constexpr (sizeof(T) == sizeof(float)) host[k] = e.x;
        else host[k] = e;
    }
    device_buffer<T> in, out(n, "memory benchmark output");
    in.upload(host);
    for (int w = 0; w < 2; ++w) launch<T>(kernel, pattern, out.data(), in.data(), n);
    check(cudaDeviceSynchronize(), "memory benchmark warm-up");

    std::vector<double> ms =
        bench::event_times_ms(repeats, [&] { launch<T>(kernel, pattern, out.data(), in.data(), n); });

    std::vector<T> result;
    out.download(result);
    // In the tiling kernels access k of every thread of a block is the element that thread
    // k mod tile of the block loaded into shared memory, at its own index j (unordered pattern).
    const std::uint64_t tile = kernel == memory_kernel::naive    ? 0
                               : kernel == memory_kernel::tiling ? memory_block_size
                                                                 : 32;
    const std::vector<std::uint32_t> threads = checked_threads(n);
    for (std::uint32_t j : threads) {
        float4 expected = input_element(j);
        const std::uint64_t block_start = std::uint64_t(j) / memory_block_size * memory_block_size;
        for (std::uint64_t k = 0; k < n; ++k) {
            const std::uint64_t reader = tile ? block_start + k % tile : j;
            const float4 e = input_element(mapped_index(pattern, k, reader, n));
            expected = {expected.x + e.x, expected.y + e.y, expected.z + e.z, expected.w + e.w};
        }
        bool same = false;
        if constexpr (sizeof(T) == sizeof(float)) same = result[j] == expected.x;
        else
            same = result[j].x == expected.x && result[j].y == expected.y && result[j].z == expected.z &&
                   result[j].w == expected.w;
        if (!same)
            throw std::runtime_error(std::string("memory benchmark: wrong sum of thread ") + std::to_string(j) + " (" +
                                     to_string(kernel) + ", " + to_string(pattern) + ", " + to_string(element) +
                                     ", N = " + std::to_string(n) + ")");
    }

    memory_timing t{};
    t.kernel = kernel;
    t.pattern = pattern;
    t.element = element;
    t.n = n;
    t.block = memory_block_size;
    t.repeats = repeats;
    t.mean_ms = std::accumulate(ms.begin(), ms.end(), 0.0) / double(ms.size());
    std::sort(ms.begin(), ms.end());
    t.median_ms = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
    t.min_ms = ms.front();
    t.max_ms = ms.back();
    t.checked_threads = static_cast<unsigned>(threads.size());
    return t;
}

}  // namespace

memory_timing time_memory_kernel(memory_kernel kernel, access_pattern pattern, memory_element element, std::uint32_t n,
                                 int repeats) {
    if (n < 256 || n > max_memory_benchmark_n)
        throw std::invalid_argument("memory benchmark: N must lie in [256, " + std::to_string(max_memory_benchmark_n) +
                                    "], got " + std::to_string(n));
    if (repeats < 1) throw std::invalid_argument("memory benchmark: --repeats must be >= 1");
    return element == memory_element::float4 ? time_with<float4>(kernel, pattern, element, n, repeats)
                                             : time_with<float>(kernel, pattern, element, n, repeats);
}

}  // namespace stokesian::cuda
