#include "stokesian/cuda/phase_benchmark.hpp"

#include <stdexcept>

#include "cuda_engine.cuh"
#include "event_times.cuh"
#include "multi_device_engine.cuh"
#include "phase_event_timer.cuh"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/fused_backend.hpp"

namespace stokesian::cuda {

namespace {
bool runs_fused(const engine_config& config) { return parse_hi_kernel(config.hi_kernel) == hi_kernel::fused; }

// A chunk of steps' launches timed between two CUDA events (milliseconds).
constexpr auto time_launches_ms = [](auto&& advance) { return bench::event_times_ms(1, advance).front(); };
}  // namespace

phase_timing time_phases(const engine_config& config, const initial_state& state, const phase_run& run) {
    if (runs_fused(config)) {
        // Many steps a launch, no phases: each timed chunk's launches between two CUDA events.
        const std::unique_ptr<fused_engine> engine = make_fused_engine(config, state);
        return run_whole_step_benchmark(*engine, time_launches_ms, run);
    }
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) {
        cuda_engine<Policy> engine(config, device_context{}, state);  // instantiated in cuda_engine.cu
        // Two events a phase cost a step ~4 us of its own: the whole step is timed again without them.
        phase_event_timer timer;
        return run_phase_and_whole_step_benchmark(engine, timer, time_launches_ms, run);
    });
}

device_phase_timing time_phases_on_devices(const engine_config& config, const initial_state& state,
                                           const phase_run& run, const std::vector<int>& ordinals) {
    if (runs_fused(config))
        throw std::invalid_argument(
            "the fused engine has no phases for the scaling table: time its whole steps on several devices with "
            "bench steps --devices");
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
