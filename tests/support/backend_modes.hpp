#pragma once
// The parameters of the conformance tests (tests/README.md, "Conformance tests"): every backend the
// registry holds, in every precision mode it runs, so that one test body checks each backend and a
// backend registered later is checked without a test of its own. The host backends run in the unit
// binary (label quick), the device backends in the GPU binary (label gpu). Making the list touches
// no device (gtest_discover_tests lists the tests at build time): the body asks whether its backend
// can run here (skip_reason).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iterator>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/precision_modes.hpp"

namespace stokesian {

// How gtest prints a precision-mode parameter ("hi=ds,int=f32").
inline void PrintTo(const precision_mode& m, std::ostream* out) { *out << to_string(m); }

}  // namespace stokesian

namespace stokesian::test_support {

struct backend_mode {
    std::string backend;
    precision_mode mode;
};

inline std::ostream& operator<<(std::ostream& out, const backend_mode& p) {
    return out << p.backend << " " << to_string(p.mode);
}

enum class backend_place { host, device };

// Every mode `b` runs (capabilities::precision_modes; empty: all nine).
inline std::vector<precision_mode> modes_of(const backends::backend& b) {
    return b.can.precision_modes.empty() ? std::vector<precision_mode>(precision_modes.begin(), precision_modes.end())
                                         : b.can.precision_modes;
}

// Every registered backend computing at `place`, except `except` (the oracle of a comparison), with
// every mode it runs, in registration order.
inline std::vector<backend_mode> registered_backend_modes(backend_place place, const std::string& except = "") {
    std::vector<backend_mode> list;
    for (const backends::backend& b : backends::backend_registry().all()) {
        if ((b.can.devices > 0) != (place == backend_place::device) || b.name == except) continue;
        for (const precision_mode& m : modes_of(b)) list.push_back({b.name, m});
    }
    return list;
}

// The parameter of a suite whose axis is also the HI kernel: a backend, one of its kernels, a mode.
struct backend_kernel_mode {
    std::string backend;
    std::string kernel;
    precision_mode mode;
};

inline std::ostream& operator<<(std::ostream& out, const backend_kernel_mode& p) {
    return out << p.backend << " " << p.kernel << " " << to_string(p.mode);
}

// Which of a backend's kernels: every one, those that sum in the CPU's order (bit for bit the CPU
// where the arithmetic is, the kernels auto picks among) or those built with fast math (fast's).
// The classes are the registry's (backends::cuda_kernel_candidates); the CPU's own loops are in
// neither.
enum class kernel_kind { every, cpu_order, fast_math };

// The HI kernels `b` registers (capabilities::hi_kernels less the requests auto and fast) of `kind`.
inline std::vector<std::string> registered_kernels(const backends::backend& b, kernel_kind kind) {
    const backends::kernel_candidates classes = backends::cuda_kernel_candidates();
    const std::vector<std::string>& of_kind = kind == kernel_kind::cpu_order ? classes.exact : classes.fast;
    std::vector<std::string> list;
    for (std::size_t k = std::size(backends::hi_kernel_requests); k < b.can.hi_kernels.size(); ++k) {
        const std::string& name = b.can.hi_kernels[k];
        if (kind == kernel_kind::every || std::find(of_kind.begin(), of_kind.end(), name) != of_kind.end())
            list.push_back(name);
    }
    return list;
}

// registered_backend_modes with the kernel as a third axis: every registered backend at `place` but
// `except`, each of its kernels of `kind`, every mode it runs.
inline std::vector<backend_kernel_mode> registered_backend_kernel_modes(backend_place place, kernel_kind kind,
                                                                        const std::string& except = "") {
    std::vector<backend_kernel_mode> list;
    for (const backends::backend& b : backends::backend_registry().all()) {
        if ((b.can.devices > 0) != (place == backend_place::device) || b.name == except) continue;
        for (const std::string& kernel : registered_kernels(b, kind))
            for (const precision_mode& m : modes_of(b)) list.push_back({b.name, kernel, m});
    }
    return list;
}

// The parameters of `list` whose mode is one of `modes` (a behaviour stated for some modes only).
template <class Parameter>
std::vector<Parameter> in_modes(std::vector<Parameter> list, std::span<const precision_mode> modes) {
    std::erase_if(list,
                  [&](const Parameter& p) { return std::find(modes.begin(), modes.end(), p.mode) == modes.end(); });
    return list;
}

// The parameters of `list` whose backend runs batches (capabilities::batches, core/batch.hpp).
template <class Parameter>
std::vector<Parameter> batching(std::vector<Parameter> list) {
    std::erase_if(list, [](const Parameter& p) {
        const backends::backend* b = backends::backend_registry().find(p.backend);
        return b == nullptr || !b->can.batches;
    });
    return list;
}

// The test's name suffix: backend and mode, hi then int ("cpu_f64_f64", "cuda_fused_ds_f32").
inline std::string backend_mode_name(const testing::TestParamInfo<backend_mode>& info) {
    std::string name = info.param.backend + "_" + std::string(to_string(info.param.mode.hi)) + "_" +
                       std::string(to_string(info.param.mode.integration));
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

// The name suffix of a suite over the precision modes alone: hi then int ("ds_f32").
inline std::string precision_mode_name(const testing::TestParamInfo<precision_mode>& info) {
    return std::string(to_string(info.param.hi)) + "_" + std::string(to_string(info.param.integration));
}

// "cuda_small_tiling_f64_f64": backend, kernel, then the mode as backend_mode_name spells it.
inline std::string backend_kernel_mode_name(const testing::TestParamInfo<backend_kernel_mode>& info) {
    const testing::TestParamInfo<backend_mode> without_kernel(
        {info.param.backend + "_" + info.param.kernel, info.param.mode}, info.index);
    return backend_mode_name(without_kernel);
}

// `config` for the parameter's backend and mode, on the backend's default HI kernel (its first, after
// the requests auto and fast: the exact kernel the backend runs unless asked for another).
inline engine_config on_backend(engine_config config, const backend_mode& p) {
    const backends::backend* b = backends::backend_registry().find(p.backend);
    config.backend = p.backend;
    config.precision = p.mode;
    const std::size_t requests = std::size(backends::hi_kernel_requests);
    config.hi_kernel = b != nullptr && b->can.hi_kernels.size() > requests ? b->can.hi_kernels[requests] : "";
    return config;
}

// `config` for the parameter's backend, kernel and mode.
inline engine_config on_backend(engine_config config, const backend_kernel_mode& p) {
    config.backend = p.backend;
    config.hi_kernel = p.kernel;
    config.precision = p.mode;
    return config;
}

// Why the parameter's backend cannot run `config` with `particles` particles here (not built, no
// device, a configuration it refuses); empty when it can. The body skips with it.
inline std::string skip_reason(const engine_config& config, std::size_t particles) {
    const backends::backend* b = backends::backend_registry().find(config.backend);
    if (b == nullptr) return "backend " + config.backend + " is not registered";
    const backends::availability a = backends::check_availability(*b);
    if (!a.available) return b->title + ": " + a.refusal;
    const std::string refused = b->can.refusal(config, particles);
    return refused.empty() ? "" : b->title + " " + refused;
}

}  // namespace stokesian::test_support
