#pragma once
// NCCL, loaded at run time: the CUDA backend opens libnccl.so.2 with dlopen() the first time an
// engine runs on several devices, never before. Why not link it: the GPU bundle (ci/gpu-bundle) is
// linked statically and must start on a host without NCCL, where one-device runs need nothing of
// it; a shared module of our own loaded on demand would be a second file to ship and to keep in
// step with the binary, for no gain over resolving the eleven entry points below ourselves (NCCL
// keeps its C ABI stable within major version 2, the soname). Compiled where nccl.h is found
// (STOKESIAN_HAVE_NCCL; engine/CMakeLists.txt); without it multi-device runs are refused.
#if defined(STOKESIAN_HAVE_NCCL)
#include <nccl.h>

#include <string>

namespace stokesian::cuda {

// The entry points the multi-device engine uses (device_group.cpp).
struct nccl_api {
    decltype(&::ncclGetVersion) get_version = nullptr;
    decltype(&::ncclGetErrorString) error_string = nullptr;
    decltype(&::ncclCommInitAll) comm_init_all = nullptr;
    decltype(&::ncclGetUniqueId) get_unique_id = nullptr;    // one device per MPI rank:
    decltype(&::ncclCommInitRank) comm_init_rank = nullptr;  // bootstrapped through MPI
    decltype(&::ncclCommDestroy) comm_destroy = nullptr;
    decltype(&::ncclCommAbort) comm_abort = nullptr;
    decltype(&::ncclCommGetAsyncError) comm_get_async_error = nullptr;
    decltype(&::ncclGroupStart) group_start = nullptr;
    decltype(&::ncclGroupEnd) group_end = nullptr;
    decltype(&::ncclBroadcast) broadcast = nullptr;
    int version = 0;  // NCCL_VERSION_CODE of the library loaded (2.28.9: 22809)

    std::string version_text() const;  // "2.28.9"
};

// Opens `file` (a soname or path) and resolves the entry points; the handle stays open for the
// life of the process. Throws input_error (exit code 2: the host lacks what the request needs)
// naming the file and dlerror(), or a library older than 2.0.
nccl_api load_nccl_library(const char* file);

// NCCL_NVLS_ENABLE=0 in the environment unless it is set already (NVLink multicast off, as on the
// GPU hosts here; a user's value is never overridden).
void set_nccl_environment_defaults();

// libnccl.so.2, loaded once per process (thread-safe), after set_nccl_environment_defaults().
// Throws as load_nccl_library, again on every call.
const nccl_api& nccl();

// "NCCL error in WHAT: <ncclGetErrorString>" as a cuda_call_error (cuda_errors.hpp).
void check_nccl(ncclResult_t status, const char* what);

}  // namespace stokesian::cuda
#endif
