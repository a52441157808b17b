# Floating-point discipline for host code (see engine/README.md, "Floating point").
# - No fast-math, no reassociation: the float-float (ds) type relies on error-free transforms.
# - No FMA contraction: the CPU backend must round exactly like the CUDA backend, which is
#   compiled with -fmad=false (cmake/StokesianCudaFlags.cmake). Explicit fma() calls remain.
# - SSE arithmetic on x86-64 (FLT_EVAL_METHOD == 0): float is evaluated in float.
set(STOKESIAN_HOST_FP_FLAGS -ffp-contract=off -fno-fast-math -fno-associative-math -fno-reciprocal-math)
# Constant folding is correctly rounded in GCC (MPFR) and we never change the rounding mode, so
# -frounding-math is not needed (it would move constant divisions such as 1/6 into the loops).
set(STOKESIAN_HOST_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
