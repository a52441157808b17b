#pragma once
// The recipe proof's test-only backend "recipe" (engine/README.md, "How to add a backend"), a layer
// of its own added by CMake's STOKESIAN_EXTRA_BACKENDS: a serial all-pairs sum in double on the host
// (hi=f64, int=f64, Euler, no short-range forces), v_i = sum_j mu_ij F_j in index order.
#include <memory>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/mobility_operator.hpp"

namespace stokesian::recipe {

std::unique_ptr<engine> make_recipe_engine(const engine_config& config, const initial_state& state);
std::unique_ptr<mobility_operator> make_recipe_mobility_operator(const system_parameters& system,
                                                                 const std::vector<vec3<double>>& positions);

}  // namespace stokesian::recipe
