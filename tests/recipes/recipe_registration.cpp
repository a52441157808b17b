// The test-only backend "recipe" in the registry (engine/README.md, "How to add a backend"): what it
// runs, as capabilities; never chosen by auto.
#include "stokesian/backends/backend_extensions.hpp"
#include "stokesian/recipe/recipe_backend.hpp"

namespace stokesian::backends {

void register_recipe_backend(registry& r) {
    backend b;
    b.name = "recipe";
    b.title = "the recipe proof's backend";
    b.can.integrators = {integrator_kind::euler};
    b.can.precision_modes = {reference_precision_mode};
    b.can.hi_kernels = {"serial"};
    b.can.pair_tensors_only = true;
    b.make_engine = [](const engine_config& config, const device_context&, const initial_state& state) {
        return recipe::make_recipe_engine(config, state);
    };
    b.make_mobility = [](const system_parameters& system, const std::vector<vec3<double>>& positions,
                         const device_context&,
                         unsigned) { return recipe::make_recipe_mobility_operator(system, positions); };
    r.add(std::move(b));
}

}  // namespace stokesian::backends
