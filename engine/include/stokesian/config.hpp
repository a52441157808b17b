#pragma once
// Host/device annotation: the physics is written once and compiled for both backends.
#if defined(__CUDACC__)
#define STOKESIAN_HD __host__ __device__
#else
#define STOKESIAN_HD
#endif
#define STOKESIAN_HD_INLINE STOKESIAN_HD inline
