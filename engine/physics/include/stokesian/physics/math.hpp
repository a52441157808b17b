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

#if defined(__CUDA_ARCH__)
// The fast paths of sqrt_and_reciprocal (below) and their ranges.
// float: x normal, positive and at least 2^-101; r then lies in [2^-51, 2^64].
__device__ __forceinline__ bool sqrt_and_reciprocal_fast_range(float x) {
    return __float_as_uint(x) - 0x0d000000u <= 0x727fffffu;
}
__device__ __forceinline__ void sqrt_and_reciprocal_fast(float x, float& r, float& inv_r) {
    const float y = rsqrt_fast(x);
    const float s = __fmul_rn(x, y), half_y = __fmul_rn(y, 0.5f);
    r = __fmaf_rn(__fmaf_rn(-s, s, x), half_y, s);
    float z;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(z) : "f"(r));
    inv_r = __fmaf_rn(z, -__fmaf_rn(z, r, -1.0f), z);
}
// double: the compiler's own fast paths (ptxas of CUDA 13.0 for sm_90; the GPU test checks them on
// the device at hand) instruction for instruction: each seeds its Newton steps with the hardware's
// 32-bit approximation (MUFU.RSQ64H, MUFU.RCP64H), an integer function of the argument's high word
// in the seed's low word, and refines with the same fused multiply-adds. The range is the square
// root's (x's high word in [0x03500000, 0x7ff00000): x finite, positive, >= 2^-970); r then lies
// in [2^-485, 2^512], where the division's own test (the reciprocal neither subnormal nor
// overflowing) always passes.
__device__ __forceinline__ bool sqrt_and_reciprocal_fast_range(double x) {
    return static_cast<unsigned>(__double2hiint(x)) - 0x03500000u < 0x7ca00000u;
}
__device__ __forceinline__ void sqrt_and_reciprocal_fast(double x, double& r, double& inv_r) {
    double seed;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(seed) : "d"(x));
    const double y = __hiloint2double(__double2hiint(seed), __double2hiint(x) - 0x03500000);
    const double e = __fma_rn(x, -__dmul_rn(y, y), 1.0);
    const double y1 = __fma_rn(__fma_rn(e, 0.375, 0.5), __dmul_rn(y, e), y);
    const double s = __dmul_rn(x, y1);
    const double half_y1 = __hiloint2double(__double2hiint(y1) - 0x00100000, __double2loint(y1));
    r = __fma_rn(__fma_rn(s, -s, x), half_y1, s);
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(seed) : "d"(r));
    const double z = __hiloint2double(__double2hiint(seed), __double2hiint(r) + 0x00300402);
    const double e1 = __fma_rn(z, -r, 1.0);
    const double z1 = __fma_rn(z, __fma_rn(e1, e1, e1), z);
    inv_r = __fma_rn(z1, __fma_rn(z1, -r, 1.0), z1);
}
#endif

// r = sqrt(x) and 1/r, both correctly rounded (IEEE), as sqrt and a division give them. On the
// device the compiler expands each into a fast path behind a range test and a branch to a slow
// subroutine; where x lies in a fast range (nearly every squared distance) the fast paths of both
// are written out here under one test: the exact kernels' pair terms are issue-bound
// (engine/docs/performance.md). r then lies inside the reciprocal's fast range, so its own test
// always passes. The results are the correctly rounded ones, hence the same bits;
// tests/cuda/sqrt_reciprocal_gpu_test.cpp compares them with the IEEE square root and division on
// the device (every float; doubles at every binade, the range's edges and 2^36 random patterns).
// One double keeps the compiler's own sequences: written out under its own test it made the grid
// and ordered-split kernels 1-9 % slower in f64 on an H200; two at a time (below) made the far
// kernels faster (engine/docs/performance.md, "Two pairs under one range test").
STOKESIAN_HD_INLINE void sqrt_and_reciprocal(float x, float& r, float& inv_r) {
#if defined(__CUDA_ARCH__)
    if (sqrt_and_reciprocal_fast_range(x)) {
        sqrt_and_reciprocal_fast(x, r, inv_r);
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

// The same for K values at a time: on the device one range test for all K, so that their fast
// paths share one basic block, in which the compiler interleaves them (K independent squared
// distances, as the far kernels' two pairs a step).
template <unsigned K, class Real>
STOKESIAN_HD_INLINE void sqrt_and_reciprocal(const Real (&x)[K], Real (&r)[K], Real (&inv_r)[K]) {
#if defined(__CUDA_ARCH__)
    bool fast = true;
#pragma unroll
    for (unsigned k = 0; k < K; ++k) fast &= sqrt_and_reciprocal_fast_range(x[k]);
    if (fast) {
#pragma unroll
        for (unsigned k = 0; k < K; ++k) sqrt_and_reciprocal_fast(x[k], r[k], inv_r[k]);
        return;
    }
#endif
    for (unsigned k = 0; k < K; ++k) sqrt_and_reciprocal(x[k], r[k], inv_r[k]);
}

}  // namespace stokesian::math
