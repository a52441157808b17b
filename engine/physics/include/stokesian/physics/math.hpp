#pragma once
// Elementary functions for float and double on host and device, chosen by overload so that the
// physics templates never mix precisions by accident.
#include <cmath>

#include "stokesian/config.hpp"

namespace stokesian::math {

STOKESIAN_HD_INLINE float sqrt(float x) { return ::sqrtf(x); }
STOKESIAN_HD_INLINE double sqrt(double x) { return ::sqrt(x); }
STOKESIAN_HD_INLINE float abs(float x) { return ::fabsf(x); }
STOKESIAN_HD_INLINE double abs(double x) { return ::fabs(x); }
STOKESIAN_HD_INLINE float log(float x) { return ::logf(x); }
STOKESIAN_HD_INLINE double log(double x) { return ::log(x); }
STOKESIAN_HD_INLINE float exp(float x) { return ::expf(x); }
STOKESIAN_HD_INLINE double exp(double x) { return ::exp(x); }

// 1/sqrt(x) for the "fast" kernels: on the device the hardware reciprocal square root (rsqrtf:
// <= 2 ulp; rsqrt for double: <= 1 ulp, CUDA Programming Guide, accuracy tables), one instruction
// instead of a correctly rounded square root and division; on the host, where nothing runs the
// fast kernels, 1/sqrt(x).
STOKESIAN_HD_INLINE float rsqrt_fast(float x) {
#if defined(__CUDA_ARCH__)
    // The .ftz form: no rescaling of subnormal arguments (a squared distance never is one).
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return 1.0f / ::sqrtf(x);
#endif
}
STOKESIAN_HD_INLINE double rsqrt_fast(double x) {
#if defined(__CUDA_ARCH__)
    return ::rsqrt(x);
#else
    return 1.0 / ::sqrt(x);
#endif
}

}  // namespace stokesian::math
