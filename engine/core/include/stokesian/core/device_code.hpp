#pragma once
// Which machine code of a CUDA fat binary a device ran: the SASS of one architecture, or PTX that
// the driver compiled just in time. Plain C++ (no CUDA header): the cuda layer asks the runtime
// (cudaFuncGetAttributes, cuda/device_info.cu) and names the answer with device_code_name(); the
// rule and its sources are in engine/docs/porting.md, "Which machine code ran".
// Architectures are numbered as the CUDA runtime does: major * 10 + minor (sm_90 and 9.0: 90).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stokesian {

// The code a build embeds, from its CMAKE_CUDA_ARCHITECTURES list ("80-real;90;120", or with commas
// as the build records it: "80-real,90,120"): an entry
// N or Na/Nf gives SASS and PTX, N-real SASS only, N-virtual PTX only. nullopt for a list this
// parser cannot read ("all", "native", a malformed entry): the build's content is then unknown.
struct embedded_device_code {
    std::vector<int> sass, ptx;  // ascending, without duplicates
};
std::optional<embedded_device_code> parse_cuda_architectures(std::string_view cmake_list);

// True when the environment variable CUDA_FORCE_PTX_JIT (value, or null when unset) makes the
// driver ignore the embedded SASS. The documented values are 0 and 1; any other non-zero integer
// is read as 1.
bool ptx_jit_forced(const char* value);

// The name of the code that ran, from what the runtime reported for a kernel of the build
// (cudaFuncAttributes::binaryVersion and ::ptxVersion), the device's compute capability, the
// build's embedded code (nullopt: unknown) and CUDA_FORCE_PTX_JIT:
//   "SASS (sm_86)"          the build's machine code for sm_86 ran;
//   "PTX JIT (compute_90)"  the driver compiled the build's compute_90 PTX for this device.
// The rule (porting.md): a JIT compilation targets the device itself, so binary_version below
// the device's compute capability is embedded SASS run by binary compatibility; when the two are
// equal, the code is PTX JIT if CUDA_FORCE_PTX_JIT forced it or the build embeds no SASS for that
// architecture, else the SASS. When the build's content is unknown and nothing forced the JIT, the
// name says both are possible.
std::string device_code_name(int binary_version, int ptx_version, int compute_capability,
                             const std::optional<embedded_device_code>& embedded, bool jit_forced);

// The code the driver is documented to choose for a device (porting.md): with JIT not forced the
// SASS of the highest embedded architecture of the device's major version not above it, else the
// PTX of the highest embedded virtual architecture not above the device (JIT), else nothing
// (nullopt: the kernels cannot load). A prediction from the documentation, against which the gpu
// tests hold what device_code_name() derives from the runtime's answer.
std::optional<std::string> documented_device_code(int compute_capability, const embedded_device_code& embedded,
                                                  bool jit_forced);

}  // namespace stokesian
