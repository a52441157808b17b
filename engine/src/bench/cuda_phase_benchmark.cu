#include "stokesian/bench/cuda_phase_benchmark.hpp"

#include <stdexcept>

#include "cuda/cuda_engine.cuh"
#include "cuda/phase_event_timer.cuh"

namespace stokesian::cuda {

phase_timing time_phases(const engine_config& config, const initial_state& state, const phase_run& run) {
    if (parse_hi_kernel(config.hi_kernel) == hi_kernel::fused)
        throw std::invalid_argument(
            "phase timing needs a step-by-step hi-kernel (naive, tiling, small-tiling, "
            "multi-target): the fused path runs whole steps inside one launch");
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) {
        cuda_engine<Policy> engine(config, device_context{}, state);  // instantiated in cuda_engine.cu
        phase_event_timer timer;
        return run_phase_benchmark(engine, timer, run);
    });
}

}  // namespace stokesian::cuda
