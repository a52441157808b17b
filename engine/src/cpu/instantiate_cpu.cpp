// The one place where the CPU backend's precision modes are instantiated (all nine).
#include <memory>
#include <stdexcept>

#include "cpu_backend.hpp"
#include "cpu_engine_impl.hpp"
#include "cpu_engine_lubrication.hpp"

namespace stokesian::cpu {

hi_loop parse_hi_loop(const std::string& name) {
    if (name.empty() || name == "all-pairs") return hi_loop::all_pairs;
    if (name == "symmetric") return hi_loop::symmetric;
    throw std::invalid_argument("unknown CPU hi-kernel '" + name + "' (expected all-pairs or symmetric)");
}

#define STOKESIAN_INSTANTIATE(HI, INT) template class cpu_engine<precision_policy<precision::HI, precision::INT>>;
STOKESIAN_INSTANTIATE(f32, f32)
STOKESIAN_INSTANTIATE(f32, ds)
STOKESIAN_INSTANTIATE(f32, f64)
STOKESIAN_INSTANTIATE(ds, f32)
STOKESIAN_INSTANTIATE(ds, ds)
STOKESIAN_INSTANTIATE(ds, f64)
STOKESIAN_INSTANTIATE(f64, f32)
STOKESIAN_INSTANTIATE(f64, ds)
STOKESIAN_INSTANTIATE(f64, f64)
#undef STOKESIAN_INSTANTIATE

std::unique_ptr<engine> make_cpu_engine(const engine_config& config, const initial_state& state) {
    return dispatch_precision(config.precision, [&]<class Policy>(Policy) -> std::unique_ptr<engine> {
        return std::make_unique<cpu_engine<Policy>>(config, state);
    });
}

}  // namespace stokesian::cpu
