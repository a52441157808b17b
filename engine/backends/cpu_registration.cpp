// The CPU backend in the registry: every integrator, scheme, size and precision mode, batches; runs
// on the host (no device list) and splits its targets over MPI ranks (device_context::ranks).
#include "builtin_backends.hpp"
#include "stokesian/cpu/cpu_backend.hpp"
#include "stokesian/cpu/cpu_batch.hpp"
#include "stokesian/cpu/phase_benchmark.hpp"

namespace stokesian::backends {

void register_cpu_backend(registry& r) {
    backend b;
    b.name = "cpu";
    b.title = "the CPU backend";
    b.can.hi_kernels = {"all-pairs", "symmetric"};
    b.can.cpu_order_kernels = {"all-pairs"};  // symmetric adds each pair's two terms in another order
    b.can.batches = b.can.batches_runs = true;
    b.can.ranks = true;
    b.auto_preference = 0;  // the fallback: runs everywhere
    b.make_engine = [](const engine_config& config, const device_context& device, const initial_state& state) {
        return cpu::make_cpu_engine(config, state, device.ranks);
    };
    b.make_batch = [](const engine_config& config, const device_context&, const std::vector<batch_member>& members) {
        return cpu::make_cpu_batch_engine(config, members);
    };
    b.make_mobility = [](const system_parameters& system, const std::vector<vec3<double>>& positions,
                         const device_context&,
                         unsigned threads) { return cpu::make_cpu_mobility_operator(system, positions, threads); };
    b.time_phases = [](engine_config config, const initial_state& state, const phase_run& run) {
        if (request_of(config.hi_kernel) != kernel_request::named) config.hi_kernel = "";  // the default loop
        return cpu::time_phases(config, state, run);
    };
    r.add(std::move(b));
}

}  // namespace stokesian::backends
