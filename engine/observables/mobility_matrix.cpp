#include "stokesian/observables/mobility_matrix.hpp"

#include "stokesian/physics/interactions.hpp"

namespace stokesian {

dense_matrix mobility_matrix(const std::vector<vec3<double>>& positions, const system_parameters& system) {
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    return dispatch_tensor(system.tensor, [&]<class Tensor>(Tensor) {
        return build_mobility_matrix(positions.size(), [&](std::size_t i, std::size_t j, vec3<double> unit_force) {
            return hydrodynamic_contribution<Tensor>(i == j, positions[i], positions[j], unit_force, p);
        });
    });
}

}  // namespace stokesian
