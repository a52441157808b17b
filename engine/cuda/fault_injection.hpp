#pragma once
// A test seam for device failures (engine/docs/reliability.md, "Device errors"):
// STOKESIAN_TEST_DEVICE_FAULT=STEP[:ORDINAL] in the environment makes the step-by-step CUDA engine
// (one device or several) launch a kernel that traps on device ORDINAL (default: the engine's
// first) when step STEP begins; the fused engine, before the launch that runs step STEP. A trap is a real fault: the device's context is lost, every later
// call on it fails, and the run must stop as it would after a hardware error. Read once per engine
// at construction; unset (as always outside the gpu tests): nothing happens. Host-only.
#include <cstdint>

namespace stokesian::cuda {

struct injected_fault {
    bool armed = false;
    std::uint64_t step = 0;
    int ordinal = -1;  // -1: the engine's first device
};

// The variable parsed; a malformed value is ignored (no fault), as is an unset one.
injected_fault injected_fault_from_environment();

// Launches the trapping kernel on `ordinal` and makes `restore` current again.
void launch_trap(int ordinal, int restore);

}  // namespace stokesian::cuda
