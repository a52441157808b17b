#pragma once
// The GPUs CTest gave a test under resource allocation (ctest --resource-spec-file; ci/gpu-resources,
// tests/gpu_resources.cmake.in): CTEST_RESOURCE_GROUP_COUNT groups, group k's GPUs in
// CTEST_RESOURCE_GROUP_<k>_GPUS as "id:2,slots:1" (several allocations separated by ';').
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace stokesian::test_support {

// The distinct GPU ids of every group, in the order given; empty when no allocation was made (no
// CTEST_RESOURCE_GROUP_COUNT). `get` reads an environment variable (nullptr: unset).
inline std::vector<std::string> ctest_gpu_ids(const std::function<const char*(const std::string&)>& get) {
    std::vector<std::string> ids;
    const char* count = get("CTEST_RESOURCE_GROUP_COUNT");
    if (count == nullptr) return ids;
    const int groups = std::atoi(count);
    for (int k = 0; k < groups; ++k) {
        const char* text = get("CTEST_RESOURCE_GROUP_" + std::to_string(k) + "_GPUS");
        if (text == nullptr) continue;  // a group of another resource type
        std::istringstream allocations(text);
        for (std::string a; std::getline(allocations, a, ';');) {
            // "id:2,slots:1": the id is between "id:" and the comma.
            const std::size_t at = a.find("id:");
            if (at == std::string::npos) continue;
            const std::string id = a.substr(at + 3, a.find(',', at) - (at + 3));
            bool known = false;
            for (const std::string& i : ids) known = known || i == id;
            if (!known && !id.empty()) ids.push_back(id);
        }
    }
    return ids;
}

// "2,3": the CUDA_VISIBLE_DEVICES value for `ids`.
inline std::string visible_devices(const std::vector<std::string>& ids) {
    std::string text;
    for (const std::string& id : ids) text += (text.empty() ? "" : ",") + id;
    return text;
}

// Why a test that needs `needed` GPUs and sees `visible` must fail rather than skip: CTest's resource
// allocation pinned it to fewer GPUs than the host has (STOKESIAN_HOST_GPUS, set for the resource
// groups by tests/gpu_resources.cmake.in), so it is missing from that file's every-GPU pattern and a
// skip would hide it on every multi-GPU host. Empty where a skip is right (no allocation, or a host
// of fewer GPUs).
inline std::string gpus_withheld(int needed, int visible, const std::function<const char*(const std::string&)>& get) {
    const char* host = get("STOKESIAN_HOST_GPUS");
    if (host == nullptr || ctest_gpu_ids(get).empty()) return {};
    const int on_host = std::atoi(host);
    if (on_host < needed || visible >= needed) return {};
    return "this test needs " + std::to_string(needed) + " GPUs and the host has " + std::to_string(on_host) +
           ", but its CTest resource group gave it " + std::to_string(visible) +
           ": add it to the every-GPU pattern of tests/gpu_resources.cmake.in";
}

// The same, from this process's environment.
inline std::string gpus_withheld(int needed, int visible) {
    return gpus_withheld(needed, visible, [](const std::string& name) { return std::getenv(name.c_str()); });
}

}  // namespace stokesian::test_support
