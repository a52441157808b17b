# Device floating-point flags, recorded verbatim in every output file (provenance).
# IEEE build (default): no FMA contraction (-fmad=false) so that the device rounds exactly like
# the host (compiled with -ffp-contract=off), IEEE division and square root, subnormals kept.
# Paper build (-DSTOKESIAN_CUDA_PAPER_FAST_FLAGS=ON): the flags Kopp & Hoefling used to restore
# compute-capability-1.3 arithmetic: --ftz=true --prec-div=false --prec-sqrt=false. The float-float
# code uses __fadd_rn/__fmul_rn/__fmaf_rn intrinsics, which no flag can contract or approximate.
if(STOKESIAN_CUDA_PAPER_FAST_FLAGS)
  # nvcc's default --fmad=true is kept, as in the paper's build.
  set(STOKESIAN_CUDA_FP_FLAGS --fmad=true --ftz=true --prec-div=false --prec-sqrt=false)
  set(STOKESIAN_CUDA_FP_PROFILE "paper-fast")
else()
  set(STOKESIAN_CUDA_FP_FLAGS --fmad=false --ftz=false --prec-div=true --prec-sqrt=true)
  set(STOKESIAN_CUDA_FP_PROFILE "ieee")
endif()
string(JOIN " " STOKESIAN_CUDA_FP_FLAGS_STRING ${STOKESIAN_CUDA_FP_FLAGS})
string(JOIN " " STOKESIAN_HOST_FP_FLAGS_STRING ${STOKESIAN_HOST_FP_FLAGS})
# The architectures, recorded too (cuda_architectures) and read by the device-code rule
# (core/device_code.hpp): commas, since a ';' would split the compile definition.
string(REPLACE ";" "," STOKESIAN_CUDA_ARCHITECTURES_STRING "${CMAKE_CUDA_ARCHITECTURES}")
