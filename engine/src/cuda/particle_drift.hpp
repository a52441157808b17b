#pragma once
// The per-particle body of the drift (paper, Section 3.1, step 1): r <- r + dt v in the integration
// precision P, then wrapped into the periodic box [-L/2, L/2)^3 with the image counts updated.
// Written once as a __host__ __device__ function and used by every kernel that drifts particles
// (drift_kernel.cuh: one thread per particle and step; fused_kernels.cuh: many steps per launch),
// so the step-by-step and the fused CUDA paths round identically.
#include "stokesian/config.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/box.hpp"

namespace stokesian::cuda {

// The box as the drift sees it, in the integration precision.
template <class P>
struct drift_box {
    bool periodic;
    vec3<P> edge, half_edge;
};

// r <- r + dt v (v converted from the accumulator type A to P with value_cast), then wrap each
// coordinate once; `image` is only read and written for a periodic box.
template <class P, class A>
STOKESIAN_HD_INLINE void drift_particle(vec3<P>& r, vec3<int>& image, vec3<A> velocity, P dt, const drift_box<P>& box) {
    const vec3<P> v = value_cast<P>(velocity);
    r = {r.x + dt * v.x, r.y + dt * v.y, r.z + dt * v.z};
    if (box.periodic) {
        wrap_component(r.x, image.x, box.edge.x, box.half_edge.x);
        wrap_component(r.y, image.y, box.edge.y, box.half_edge.y);
        wrap_component(r.z, image.z, box.edge.z, box.half_edge.z);
    }
}

}  // namespace stokesian::cuda
