#pragma once
// Launching the hydrodynamic-interaction kernels (hi_kernels.cuh): one place, used by the engine
// and by the kernel benchmark, so both time exactly what runs. Each computes the velocities of the
// targets [targets.begin, targets.end) against all n_sources sources, into velocity[i] for the
// targets i (the array holds n_sources velocities; the others are left alone). The tensor is the
// one p.mobility.tensor names, dispatched inside (engines stay templated on the precision only).
// The definitions are explicitly instantiated for the three (working, accumulator) pairs:
// hi_launch_exact.cu (no FMA contraction) and hi_launch_fast.cu (the fast-* kernels, compiled with
// contraction).
#include <cuda_runtime.h>

#include "device_types.cuh"
#include "stokesian/cuda/hi_kernel_names.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/target_range.hpp"

namespace stokesian::cuda {

template <class W, class A>
void launch_hi_kernel(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                      vec3<A>* velocity, target_range targets, unsigned n_sources, const interaction_parameters<W>& p,
                      cudaStream_t stream = 0);

template <class W, class A>
void launch_hi_kernel_fast(hi_kernel kernel, unsigned block, const packed4<W>* position, const packed4<W>* force,
                           vec3<A>* velocity, target_range targets, unsigned n_sources,
                           const interaction_parameters<W>& p, cudaStream_t stream);

// The current device's multiprocessor count, read once per device ordinal (132 when it cannot be read).
unsigned device_sm_count();

// Lanes per target for the split kernels: the smallest power of two (<= 32) that gives at least
// about two resident warps' worth of threads per scheduler on every multiprocessor.
unsigned split_group_size(unsigned n);

}  // namespace stokesian::cuda
