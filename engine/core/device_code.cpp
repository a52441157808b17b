// Which machine code of a CUDA fat binary ran (see stokesian/core/device_code.hpp).
#include "stokesian/core/device_code.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace stokesian {

namespace {

void insert_sorted(std::vector<int>& list, int arch) {
    const auto at = std::lower_bound(list.begin(), list.end(), arch);
    if (at == list.end() || *at != arch) list.insert(at, arch);
}

std::string sass_name(int arch) { return "SASS (sm_" + std::to_string(arch) + ")"; }
std::string jit_name(int arch) { return "PTX JIT (compute_" + std::to_string(arch) + ")"; }

}  // namespace

std::optional<embedded_device_code> parse_cuda_architectures(std::string_view cmake_list) {
    embedded_device_code code;
    while (!cmake_list.empty()) {
        const std::size_t end = std::min(cmake_list.find_first_of(";,"), cmake_list.size());
        std::string_view entry = cmake_list.substr(0, end);
        cmake_list.remove_prefix(std::min(end + 1, cmake_list.size()));
        if (entry.empty()) continue;
        bool sass = true, ptx = true;
        if (entry.ends_with("-real")) {
            entry.remove_suffix(5);
            ptx = false;
        } else if (entry.ends_with("-virtual")) {
            entry.remove_suffix(8);
            sass = false;
        }
        // Digits only: "all", "native" and the arch-specific 90a/100f (which run on one
        // architecture or family only, a rule this parser does not model) are unknown content.
        int arch = 0;
        const auto [rest, error] = std::from_chars(entry.data(), entry.data() + entry.size(), arch);
        if (error != std::errc() || rest != entry.data() + entry.size() || arch < 10) return std::nullopt;
        if (sass) insert_sorted(code.sass, arch);
        if (ptx) insert_sorted(code.ptx, arch);
    }
    if (code.sass.empty() && code.ptx.empty()) return std::nullopt;
    return code;
}

bool ptx_jit_forced(const char* value) {
    if (value == nullptr || *value == '\0') return false;
    char* end = nullptr;
    const long v = std::strtol(value, &end, 10);
    return end != value && v != 0;
}

std::string device_code_name(int binary_version, int ptx_version, int compute_capability,
                             const std::optional<embedded_device_code>& embedded, bool jit_forced) {
    // The JIT compiles for the device it runs on: machine code for another architecture can only
    // be embedded SASS (of the same major version, lower minor: binary compatibility).
    if (binary_version != compute_capability) return sass_name(binary_version);
    if (jit_forced) return jit_name(ptx_version);
    if (!embedded)
        return sass_name(binary_version) + " or " + jit_name(ptx_version) +
               " (the build's architectures are not known)";
    const bool has_sass = std::binary_search(embedded->sass.begin(), embedded->sass.end(), compute_capability);
    return has_sass ? sass_name(binary_version) : jit_name(ptx_version);
}

std::optional<std::string> documented_device_code(int compute_capability, const embedded_device_code& embedded,
                                                  bool jit_forced) {
    if (!jit_forced)
        for (auto it = embedded.sass.rbegin(); it != embedded.sass.rend(); ++it)
            if (*it / 10 == compute_capability / 10 && *it <= compute_capability) return sass_name(*it);
    for (auto it = embedded.ptx.rbegin(); it != embedded.ptx.rend(); ++it)
        if (*it <= compute_capability) return jit_name(*it);
    return std::nullopt;
}

}  // namespace stokesian
