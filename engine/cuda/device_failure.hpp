#pragma once
// A CUDA failure inside a step becomes stokesian::device_error (core/device_error.hpp), naming the
// device: the engines wrap their entry points that touch the device after construction (advance,
// read_frame, save_state) in on_device(). Errors that are not the device's (a lubrication solve
// that fails, an overlapping configuration, bad input) pass through unchanged. Host-only.
#include <exception>
#include <string>

#include "stokesian/core/device_error.hpp"
#include "stokesian/cuda/cuda_errors.hpp"

namespace stokesian::cuda {

// The device's name for messages ("NVIDIA H100 80GB HBM3"), remembered from the first time it
// is asked; "unknown device" when the runtime cannot say (after a fault it may not), so engines
// ask once at construction.
std::string device_name_of(int ordinal);
// The calling thread's current device (-1 when the runtime cannot say).
int current_device_ordinal() noexcept;

// Throws device_error(ordinal, its name, what).
[[noreturn]] void throw_device_failure(int ordinal, const std::string& what);

// Runs f(); a CUDA call error or an out-of-memory error becomes a device_error naming `ordinal`
// (-1: the device current when the error surfaced).
template <class F>
decltype(auto) on_device(int ordinal, F&& f) {
    try {
        return f();
    } catch (const device_error&) {
        throw;
    } catch (const cuda_call_error& e) {
        throw_device_failure(ordinal < 0 ? current_device_ordinal() : ordinal, e.what());
    } catch (const device_out_of_memory& e) {
        throw_device_failure(ordinal < 0 ? current_device_ordinal() : ordinal, e.what());
    }
}

}  // namespace stokesian::cuda
