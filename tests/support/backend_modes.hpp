#pragma once
// The parameters of the conformance tests (tests/README.md, "Conformance tests"): every backend the
// registry holds, in every precision mode it runs, so that one test body checks each backend and a
// backend registered later is checked without a test of its own. The host backends run in the unit
// binary (label quick), the device backends in the GPU binary (label gpu). Making the list touches
// no device (gtest_discover_tests lists the tests at build time): the body asks whether its backend
// can run here (skip_reason).
#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/precision_modes.hpp"

namespace stokesian::test_support {

struct backend_mode {
    std::string backend;
    precision_mode mode;
};

inline std::ostream& operator<<(std::ostream& out, const backend_mode& p) {
    return out << p.backend << " " << to_string(p.mode);
}

enum class backend_place { host, device };

// Every registered backend computing at `place`, except `except` (the oracle of a comparison), with
// every mode it runs (capabilities::precision_modes; empty: all nine), in registration order.
inline std::vector<backend_mode> registered_backend_modes(backend_place place, const std::string& except = "") {
    std::vector<backend_mode> list;
    for (const backends::backend& b : backends::backend_registry().all()) {
        if ((b.can.devices > 0) != (place == backend_place::device) || b.name == except) continue;
        const std::vector<precision_mode> modes =
            b.can.precision_modes.empty() ? std::vector<precision_mode>(precision_modes.begin(), precision_modes.end())
                                          : b.can.precision_modes;
        for (const precision_mode& m : modes) list.push_back({b.name, m});
    }
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
