// cusolver_library.hpp: cuSOLVER opened with dlopen() at the first dense check on the device.
#include "cusolver_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/cuda/cuda_errors.hpp"

namespace stokesian::cuda {

namespace {

template <class F>
void resolve(void* handle, const std::string& file, const char* symbol, F& out) {
    dlerror();
    void* found = dlsym(handle, symbol);
    if (found == nullptr) {
        const char* why = dlerror();
        throw input_error(file + ": the cuSOLVER library has no " + symbol +
                          " (CUDA 11 or later expected): " + (why ? why : "null symbol"));
    }
    out = reinterpret_cast<F>(found);
}

cusolver_api load() {
    std::vector<std::string> candidates;
    if (const char* named = std::getenv("STOKESIAN_CUSOLVER_LIBRARY"); named != nullptr && *named != '\0')
        candidates = {named};
    else candidates = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"};
    std::string tried;
    for (const std::string& file : candidates) {
        void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            const char* why = dlerror();
            tried += (tried.empty() ? "" : "; ") + std::string(why ? why : file + ": not found");
            continue;
        }
        cusolver_api api;
        api.file = file;
        resolve(handle, file, "cusolverDnCreate", api.create);
        resolve(handle, file, "cusolverDnDestroy", api.destroy);
        resolve(handle, file, "cusolverDnCreateParams", api.create_params);
        resolve(handle, file, "cusolverDnDestroyParams", api.destroy_params);
        resolve(handle, file, "cusolverDnXpotrf_bufferSize", api.potrf_buffer_size);
        resolve(handle, file, "cusolverDnXpotrf", api.potrf);
        resolve(handle, file, "cusolverDnXpotrs", api.potrs);
        resolve(handle, file, "cusolverGetProperty", api.get_property);
        int major = 0, minor = 0, patch = 0;
        api.get_property(MAJOR_VERSION, &major);
        api.get_property(MINOR_VERSION, &minor);
        api.get_property(PATCH_LEVEL, &patch);
        api.version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
        return api;  // the handle stays open for the rest of the process
    }
    throw input_error(
        "the dense check on the device needs the cuSOLVER library of the CUDA toolkit, which this "
        "host does not have (" +
        tried +
        "; set STOKESIAN_CUSOLVER_LIBRARY to its path, or use --method lanczos, which needs "
        "nothing of it)");
}

}  // namespace

const cusolver_api& cusolver() {
    static std::mutex mutex;
    static std::optional<cusolver_api> loaded;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!loaded) loaded = load();
    return *loaded;
}

void check_cusolver(cusolverStatus_t status, const char* what) {
    if (status != CUSOLVER_STATUS_SUCCESS)
        throw cuda_call_error(std::string("cuSOLVER error in ") + what + ": status " +
                              std::to_string(static_cast<int>(status)));
}

}  // namespace stokesian::cuda
