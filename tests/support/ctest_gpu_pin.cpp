// Linked into the gpu test binaries (tests/CMakeLists.txt). Under CTest resource allocation
// (`ctest --resource-spec-file build/gpu-resources.json`, written by ci/gpu-resources) ctest gives
// each gpu test its GPUs; before main() -- before CUDA initialises -- this pins the process, and the
// `stokesian` processes it starts, to them: CUDA_VISIBLE_DEVICES in PCI bus order (CUDA_DEVICE_ORDER),
// the order of nvidia-smi's indices that ci/gpu-resources lists. Without an allocation nothing
// changes; but where tests/gpu_resources.cmake.in gave the test resource groups
// (STOKESIAN_GPU_RESOURCE_GROUPS=1) and ctest made no allocation (run without --resource-spec-file),
// the test stops with a message rather than share a GPU with every other test.
#include <cstdio>
#include <cstdlib>

#include "support/ctest_gpu_groups.hpp"

namespace {

const char* environment(const std::string& name) { return std::getenv(name.c_str()); }

bool pin_to_allocated_gpus() {
    const std::vector<std::string> ids = stokesian::test_support::ctest_gpu_ids(environment);
    if (ids.empty()) {
        if (std::getenv("STOKESIAN_GPU_RESOURCE_GROUPS") != nullptr) {
            std::fprintf(stderr,
                         "this gpu test takes a CTest resource group (the build folder has gpu-resources.json), but "
                         "ctest allocated none: run ctest with --resource-spec-file BUILD/gpu-resources.json, or "
                         "remove that file to run the gpu tests one at a time\n");
            std::exit(1);
        }
        return false;
    }
    ::setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    ::setenv("CUDA_VISIBLE_DEVICES", stokesian::test_support::visible_devices(ids).c_str(), 1);
    return true;
}

[[maybe_unused]] const bool pinned = pin_to_allocated_gpus();

}  // namespace
