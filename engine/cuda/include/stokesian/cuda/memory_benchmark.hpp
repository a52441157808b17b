#pragma once
// The appendix study of the paper ("Data caching for memory access patterns of complexity O(N^2)",
// Algorithms 3 and 4, Figs. 6 and 7): minimal kernels in which each of N threads reads all N
// elements of an array in a given order and adds them up, so that the time is memory access and
// nothing else. `stokesian bench memory` runs them. Host-only header (the index walk below is plain
// C++ that the kernels share).
//
//   kernels   naive         every thread reads its N elements from global memory (Algorithm 3)
//             tiling        the block copies tiles of blockDim elements to shared memory, then every
//                           thread reads them there (Algorithm 4 with the block size as tile size)
//             small-tiling  tiles of 32 elements, loaded by the first warp only (Algorithm 4)
//   patterns  access k of thread j reads element
//             linear        k
//             strided       k p mod N               (p = 131, a prime larger than 128)
//             unordered     (k p + j M) mod N       (M = 32, j the global thread id)
//   elements  float (4 bytes) or float4 (16 bytes)
// 128 threads per block, as in the paper.
#include <cstdint>
#include <string>

#include "stokesian/config.hpp"

namespace stokesian::cuda {

enum class memory_kernel { naive, tiling, small_tiling };
enum class access_pattern { linear, strided, unordered };
enum class memory_element { float1, float4 };

memory_kernel parse_memory_kernel(const std::string& name);  // throws std::invalid_argument
access_pattern parse_access_pattern(const std::string& name);
memory_element parse_memory_element(const std::string& name);  // "float" or "float4"
const char* to_string(memory_kernel k);
const char* to_string(access_pattern p);
const char* to_string(memory_element e);

inline constexpr std::uint32_t access_stride = 131;    // p
inline constexpr std::uint32_t unordered_offset = 32;  // M
inline constexpr unsigned memory_block_size = 128;
// Inputs are 0 or 1 per component, so every sum is an exact integer below 2^24 in float for
// N below this bound, whatever the order: the results are checked exactly.
inline constexpr std::uint32_t max_memory_benchmark_n = 16'000'000;

// Element index of access k of thread j (the definition; host reference of the walk below).
inline std::uint32_t mapped_index(access_pattern p, std::uint64_t k, std::uint64_t j, std::uint64_t n) {
    switch (p) {
        case access_pattern::linear: return static_cast<std::uint32_t>(k % n);
        case access_pattern::strided: return static_cast<std::uint32_t>(k * access_stride % n);
        case access_pattern::unordered:
            return static_cast<std::uint32_t>((k * access_stride + j * unordered_offset) % n);
    }
    return 0;
}

// The same indices, walked: accesses first_k, first_k + step, first_k + 2 step, ... of thread j.
// One addition and one comparison per access instead of an integer division, so index arithmetic
// does not hide the memory time (p = 131 < N and the step's increment are reduced mod N once).
struct index_walk {
    std::uint32_t index;
    std::uint32_t increment;
    std::uint32_t n;

    STOKESIAN_HD static index_walk start(access_pattern p, std::uint32_t first_k, std::uint32_t step, std::uint32_t j,
                                         std::uint32_t n) {
        const std::uint64_t nn = n;
        switch (p) {
            case access_pattern::linear: return {first_k, step, n};
            case access_pattern::strided:
                return {static_cast<std::uint32_t>(std::uint64_t(first_k) * access_stride % nn),
                        static_cast<std::uint32_t>(std::uint64_t(step) * access_stride % nn), n};
            case access_pattern::unordered:
                return {static_cast<std::uint32_t>(
                            (std::uint64_t(first_k) * access_stride + std::uint64_t(j) * unordered_offset) % nn),
                        static_cast<std::uint32_t>(std::uint64_t(step) * access_stride % nn), n};
        }
        return {0, 0, n};
    }
    // index and increment are below n <= 2^31, so the sum cannot wrap around 2^32.
    STOKESIAN_HD void advance() {
        index += increment;
        if (index >= n) index -= n;
    }
};

struct memory_timing {
    memory_kernel kernel;
    access_pattern pattern;
    memory_element element;
    std::uint32_t n;
    unsigned block;
    int repeats;
    double mean_ms, median_ms, min_ms, max_ms;  // per launch, over the repeats
    unsigned checked_threads;                   // outputs compared with the host reference
};

// Uploads the input (element k: components k & 1, (k >> 1) & 1, (k >> 2) & 1, 1), runs two
// untimed launches, times `repeats` launches with CUDA events, then checks the sums of a sample of
// threads exactly against the host reference (throws std::runtime_error on a mismatch: the reads
// really happened). Throws std::invalid_argument for N < 256 or N > max_memory_benchmark_n,
// cuda_error without a device.
memory_timing time_memory_kernel(memory_kernel kernel, access_pattern pattern, memory_element element, std::uint32_t n,
                                 int repeats);

}  // namespace stokesian::cuda
