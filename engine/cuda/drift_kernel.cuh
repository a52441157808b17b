#pragma once
// Position update r <- r + dt v in the integration precision P (paper, step 1), wrapping into the
// periodic box, and the working-precision copy the O(N^2) and force kernels read.
#include "device_types.cuh"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/physics/drift.hpp"

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
    drift_particle(r, m, velocity[i], dt, box);  // physics/drift.hpp, shared with the fused kernels
    if (periodic) image[i] = m;
    position[i] = r;
    position_w[i] = pack(value_cast<W>(r));
}

// r <- r_start + dt sum_{s<m} c[s] k[s] (Runge-Kutta stages; Adams-Bashforth with r_start = r):
// physics/drift.hpp's combine_stages and displace_particle, as the CPU engine.
template <class P, class A>
struct stage_set {
    const vec3<A>* stage[4];
    P coefficient[4];
    int count;
};

template <class P, class A, class W>
__global__ void combine_drift_kernel(vec3<P>* __restrict__ position, vec3<int>* __restrict__ image,
                                     const vec3<P>* start_position, const vec3<int>* start_image, stage_set<P, A> k,
                                     unsigned n, P dt, drift_box<P> box, packed4<W>* __restrict__ position_w) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    vec3<P> r = start_position[i];
    vec3<int> m = box.periodic ? start_image[i] : vec3<int>{0, 0, 0};
    displace_particle(r, m, combine_stages<P, A>(k.stage, k.coefficient, k.count, i), dt, box);
    if (box.periodic) image[i] = m;
    position[i] = r;
    position_w[i] = pack(value_cast<W>(r));
}

template <class P, class W>
__global__ void working_position_kernel(const vec3<P>* __restrict__ position, unsigned n,
                                        packed4<W>* __restrict__ position_w) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) position_w[i] = pack(value_cast<W>(position[i]));
}

}  // namespace stokesian::cuda
