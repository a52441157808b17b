// Backend selection: the single place that knows which backends this build has.
#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_batch.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "cuda/cuda_check.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#endif

namespace stokesian {

namespace {

// The backend a configuration names, with "auto" resolved (CUDA when a device is present,
// otherwise the CPU with a notice; the CPU then uses its own default HI kernel). Throws for a
// backend this build lacks or does not know.
engine_config resolve_backend(const engine_config& config, const char* what) {
    engine_config resolved = config;
    if (config.backend == "cpu") return resolved;
    if (config.backend == "cuda") {
        // An environment that cannot run the request is the user's to change: exit code 2.
#if defined(STOKESIAN_HAVE_CUDA)
        if (!cuda::device_available())
            throw input_error("", "run.backend", "cuda",
                              "no CUDA device is available here (use cpu, or auto to fall back)");
        return resolved;
#else
        throw input_error("", "run.backend", "cuda", "this build of stokesian has no CUDA backend (use cpu or auto)");
#endif
    }
    if (config.backend != "auto")
        throw std::invalid_argument("unknown backend '" + config.backend + "' (expected cpu, cuda or auto)");
#if defined(STOKESIAN_HAVE_CUDA)
    if (cuda::device_available()) {
        resolved.backend = "cuda";
        return resolved;
    }
    std::cerr << "stokesian: no CUDA device found, running " << what << " on the CPU backend\n";
#else
    std::cerr << "stokesian: this build has no CUDA backend, running " << what << " on the CPU backend\n";
#endif
    resolved.backend = "cpu";
    resolved.hi_kernel = "";
    return resolved;
}

}  // namespace

std::unique_ptr<engine> make_engine(const engine_config& config, const initial_state& state) {
    const engine_config c = resolve_backend(config, "the run");
#if defined(STOKESIAN_HAVE_CUDA)
    if (c.backend == "cuda") {
        try {
            return cuda::make_cuda_engine(c, state);
        } catch (const cuda::device_out_of_memory& e) {
            // A system too large for the device is the input's fault, not the program's.
            throw input_error("backend 'cuda'", "", "",
                              std::string(e.what()) + " for N = " + std::to_string(state.size()) +
                                  " particles (a smaller system, or a device with more memory)");
        }
    }
#endif
    return cpu::make_cpu_engine(c, state);
}

namespace {

// Checks that do not depend on the backend (stokesian/core/batch.hpp).
void validate_batch(const std::vector<batch_member>& members) {
    if (members.empty()) throw std::invalid_argument("make_batch_engine: the batch is empty (no members)");
    const std::size_t n = members.front().state.size();
    for (std::size_t k = 0; k < members.size(); ++k) {
        const batch_member& m = members[k];
        const std::string which = "make_batch_engine: member " + std::to_string(k);
        if (m.state.size() == 0) throw std::invalid_argument(which + " has no particles");
        if (m.state.size() != n)
            throw std::invalid_argument(which + " has " + std::to_string(m.state.size()) + " particles, member 0 has " +
                                        std::to_string(n) + " (all members of a batch have the same N)");
        if (m.state.external_forces.size() != m.state.size())
            throw std::invalid_argument(which + " has " + std::to_string(m.state.external_forces.size()) +
                                        " external forces for " + std::to_string(m.state.size()) + " particles");
        if (!(std::isfinite(m.dt) && m.dt > 0.0))
            throw std::invalid_argument(which + ": dt = " + std::to_string(m.dt) + " (expected a finite dt > 0)");
    }
}

}  // namespace

std::unique_ptr<batch_engine> make_batch_engine(const engine_config& config, const std::vector<batch_member>& members) {
    validate_batch(members);
    const engine_config c = resolve_backend(config, "the batch");
#if defined(STOKESIAN_HAVE_CUDA)
    if (c.backend == "cuda") return cuda::make_cuda_batch_engine(c, members);
#endif
    return cpu::make_cpu_batch_engine(c, members);
}

}  // namespace stokesian
