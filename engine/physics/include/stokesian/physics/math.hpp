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

// r = sqrt(x) and 1/r, both correctly rounded (IEEE), as sqrt and a division give them. On the
// device, float: for x normal, positive and at least 2^-101 (nearly every squared distance) the
// compiler's fast paths of both sequences written out under one range test, instead of a test and
// a branch each (the far kernels' pair term is issue-bound, engine/docs/performance.md); r then
// lies in [2^-51, 2^64], inside the reciprocal's fast range, so its own test always passes. The
// results are the correctly rounded ones, hence the same bits; tests/cuda/sqrt_reciprocal_gpu_test.cpp
// compares them with sqrtf and 1.0f / r for every float on the device.
STOKESIAN_HD_INLINE void sqrt_and_reciprocal(float x, float& r, float& inv_r) {
#if defined(__CUDA_ARCH__)
    if (__float_as_uint(x) - 0x0d000000u <= 0x727fffffu) {
        const float y = rsqrt_fast(x);
        const float s = __fmul_rn(x, y), half_y = __fmul_rn(y, 0.5f);
        r = __fmaf_rn(__fmaf_rn(-s, s, x), half_y, s);
        float z;
        asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(z) : "f"(r));
        inv_r = __fmaf_rn(z, -__fmaf_rn(z, r, -1.0f), z);
        return;
    }
#endif
    r = sqrt(x);
    inv_r = 1.0f / r;
}
STOKESIAN_HD_INLINE void sqrt_and_reciprocal(double x, double& r, double& inv_r) {
    r = sqrt(x);
    inv_r = 1.0 / r;
}

}  // namespace stokesian::math
