#pragma once
// Device-side particle records. Positions and forces read by the O(N^2) kernels are packed into
// 16-byte (float) or 32-byte (double) records, as in the paper (2 x float4 = 32 bytes per particle).
#include "stokesian/numeric/vec3.hpp"

namespace stokesian::cuda {

template <class W>
struct alignas(4 * sizeof(W)) packed4 {
    W x, y, z, w;
};

template <class W>
__host__ __device__ inline vec3<W> unpack(packed4<W> p) {
    return {p.x, p.y, p.z};
}
template <class W>
__host__ __device__ inline packed4<W> pack(vec3<W> v) {
    return {v.x, v.y, v.z, W(0)};
}

// Grid size for one thread per element.
inline unsigned blocks_for(unsigned long long n, unsigned threads) {
    return static_cast<unsigned>((n + threads - 1) / threads);
}

}  // namespace stokesian::cuda
