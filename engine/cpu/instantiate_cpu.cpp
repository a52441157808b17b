// The one place where the CPU backend's precision modes are instantiated (all of the list).
#include <memory>
#include <stdexcept>

#include "cpu_engine_impl.hpp"
#include "cpu_engine_lubrication.hpp"
#include "stokesian/cpu/cpu_backend.hpp"

namespace stokesian::cpu {

hi_loop parse_hi_loop(const std::string& name) {
    if (name.empty() || name == "all-pairs") return hi_loop::all_pairs;
    if (name == "symmetric") return hi_loop::symmetric;
    throw std::invalid_argument("unknown CPU hi-kernel '" + name + "' (expected all-pairs or symmetric)");
}

STOKESIAN_INSTANTIATE_FOR_EACH_PRECISION_MODE(cpu_engine)

std::unique_ptr<engine> make_cpu_engine(const engine_config& config, const initial_state& state, communicator* ranks) {
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) -> std::unique_ptr<engine> {
        return std::make_unique<cpu_engine<Policy>>(config, state, ranks);
    });
}

}  // namespace stokesian::cpu
