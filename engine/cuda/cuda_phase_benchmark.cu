#include "stokesian/cuda/phase_benchmark.hpp"

#include <stdexcept>

#include "cuda_engine.cuh"
#include "multi_device_engine.cuh"
#include "phase_event_timer.cuh"
#include "stokesian/cuda/cuda_backend.hpp"

namespace stokesian::cuda {

namespace {
void check_step_kernel(const engine_config& config) {
    if (parse_hi_kernel(config.hi_kernel) == hi_kernel::fused)
        throw std::invalid_argument(
            "phase timing needs a step-by-step hi-kernel (naive, tiling, small-tiling, ...): "
            "the fused path runs whole steps inside one launch");
}
}  // namespace

phase_timing time_phases(const engine_config& config, const initial_state& state, const phase_run& run) {
    check_step_kernel(config);
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) {
        cuda_engine<Policy> engine(config, device_context{}, state);  // instantiated in cuda_engine.cu
        phase_event_timer timer;
        return run_phase_benchmark(engine, timer, run);
    });
}

device_phase_timing time_phases_on_devices(const engine_config& config, const initial_state& state,
                                           const phase_run& run, const std::vector<int>& ordinals) {
    check_step_kernel(config);
    check_device_ordinals(ordinals);
    device_context device;
    device.ordinals = ordinals.empty() ? std::vector<int>{0} : ordinals;
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) {
        device_phase_timing t;
        if (device.ordinals.size() == 1) {
            cuda_engine<Policy> engine(config, device, state);
            phase_event_timer timer;
            t.phases = run_phase_benchmark(engine, timer, run);
            return t;
        }
        multi_device_engine<Policy> engine(config, device, state);  // instantiated in multi_device_engine.cu
        phase_event_timer timer;
        t.phases = run_phase_benchmark(engine, timer, run);
        if (t.phases.steps > 0) t.communication_ms = engine.take_communication_ms() / double(t.phases.steps);
        return t;
    });
}

}  // namespace stokesian::cuda
