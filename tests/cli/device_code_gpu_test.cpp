// Which machine code ran, on a device (label gpu; skipped without one): the name the provenance
// gives (core/device_code.hpp, from cudaFuncGetAttributes) is the code the driver is documented
// to choose, and the build's PTX, JIT-compiled under CUDA_FORCE_PTX_JIT=1, computes what the
// committed H200 record holds (engine/docs/porting.md, "Which machine code ran").
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "stokesian/core/device_code.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/port/port_check.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/require_device.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

// "9.0" -> 90, as the CUDA runtime numbers architectures.
int architecture_number(const std::string& compute_capability) {
    const std::size_t dot = compute_capability.find('.');
    return std::stoi(compute_capability.substr(0, dot)) * 10 + std::stoi(compute_capability.substr(dot + 1));
}

struct scratch {
    fs::path dir = fs::temp_directory_path() / ("device_code_gpu_" + std::to_string(::getpid()));
    scratch() { fs::create_directories(dir); }
    ~scratch() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
};

}  // namespace

// In this process (CUDA_FORCE_PTX_JIT as ctest was started with): the code named is the documented
// choice for this device and build. On an H100 or H200 with the default or the fat build, "SASS (sm_90)".
TEST(DeviceCodeGpu, TheProvenanceNamesTheCodeTheDriverChose) {
    REQUIRE_DEVICE();
    const auto d = cuda::device_description();
    const auto embedded = parse_cuda_architectures(d.at("cuda_architectures"));
    if (!embedded) GTEST_SKIP() << "architectures '" << d.at("cuda_architectures") << "': content not known";
    const auto expected = documented_device_code(architecture_number(d.at("compute_capability")), *embedded,
                                                 ptx_jit_forced(std::getenv("CUDA_FORCE_PTX_JIT")));
    ASSERT_TRUE(expected.has_value());  // the kernels of this process loaded: some code fits
    EXPECT_EQ(d.at("device_code"), *expected) << d.at("device_name") << ", cc " << d.at("compute_capability");
}

// `port-check record` with the driver forced to JIT-compile the build's PTX: the record names the
// PTX JIT, and its velocities are the committed H200 record's (SASS) bit for bit in all nine modes.
// Why bitwise: the IEEE build leaves the JIT no freedom (no FMA contraction, correctly rounded
// division and square root, subnormals kept), and the summation order is fixed by the kernels;
// measured so on an H100 with the sm_90 build (issue #14). The paper-fast build is held to the
// port-check rounding bound instead (engine/docs/porting.md, "The rounding bound").
TEST(DeviceCodeGpu, PtxJitPortCheckRecordIsTheCommittedH200Record) {
    REQUIRE_DEVICE();
    const auto d = cuda::device_description();
    const auto embedded = parse_cuda_architectures(d.at("cuda_architectures"));
    if (!embedded) GTEST_SKIP() << "architectures '" << d.at("cuda_architectures") << "': content not known";
    const auto expected = documented_device_code(architecture_number(d.at("compute_capability")), *embedded, true);
    if (!expected)
        GTEST_SKIP() << "this build (architectures " << d.at("cuda_architectures")
                     << ") embeds no PTX that a device of compute capability " << d.at("compute_capability")
                     << " can JIT-compile: nothing to test under CUDA_FORCE_PTX_JIT=1";

    scratch s;
    const fs::path jit = s.dir / "ptx-jit.h5";
    const fs::path h200 =
        fs::path(::stokesian::test_support::project_source_dir) / "reference_data/port-check/h200-ieee.h5";
    ASSERT_TRUE(fs::is_regular_file(h200)) << h200;
    // The variable must be in the environment of the process whose CUDA driver starts, so the
    // record runs as a child with it set (this process's driver has read its environment already).
    const std::string command = "env CUDA_FORCE_PTX_JIT=1 '" + test_support::cli_program() + "' port-check record '" +
                                jit.string() + "' --backend cuda > '" + (s.dir / "log").string() + "' 2>&1";
    const int status = std::system(command.c_str());
    ASSERT_EQ(status, 0) << command << "\n" << stokesian::test_support::read_text(s.dir / "log");

    const port::port_record record = port::read_record(jit);
    EXPECT_EQ(record.device.at("device_code"), *expected);
    EXPECT_EQ(record.settings.at("CUDA_FORCE_PTX_JIT"), "1");

    const port::comparison c = port::compare(port::read_record(h200), record);
    EXPECT_TRUE(c.not_compared.empty());
    ASSERT_EQ(c.per_mode.size(), 9u);
    const bool ieee = d.at("cuda_fp_profile") == "ieee";
    for (const auto& [mode, v] : c.per_mode)
        EXPECT_TRUE(ieee ? v == port::verdict::bitwise : v != port::verdict::fail)
            << mode << ": " << port::to_string(v) << " (" << d.at("cuda_fp_profile") << " build)";
    EXPECT_TRUE(c.passed());
}
