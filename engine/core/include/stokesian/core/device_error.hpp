#pragma once
// A device failed while an engine was using it (a CUDA error in a step, a lost NCCL peer): the
// engine's state on the device is gone, and the engine cannot be used again. Plain C++, so the run
// layer catches it without device headers; the CUDA backend throws it (cuda/device_failure.hpp).
// The run writes the last good state it holds on the host as its checkpoint and stops with exit
// code 1, naming the device (engine/docs/reliability.md, "Device errors").
#include <stdexcept>
#include <string>

namespace stokesian {

class device_error : public std::runtime_error {
public:
    // "device ORDINAL (NAME): WHAT"
    device_error(int ordinal, const std::string& name, const std::string& what)
        : std::runtime_error("device " + std::to_string(ordinal) + " (" + name + "): " + what),
          ordinal_(ordinal),
          name_(name),
          detail_(what) {}
    int ordinal() const noexcept { return ordinal_; }
    const std::string& device_name() const noexcept { return name_; }
    const std::string& detail() const noexcept { return detail_; }  // `what` without the device

private:
    int ordinal_;
    std::string name_;
    std::string detail_;
};

}  // namespace stokesian
