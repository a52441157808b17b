#pragma once
// Host-side entry points of the CUDA backend. Plain C++: host code includes only this header,
// never device code (engine/README.md, "Backends").
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "stokesian/core/device_context.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian::cuda {

// True when the CUDA runtime reports at least one usable device.
bool device_available() noexcept;
// How many devices the CUDA runtime reports (0 without a driver or device).
unsigned device_count() noexcept;

// The device ordinals a context names must exist here and be distinct: input_error (exit code 2)
// naming the first that is not, with the ordinals this host has (the core rule and its message:
// check_ordinals, core/device_selection.hpp). An empty list means device 0.
void check_device_ordinals(const std::vector<int>& ordinals);

// Why the devices of `ordinals` cannot each read and write the others' memory (NVLink or PCIe peer
// access; the fused engine on several devices needs it), empty when they can. Existing ordinals.
std::string peer_access_refusal(const std::vector<int>& ordinals);
// Turns peer access on between every two of `ordinals`; throws cuda_error where it cannot.
void enable_peer_access(const std::vector<int>& ordinals);

// Whether this build runs one engine on several devices: built with NCCL's header (the library
// itself is loaded when first needed; engine/docs/multi-gpu.md).
bool multi_device_build() noexcept;

// Device name, compute capability, driver and runtime versions, memory, the device
// floating-point flags and architectures this build used, and device_code, the machine code the
// kernels run: "SASS (sm_90)" or "PTX JIT (compute_90)" (core/device_code.hpp) (provenance).
// Throws cuda_error without a device.
std::map<std::string, std::string> device_description(int ordinal = -1);  // -1: the current device

// What the kernel choice reads of a device (stokesian/backends/hi_kernel_choice.hpp): the name and
// compute capability ("9.0") that device_description records. Throws cuda_error without a device.
struct device_identity {
    std::string name;
    std::string compute_capability;
};
device_identity identify_device(int ordinal = -1);  // -1: the current device

// The step-by-step CUDA engine (backend "cuda") for any precision mode, on device.primary_ordinal(),
// or, when the context names several devices, on all of them: device d computes the HI velocities
// of its target slice (core/target_slices.hpp) and NCCL gathers them, bit for bit the one-device
// engine (multi_device_engine.cuh; engine/docs/multi-gpu.md).
// Throws cuda_error (no device, out of memory with the amount needed, kernel failure) or
// std::invalid_argument (unknown --hi-kernel). The fused engine (fused_backend.hpp) is the CUDA
// backend's kernel "fused"; its registration (backends/cuda_registration.cpp) chooses between them.
std::unique_ptr<engine> make_cuda_engine(const engine_config& config, const device_context& device,
                                         const initial_state& state);

}  // namespace stokesian::cuda
