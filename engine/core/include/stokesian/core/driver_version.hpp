#pragma once
// The NVIDIA driver a run used, as a person names it ("580.159.04"), for provenance. The CUDA
// runtime only reports the driver's CUDA API level (cudaDriverGetVersion: 13000 = "13.0"), which
// stays the same across many driver releases; the release itself is in the kernel module's
// /proc/driver/nvidia/version. Plain C++: the cuda layer combines both (cuda/device_info.cu).
#include <filesystem>
#include <string>
#include <string_view>

namespace stokesian {

// The release number in the text of /proc/driver/nvidia/version, e.g. "580.159.04" from
// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...";
// "" when the text names none (no "NVRM version" line, or no dotted number after it).
std::string parse_nvidia_driver_release(std::string_view proc_version_text);

// parse_nvidia_driver_release() of the file (default /proc/driver/nvidia/version); "" when the file
// cannot be read (no NVIDIA kernel module, a container without /proc/driver).
std::string installed_nvidia_driver_release(
    const std::filesystem::path& proc_version_file = "/proc/driver/nvidia/version");

// The provenance string: "580.159.04 (CUDA 13.0)", or "CUDA 13.0" when the release is unknown.
std::string driver_description(std::string_view release, std::string_view cuda_api_version);

}  // namespace stokesian
