#pragma once
// Host/device annotation: the physics is written once and compiled for both backends.
// The physics functions are small and sit in the innermost O(N^2) loops: they are always inlined
// (GCC otherwise leaves the float instantiations out of line, costing the CPU backend a factor 2.5).
#if defined(__CUDACC__)
#define STOKESIAN_HD __host__ __device__
#define STOKESIAN_HD_INLINE __host__ __device__ __forceinline__
#else
#define STOKESIAN_HD
#define STOKESIAN_HD_INLINE inline __attribute__((always_inline))
#endif
