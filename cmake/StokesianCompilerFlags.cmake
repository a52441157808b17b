# Floating-point discipline for host code (see engine/README.md, "Floating point").
# - No fast-math, no reassociation: the float-float (ds) type relies on error-free transforms.
# - No FMA contraction: the CPU backend must round exactly like the CUDA backend, which is
#   compiled with -fmad=false (cmake/StokesianCudaFlags.cmake). Explicit fma() calls remain.
# - SSE arithmetic on x86-64 (FLT_EVAL_METHOD == 0): float is evaluated in float.
set(STOKESIAN_HOST_FP_FLAGS -ffp-contract=off -fno-fast-math -fno-associative-math
    -fno-reciprocal-math -fsignaling-nans -frounding-math)
# -frounding-math/-fsignaling-nans stop constant folding that assumes the default environment
# from rewriting error-free transforms; they cost nothing measurable in our loops.
set(STOKESIAN_HOST_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
