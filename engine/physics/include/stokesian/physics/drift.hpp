#pragma once
// The per-particle body of a position update (paper, Section 3.1, step 1): r <- r + dt x in the
// integration precision P, then wrapped into the periodic box [-L/2, L/2)^3 with the image counts
// updated. Written once and used by every backend and kernel that moves particles (the CPU engine,
// the step-by-step and fused CUDA kernels), so all of them round identically.
#include "stokesian/config.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/box.hpp"

namespace stokesian {

// The box as the drift sees it, in the integration precision.
template <class P>
struct drift_box {
    bool periodic;
    vec3<P> edge, half_edge;
};

// r <- r + dt x, then wrap each coordinate once; `image` is only read and written for a periodic box.
template <class P>
STOKESIAN_HD_INLINE void displace_particle(vec3<P>& r, vec3<int>& image, vec3<P> x, P dt, const drift_box<P>& box) {
    r = {r.x + dt * x.x, r.y + dt * x.y, r.z + dt * x.z};
    if (box.periodic) {
        wrap_component(r.x, image.x, box.edge.x, box.half_edge.x);
        wrap_component(r.y, image.y, box.edge.y, box.half_edge.y);
        wrap_component(r.z, image.z, box.edge.z, box.half_edge.z);
    }
}

// Euler's update r <- r + dt v, v converted from the accumulator type A to P with value_cast.
template <class P, class A>
STOKESIAN_HD_INLINE void drift_particle(vec3<P>& r, vec3<int>& image, vec3<A> velocity, P dt, const drift_box<P>& box) {
    displace_particle(r, image, value_cast<P>(velocity), dt, box);
}

// sum_s c[s] k[s] over m <= 4 velocity stages of one particle, in the integration precision, in
// stage order: the increment of a Runge-Kutta or multistep update (core/integrator.hpp).
template <class P, class A>
STOKESIAN_HD_INLINE vec3<P> combine_stages(const vec3<A>* const* stage, const P* c, int m, unsigned i) {
    vec3<P> sum = {c[0] * value_cast<P>(stage[0][i].x), c[0] * value_cast<P>(stage[0][i].y),
                   c[0] * value_cast<P>(stage[0][i].z)};
    for (int s = 1; s < m; ++s) {
        const vec3<P> k = value_cast<P>(stage[s][i]);
        sum = {sum.x + c[s] * k.x, sum.y + c[s] * k.y, sum.z + c[s] * k.z};
    }
    return sum;
}

}  // namespace stokesian
