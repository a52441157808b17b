#pragma once
// cuSOLVER's dense Cholesky, loaded at run time: opened with dlopen() the first time a dense
// mobility check runs on the device (mobility_device.cu), never before. Why not link it, as
// NCCL (nccl_library.hpp): the GPU bundle (ci/gpu-bundle) is linked statically and travels in at
// most 64 MiB, the toolkit ships cuSOLVER only as a shared library (135 MB, with cuBLAS and cuBLASLt
// another 570 MB), and a binary linked against it would not start on a GPU host without the
// toolkit, where every other command needs nothing of it. The header (cusolverDn.h, part of the
// CUDA toolkit) gives the types; the 64-bit API (cusolverDnX*) because 3N x 3N exceeds 2^31 entries
// beyond N ~ 15 400.
#include <cusolverDn.h>

#include <string>

namespace stokesian::cuda {

struct cusolver_api {
    decltype(&::cusolverDnCreate) create = nullptr;
    decltype(&::cusolverDnDestroy) destroy = nullptr;
    decltype(&::cusolverDnCreateParams) create_params = nullptr;
    decltype(&::cusolverDnDestroyParams) destroy_params = nullptr;
    decltype(&::cusolverDnXpotrf_bufferSize) potrf_buffer_size = nullptr;
    decltype(&::cusolverDnXpotrf) potrf = nullptr;
    decltype(&::cusolverDnXpotrs) potrs = nullptr;
    decltype(&::cusolverGetProperty) get_property = nullptr;
    std::string file;     // the library opened
    std::string version;  // "11.7.5" (cusolverGetProperty)
};

// STOKESIAN_CUSOLVER_LIBRARY where set (a path or soname), else the first of libcusolver.so.12,
// .so.11, .so that opens; loaded once per process (thread-safe). Throws input_error (exit code 2:
// the host lacks what the request needs) naming what was tried and dlerror(), on every call.
const cusolver_api& cusolver();

// "cuSOLVER error in WHAT: status S" as a cuda_call_error.
void check_cusolver(cusolverStatus_t status, const char* what);

}  // namespace stokesian::cuda
