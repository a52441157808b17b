#pragma once
// Host side of test_tensor_kernels.cu: the CUDA HI kernels instantiated by the tests with the
// test-only tensor (support/test_tensor.hpp), through the engine's launch helpers.
#include <string>
#include <vector>

#include "stokesian/numeric/precision.hpp"
#include "support/test_tensor.hpp"

namespace stokesian::test_support {

// The initial velocities of s (open box, a = mu0 = 1) by the named HI kernel, accumulated in hi.
std::vector<vec3<double>> squared_distance_velocities_on_device(const std::string& kernel, precision hi,
                                                                const integer_system& s);

}  // namespace stokesian::test_support
