#pragma once
// Launching the hydrodynamic-interaction kernels (hi_kernels.cuh): one place, used by the engine
// and by the kernel benchmark, so both time exactly what runs. Each computes the velocities of the
// targets [targets.begin, targets.end) against all n_sources sources, into velocity[i] for the
// targets i (the array holds n_sources velocities; the others are left alone). The tensor is the
// one p.mobility.tensor names, dispatched inside (engines stay templated on the precision only).
// Keyed by the precision of the sum, hi=Hi, and defined for every precision of the list
// (numeric/precision_traits.hpp): one file each, hi_launch_exact_<hi>.cu (no FMA contraction) and
// hi_launch_fast_<hi>.cu (the fast-* kernels, compiled with contraction), written by
// engine/CMakeLists.txt from hi_launch_exact.cu.in and hi_launch_fast.cu.in.
#include <cuda_runtime.h>

#include "device_types.cuh"
#include "stokesian/cuda/hi_kernel_names.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/target_range.hpp"

namespace stokesian::cuda {

// The types of a sum in precision Hi: its pair terms (working) and the sum itself (accumulator).
template <precision Hi>
using hi_working_t = typename precision_policy<Hi, Hi>::working;
template <precision Hi>
using hi_accumulator_t = typename precision_policy<Hi, Hi>::accumulator;

template <precision Hi>
void launch_hi_kernel(hi_kernel kernel, unsigned block, const packed4<hi_working_t<Hi>>* position,
                      const packed4<hi_working_t<Hi>>* force, vec3<hi_accumulator_t<Hi>>* velocity,
                      target_range targets, unsigned n_sources, const interaction_parameters<hi_working_t<Hi>>& p,
                      cudaStream_t stream = 0);

template <precision Hi>
void launch_hi_kernel_fast(hi_kernel kernel, unsigned block, const packed4<hi_working_t<Hi>>* position,
                           const packed4<hi_working_t<Hi>>* force, vec3<hi_accumulator_t<Hi>>* velocity,
                           target_range targets, unsigned n_sources, const interaction_parameters<hi_working_t<Hi>>& p,
                           cudaStream_t stream);

// The explicit instantiation of `launch` (either function above) for the precision Hi.
#define STOKESIAN_INSTANTIATE_HI_LAUNCH(launch, Hi)                                                                   \
    template void launch<Hi>(hi_kernel, unsigned, const packed4<hi_working_t<Hi>>*, const packed4<hi_working_t<Hi>>*, \
                             vec3<hi_accumulator_t<Hi>>*, target_range, unsigned,                                     \
                             const interaction_parameters<hi_working_t<Hi>>&, cudaStream_t);

// The current device's multiprocessor count, read once per device ordinal (132 when it cannot be read).
unsigned device_sm_count();

// The shared memory a block of the current device may use when a kernel opts in, in bytes, read
// once per device ordinal (48 KiB, what every device gives, when it cannot be read).
unsigned device_shared_memory_per_block();

// Lanes per target for the split kernels on the current device (far_split_shape.hpp, split_group_for).
unsigned split_group_size(unsigned n);

}  // namespace stokesian::cuda
