#pragma once
// The vector arithmetic of the implicit lubrication solver (core/lubrication_solver.hpp), written
// once so that the CPU and CUDA backends round identically:
//  - linear_combination: a x + b y per component in the working precision W, each product and
//    the sum rounded separately (no FMA contraction, whatever the device's --fmad says);
//  - dot products: per particle (x_x y_x + x_y y_y) + x_z y_z in double (for W = float the
//    products are exact: 24 + 24 bits < 53), then reduced in ONE fixed order on both backends:
//    blocks of dot_block = 256 consecutive particles (zero beyond N), each summed by the pairwise
//    tree s[t] += s[t + h], h = 128, 64, ..., 1 (the shared-memory tree of the CUDA kernel,
//    cuda/krylov_kernels.cuh: dot_partials_kernel; host_block_partial below is its host twin),
//    then the block partials in ascending block order on the host. No atomics, no dependence on
//    the number of threads: the same inputs give the same bits on every backend and run.
#include <cstddef>

#include "stokesian/config.hpp"
#include "stokesian/numeric/float_float.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

// Correctly rounded operations the compiler may neither fuse nor reorder (float: eft:: in
// float_float.hpp; double: the __d*_rn intrinsics on the device, -ffp-contract=off on the host).
namespace rounded {
STOKESIAN_HD_INLINE float add(float a, float b) { return eft::add_rn(a, b); }
STOKESIAN_HD_INLINE float mul(float a, float b) { return eft::mul_rn(a, b); }
STOKESIAN_HD_INLINE double add(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}
STOKESIAN_HD_INLINE double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
}  // namespace rounded

// a x + b y in W.
template <class W>
STOKESIAN_HD_INLINE vec3<W> linear_combination(W a, vec3<W> x, W b, vec3<W> y) {
    return {rounded::add(rounded::mul(a, x.x), rounded::mul(b, y.x)),
            rounded::add(rounded::mul(a, x.y), rounded::mul(b, y.y)),
            rounded::add(rounded::mul(a, x.z), rounded::mul(b, y.z))};
}

// One particle's term of a dot product, in double.
template <class W>
STOKESIAN_HD_INLINE double dot_term(vec3<W> x, vec3<W> y) {
    const double xx = rounded::mul(double(x.x), double(y.x));
    const double yy = rounded::mul(double(x.y), double(y.y));
    const double zz = rounded::mul(double(x.z), double(y.z));
    return rounded::add(rounded::add(xx, yy), zz);
}

inline constexpr unsigned dot_block = 256;  // particles per block of the fixed-order reduction

inline std::size_t dot_blocks(std::size_t n) { return (n + dot_block - 1) / dot_block; }

// The partial sum of block b, by the device kernel's tree. term(i) gives particle i's term.
template <class Term>
double host_block_partial(std::size_t block, std::size_t n, Term term) {
    double s[dot_block];
    const std::size_t first = block * dot_block;
    for (unsigned t = 0; t < dot_block; ++t) s[t] = first + t < n ? term(first + t) : 0.0;
    for (unsigned h = dot_block / 2; h > 0; h /= 2)
        for (unsigned t = 0; t < h; ++t) s[t] = rounded::add(s[t], s[t + h]);
    return s[0];
}

// The block partials, added in ascending block order (both backends, on the host).
inline double sum_block_partials(const double* partials, std::size_t blocks) {
    double total = 0.0;
    for (std::size_t b = 0; b < blocks; ++b) total = rounded::add(total, partials[b]);
    return total;
}

}  // namespace stokesian
