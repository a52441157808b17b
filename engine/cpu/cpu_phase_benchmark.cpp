#include "stokesian/cpu/phase_benchmark.hpp"

#include "cpu_engine.hpp"
#include "phase_clock.hpp"

namespace stokesian::cpu {

phase_timing time_phases(const engine_config& config, const initial_state& state, const phase_run& run) {
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) {
        cpu_engine<Policy> engine(config, state);  // instantiated in instantiate_cpu.cpp
        phase_clock timer;
        return run_phase_benchmark(engine, timer, run);
    });
}

}  // namespace stokesian::cpu
