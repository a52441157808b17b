// nccl_library.hpp: NCCL opened with dlopen() at first multi-device use.
#include "nccl_library.hpp"

#if defined(STOKESIAN_HAVE_NCCL)
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <optional>

#include "stokesian/core/errors.hpp"
#include "stokesian/cuda/cuda_errors.hpp"

namespace stokesian::cuda {

namespace {

template <class F>
void resolve(void* handle, const char* file, const char* symbol, F& out) {
    dlerror();
    void* found = dlsym(handle, symbol);
    if (found == nullptr) {
        const char* why = dlerror();
        throw input_error(std::string(file) + ": the NCCL library has no " + symbol +
                          " (NCCL 2 expected): " + (why ? why : "null symbol"));
    }
    out = reinterpret_cast<F>(found);
}

}  // namespace

std::string nccl_api::version_text() const {
    // NCCL_VERSION(X, Y, Z) = X * 10000 + Y * 100 + Z since 2.9 (X * 1000 + Y * 100 + Z before).
    const bool wide = version >= 10000;
    const int major = wide ? version / 10000 : version / 1000;
    const int minor = wide ? version / 100 % 100 : version / 100 % 10;
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(version % 100);
}

nccl_api load_nccl_library(const char* file) {
    void* handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* why = dlerror();
        throw input_error("running on several devices needs the NCCL library (" + std::string(file) +
                          "), which this host does not have: " + (why ? why : "not found") +
                          " (install NCCL 2, or run on one device)");
    }
    nccl_api api;
    resolve(handle, file, "ncclGetVersion", api.get_version);
    resolve(handle, file, "ncclGetErrorString", api.error_string);
    resolve(handle, file, "ncclCommInitAll", api.comm_init_all);
    resolve(handle, file, "ncclGetUniqueId", api.get_unique_id);
    resolve(handle, file, "ncclCommInitRank", api.comm_init_rank);
    resolve(handle, file, "ncclCommDestroy", api.comm_destroy);
    resolve(handle, file, "ncclCommAbort", api.comm_abort);
    resolve(handle, file, "ncclCommGetAsyncError", api.comm_get_async_error);
    resolve(handle, file, "ncclGroupStart", api.group_start);
    resolve(handle, file, "ncclGroupEnd", api.group_end);
    resolve(handle, file, "ncclBroadcast", api.broadcast);
    if (api.get_version(&api.version) != ncclSuccess || api.version < 2000)
        throw input_error(std::string(file) + ": NCCL 2 or later expected (version code " +
                          std::to_string(api.version) + ")");
    return api;  // the handle stays open: the functions are used until the process ends
}

const nccl_api& nccl() {
    static std::mutex mutex;
    static std::optional<nccl_api> loaded;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!loaded) {
        set_nccl_environment_defaults();
        loaded = load_nccl_library("libnccl.so.2");
    }
    return *loaded;
}

void set_nccl_environment_defaults() {
    // NVLink multicast (NVLS) off unless the user says otherwise: the GPU hosts here switch it off,
    // and an all-gather of slices does not need it.
    setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
}

void check_nccl(ncclResult_t status, const char* what) {
    if (status == ncclSuccess) return;
    const char* text = nccl().error_string ? nccl().error_string(status) : "unknown";
    throw cuda_call_error(std::string("NCCL error in ") + what + ": " + text + " (ncclResult " +
                          std::to_string(static_cast<int>(status)) + ")");
}

}  // namespace stokesian::cuda
#endif
