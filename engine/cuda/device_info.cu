// Device discovery and provenance of the CUDA backend.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "device_buffer.hpp"
#include "stokesian/core/device_code.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/driver_version.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/cuda/cuda_backend.hpp"

namespace stokesian::cuda {

bool device_available() noexcept { return device_count() > 0; }

unsigned device_count() noexcept {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count > 0 ? unsigned(count) : 0U;
}

void check_device_ordinals(const std::vector<int>& ordinals) {
    // The core rule and its messages (core/device_selection.hpp), against the devices present here.
    try {
        check_ordinals(ordinals, device_count());
    } catch (const std::invalid_argument& e) {
        throw input_error(std::string("backend 'cuda': ") + e.what());
    }
}

std::string peer_access_refusal(const std::vector<int>& ordinals) {
    for (const int from : ordinals)
        for (const int to : ordinals) {
            if (from == to) continue;
            int can = 0;
            check(cudaDeviceCanAccessPeer(&can, from, to), "cudaDeviceCanAccessPeer");
            if (!can)
                return "device " + std::to_string(from) + " cannot access the memory of device " + std::to_string(to) +
                       " (no NVLink or PCIe peer access between them)";
        }
    return "";
}

void enable_peer_access(const std::vector<int>& ordinals) {
    if (const std::string why = peer_access_refusal(ordinals); !why.empty()) throw cuda_error(why);
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    for (const int from : ordinals) {
        use_device(from);
        for (const int to : ordinals) {
            if (from == to) continue;
            const cudaError_t status = cudaDeviceEnablePeerAccess(to, 0);
            if (status == cudaErrorPeerAccessAlreadyEnabled) {
                cudaGetLastError();  // turned on before (another engine of this process): not an error
                continue;
            }
            check(status, "cudaDeviceEnablePeerAccess");
        }
    }
    use_device(current);
}

bool multi_device_build() noexcept {
#if defined(STOKESIAN_HAVE_NCCL)
    return true;
#else
    return false;
#endif
}

namespace {
std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// Never launched: the runtime loads it as it loads every kernel of the build (all compiled for
// the same CMAKE_CUDA_ARCHITECTURES, so the driver makes the same choice for each module), and
// cudaFuncGetAttributes says which code it loaded.
__global__ void device_code_probe() {}

// The machine code the kernels run on `device` (core/device_code.hpp; engine/docs/porting.md,
// "Which machine code ran"). Loading the probe under CUDA_FORCE_PTX_JIT=1 JIT-compiles it: a
// few milliseconds, once per process and device.
std::string device_code(int device, const cudaDeviceProp& prop) {
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    if (current != device) check(cudaSetDevice(device), "cudaSetDevice");
    cudaFuncAttributes attributes{};
    const cudaError_t status = cudaFuncGetAttributes(&attributes, device_code_probe);
    if (current != device) check(cudaSetDevice(current), "cudaSetDevice");
    if (status != cudaSuccess) {
        cudaGetLastError();
        return std::string("none loaded (") + cudaGetErrorString(status) + ")";
    }
    return device_code_name(attributes.binaryVersion, attributes.ptxVersion, prop.major * 10 + prop.minor,
                            parse_cuda_architectures(STOKESIAN_CUDA_ARCHITECTURES),
                            ptx_jit_forced(std::getenv("CUDA_FORCE_PTX_JIT")));
}

std::string compute_capability_of(const cudaDeviceProp& prop) {
    return std::to_string(prop.major) + "." + std::to_string(prop.minor);
}

cudaDeviceProp properties_of(int& device) {
    if (device < 0) check(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    return prop;
}
}  // namespace

device_identity identify_device(int ordinal) {
    const cudaDeviceProp prop = properties_of(ordinal);
    return {prop.name, compute_capability_of(prop)};
}

std::map<std::string, std::string> device_description(int ordinal) {
    int device = ordinal;
    const cudaDeviceProp prop = properties_of(device);
    int driver = 0, runtime = 0;
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    int clock_khz = 0, memory_clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device);
    return {{"device_name", prop.name},
            {"compute_capability", compute_capability_of(prop)},
            {"multiprocessors", std::to_string(prop.multiProcessorCount)},
            {"device_memory_bytes", std::to_string(prop.totalGlobalMem)},
            {"sm_clock_khz", std::to_string(clock_khz)},
            {"memory_clock_khz", std::to_string(memory_clock_khz)},
            {"driver_version", driver_description(installed_nvidia_driver_release(), version_string(driver))},
            {"runtime_version", version_string(runtime)},
            {"cuda_fp_flags", STOKESIAN_CUDA_FP_FLAGS_STRING},
            {"cuda_fp_profile", STOKESIAN_CUDA_FP_PROFILE},
            {"cuda_architectures", STOKESIAN_CUDA_ARCHITECTURES},
            {"device_code", device_code(device, prop)}};
}

std::string out_of_memory_message(std::size_t bytes, const char* what) {
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    cudaGetLastError();
    char buf[256];
    std::snprintf(buf, sizeof buf, "out of device memory allocating %s: needed %.3g MiB, %.3g MiB free of %.3g MiB",
                  what, double(bytes) / 1048576.0, double(free_bytes) / 1048576.0, double(total_bytes) / 1048576.0);
    return buf;
}

}  // namespace stokesian::cuda
