#pragma once
// Position update r <- r + dt v in the integration precision P (paper, step 1), wrapping into the
// periodic box, and the working-precision copy the O(N^2) and force kernels read.
#include "device_types.cuh"
#include "particle_drift.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/box.hpp"

namespace stokesian::cuda {

template <class P, class A, class W>
__global__ void drift_kernel(vec3<P>* __restrict__ position, vec3<int>* __restrict__ image,
                             const vec3<A>* __restrict__ velocity, unsigned n, P dt, bool periodic, vec3<P> edge,
                             vec3<P> half_edge, packed4<W>* __restrict__ position_w) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const drift_box<P> box{periodic, edge, half_edge};
    vec3<P> r = position[i];
    vec3<int> m = periodic ? image[i] : vec3<int>{0, 0, 0};
    drift_particle(r, m, velocity[i], dt, box);  // particle_drift.hpp, shared with the fused kernels
    if (periodic) image[i] = m;
    position[i] = r;
    position_w[i] = pack(value_cast<W>(r));
}

template <class P, class W>
__global__ void working_position_kernel(const vec3<P>* __restrict__ position, unsigned n, packed4<W>* __restrict__ position_w) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) position_w[i] = pack(value_cast<W>(position[i]));
}

}  // namespace stokesian::cuda
