#pragma once
// What every hydrodynamic tensor evaluator (physics/tensors/) works with: the mobility parameters
// and the coefficients (A, B) of the form
//     mu_ij . F_j = mu0 [ A(r) F_j + B(r) (r . F_j) r ],   r = r_i - r_j  (minimum image),
// so that one evaluation of the coefficients serves both mu_ij and mu_ji = mu_ij^T (the tensor is
// even in r), which the symmetric CPU reference path exploits.
#include <cstdint>

#include "stokesian/config.hpp"
#include "stokesian/physics/ewald_parameters.hpp"
#include "stokesian/physics/math.hpp"

namespace stokesian {

// The run-time key of a tensor (the scenario's physics.tensor). Its values and their evaluator
// types are listed in one place, physics/tensor_registry.hpp.
enum class hydrodynamic_tensor : std::uint8_t;

// Stokes self-mobility mu0 = 1 / (6 pi eta a) (paper, after Eq. (rotneMobility)).
inline double stokes_self_mobility(double viscosity, double radius) {
    return 1.0 / (6.0 * 3.14159265358979323846 * viscosity * radius);
}

template <class W>
struct mobility_parameters {
    W radius;         // a
    W self_mobility;  // mu0
    hydrodynamic_tensor tensor;
    W inverse_radius;  // 1/a (the overlap form multiplies by it: no division per pair)
    // The Ewald sum's box, splitting and truncations (tensor "rpy-ewald" only; zero otherwise:
    // core/system.hpp, make_interaction_parameters, fills it).
    ewald_parameters<W> ewald;
};

template <class W>
STOKESIAN_HD_INLINE mobility_parameters<W> make_mobility_parameters(W radius, W self_mobility,
                                                                    hydrodynamic_tensor tensor) {
    mobility_parameters<W> p{};
    p.radius = radius;
    p.self_mobility = self_mobility;
    p.tensor = tensor;
    p.inverse_radius = W(1) / radius;
    return p;
}

// Coefficients of a pair tensor, in units of mu0: mu_ij = mu0 [A I + B r r].
template <class W>
struct pair_tensor {
    W identity;  // A
    W dyadic;    // B (the r r coefficient, i.e. the rhat rhat coefficient divided by r^2)
};

// r and 1/r from r^2. Exact (Fast = false, every backend's default): the correctly rounded square
// root, then the correctly rounded reciprocal, so CPU and GPU agree bit for bit. Fast (the "fast-*"
// CUDA kernels): the hardware reciprocal square root and r = r^2 (1/r), one special-function
// instruction instead of two multi-instruction IEEE sequences, a few ulp less accurate.
template <class W, bool Fast = false>
STOKESIAN_HD_INLINE void distance_and_inverse(W r2, W& r, W& inv_r) {
    if constexpr (Fast) {
        inv_r = math::rsqrt_fast(r2);
        r = r2 * inv_r;
    } else {
        math::sqrt_and_reciprocal(r2, r, inv_r);
    }
}

}  // namespace stokesian
