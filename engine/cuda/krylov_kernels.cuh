#pragma once
// Kernels of the implicit lubrication solver on the GPU (core/lubrication_solver.hpp; the engine's
// side is cuda_engine_lubrication.cuh). Each mirrors a CPU loop of cpu/cpu_engine_lubrication.hpp:
// the same physics functions, neighbours in ascending j, the arithmetic of
// numeric/krylov_arithmetic.hpp. No atomics touch a floating-point sum; the one atomic adds
// integers (the count of lubricated pairs), which is order-independent.
#include "device_types.cuh"
#include "neighbour_rows.cuh"
#include "stokesian/numeric/krylov_arithmetic.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/interactions.hpp"
#include "warp_shuffle.cuh"

namespace stokesian::cuda {

// F_i = F_ext,i + sum_j F_int(r_ij) (the right-hand side, without lubrication), and the number of
// neighbour entries within the lubrication range (each pair counts twice). A warp a particle, a
// neighbour a lane (add_over_neighbours).
template <class W>
__global__ void conservative_force_kernel(const packed4<W>* __restrict__ position,
                                          const vec3<W>* __restrict__ external_force, unsigned n, neighbour_rows rows,
                                          interaction_parameters<W> p, packed4<W>* __restrict__ force,
                                          unsigned long long* __restrict__ lubricated_entries) {
    const unsigned i = particle_of_warp(), lane = threadIdx.x % 32u;
    if (i >= n) return;  // the whole warp
    const vec3<W> r_i = unpack(position[i]);
    vec3<W> f = external_force[i];
    unsigned lubricated = 0;  // this lane's neighbours within the lubrication range
    add_over_neighbours(f, rows, i, r_i, position, n, p, [&](unsigned j) {
        const vec3<W> r_j = unpack(position[j]);
        if (lubricated_pair(r_i, r_j, p)) ++lubricated;
        return pair_interaction_force(r_i, r_j, p);
    });
    for (unsigned offset = 16; offset > 0; offset /= 2u) lubricated += __shfl_xor_sync(full_warp, lubricated, offset);
    if (lane != 0) return;
    force[i] = pack(f);
    if (lubricated > 0) atomicAdd(lubricated_entries, static_cast<unsigned long long>(lubricated));
}

// A velocity in the working precision: the engine's velocities (accumulator precision) or a
// Krylov vector.
template <class W, class A>
__device__ inline vec3<W> working_velocity(const vec3<A>& v) {
    return value_cast<W>(v);
}
template <class W>
__device__ inline vec3<W> working_velocity(const packed4<W>& v) {
    return unpack(v);
}

// out_i = -(zeta u)_i = sum_j lubrication_pair_force(i, j): the lubrication force of the velocity field
// u, of the model the parameters name (physics/lubrication.hpp, model_lubrication_force). A warp a
// particle, a neighbour a lane, added in ascending j (add_over_neighbours).
template <class W, class Velocity>
__global__ void lubrication_force_kernel(const packed4<W>* __restrict__ position, const Velocity* __restrict__ u,
                                         unsigned n, neighbour_rows rows, interaction_parameters<W> p,
                                         packed4<W>* __restrict__ out) {
    const unsigned i = particle_of_warp(), lane = threadIdx.x % 32u;
    if (i >= n) return;  // the whole warp
    const vec3<W> r_i = unpack(position[i]);
    const vec3<W> u_i = working_velocity<W>(u[i]);
    vec3<W> f{};
    add_over_neighbours(f, rows, i, r_i, position, n, p, [&](unsigned j) {
        return lubrication_pair_force(r_i, unpack(position[j]), u_i, working_velocity<W>(u[j]), p);
    });
    if (lane == 0) out[i] = pack(f);
}

// out_i = v_i rounded to W (the mobility's accumulator-precision output as a Krylov vector).
template <class W, class A>
__global__ void to_working_kernel(const vec3<A>* __restrict__ v, unsigned n, packed4<W>* __restrict__ out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = pack(value_cast<W>(v[i]));
}

// out = a x + b y (out may be x or y: each thread reads its own element before writing it).
template <class W>
__global__ void linear_combination_kernel(packed4<W>* out, W a, const packed4<W>* x, W b, const packed4<W>* y,
                                          unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = pack(linear_combination(a, unpack(x[i]), b, unpack(y[i])));
}

// Block b's partial sum of x . y by the tree of krylov_arithmetic.hpp (host_block_partial is the
// host twin). Launched with blockDim.x == dot_block.
template <class W>
__global__ void dot_partials_kernel(const packed4<W>* __restrict__ x, const packed4<W>* __restrict__ y, unsigned n,
                                    double* __restrict__ partials) {
    __shared__ double s[dot_block];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * dot_block + t;
    s[t] = i < n ? dot_term(unpack(x[i]), unpack(y[i])) : 0.0;
    __syncthreads();
    for (unsigned h = dot_block / 2; h > 0; h /= 2) {
        if (t < h) s[t] = rounded::add(s[t], s[t + h]);
        __syncthreads();
    }
    if (t == 0) partials[blockIdx.x] = s[0];
}

}  // namespace stokesian::cuda
