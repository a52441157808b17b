// Backend selection: the single place that knows which backends this build has.
#include <iostream>
#include <stdexcept>

#include "cpu/cpu_backend.hpp"
#include "stokesian/core/engine.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "cuda/cuda_backend.hpp"
#endif

namespace stokesian {

std::unique_ptr<engine> make_engine(const engine_config& config, const initial_state& state) {
    if (config.backend == "cpu") return cpu::make_cpu_engine(config, state);
    if (config.backend == "cuda") {
#if defined(STOKESIAN_HAVE_CUDA)
        return cuda::make_cuda_engine(config, state);
#else
        throw std::invalid_argument("backend 'cuda': this build of stokesian has no CUDA backend");
#endif
    }
    if (config.backend == "auto") {
        engine_config resolved = config;
#if defined(STOKESIAN_HAVE_CUDA)
        if (cuda::device_available()) {
            resolved.backend = "cuda";
            return cuda::make_cuda_engine(resolved, state);
        }
        std::cerr << "stokesian: no CUDA device found, running on the CPU backend\n";
#else
        std::cerr << "stokesian: this build has no CUDA backend, running on the CPU backend\n";
#endif
        resolved.backend = "cpu";
        resolved.hi_kernel = "";
        return cpu::make_cpu_engine(resolved, state);
    }
    throw std::invalid_argument("unknown backend '" + config.backend + "' (expected cpu, cuda or auto)");
}

}  // namespace stokesian
