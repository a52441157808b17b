// fault_injection.hpp: a kernel that traps, for the tests of device failures.
#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "cuda_check.hpp"
#include "fault_injection.hpp"

namespace stokesian::cuda {

namespace {
__global__ void trap_kernel() { __trap(); }
}  // namespace

injected_fault injected_fault_from_environment() {
    injected_fault f;
    const char* text = std::getenv("STOKESIAN_TEST_DEVICE_FAULT");
    if (text == nullptr || *text == '\0') return f;
    const std::string value(text);
    const std::size_t colon = value.find(':');
    try {
        std::size_t used = 0;
        const std::string step = value.substr(0, colon);
        f.step = std::stoull(step, &used);
        if (used != step.size()) return {};
        if (colon != std::string::npos) {
            const std::string ordinal = value.substr(colon + 1);
            f.ordinal = std::stoi(ordinal, &used);
            if (used != ordinal.size() || f.ordinal < 0) return {};
        }
    } catch (const std::exception&) {
        return {};
    }
    f.armed = true;
    return f;
}

void launch_trap(int ordinal, int restore) {
    use_device(ordinal);
    trap_kernel<<<1, 1>>>();
    cudaGetLastError();  // the fault surfaces where a real one would: at a later call on the device
    use_device(restore);
}

}  // namespace stokesian::cuda
