// The driver release in provenance (core/driver_version.hpp): read from the kernel module's
// /proc/driver/nvidia/version, not the CUDA API level the runtime reports.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "stokesian/core/driver_version.hpp"

namespace stokesian {
namespace {

// The two layouts the NVIDIA kernel modules write (proprietary and open), as on the GPU hosts.
constexpr const char* proprietary =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"
    "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
constexpr const char* open_module =
    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
    "(dvs-builder@U16-I3-B13-1-2)  Thu Oct 30 2025\n"
    "GCC version:  gcc version 11.4.0\n";

TEST(DriverVersion, ReleaseFromEitherModuleLayout) {
    EXPECT_EQ(parse_nvidia_driver_release(proprietary), "550.54.15");
    EXPECT_EQ(parse_nvidia_driver_release(open_module), "580.159.04");
}

TEST(DriverVersion, NoReleaseInTextThatIsNotTheModuleLine) {
    EXPECT_EQ(parse_nvidia_driver_release(""), "");
    // The GCC line has a dotted number but is not the module's line; "x86_64" is not a number.
    EXPECT_EQ(parse_nvidia_driver_release("GCC version:  gcc version 12.2.0\n"), "");
    EXPECT_EQ(parse_nvidia_driver_release("NVRM version: NVIDIA UNIX x86_64 Kernel Module\nGCC 12.2.0\n"), "");
}

TEST(DriverVersion, MissingFileGivesNoRelease) {
    EXPECT_EQ(installed_nvidia_driver_release("/nonexistent/driver/nvidia/version"), "");
}

TEST(DriverVersion, FileIsRead) {
    const auto file = std::filesystem::temp_directory_path() / "stokesian_driver_version_test.txt";
    std::ofstream(file) << open_module;
    EXPECT_EQ(installed_nvidia_driver_release(file), "580.159.04");
    std::filesystem::remove(file);
}

TEST(DriverVersion, DescriptionNamesReleaseAndCudaLevel) {
    EXPECT_EQ(driver_description("580.159.04", "13.0"), "580.159.04 (CUDA 13.0)");
    EXPECT_EQ(driver_description("", "13.0"), "CUDA 13.0");
}

}  // namespace
}  // namespace stokesian
