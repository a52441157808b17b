#pragma once
// Integrators are replaceable parts: each is a function template over the backend's step
// primitives ("ops"), so the CPU and CUDA backends share it.
//   ops.drift(c)            r <- r + c dt v   (positions in the integration precision, then wrapped)
//   ops.update_forces()     F <- F_ext + sum_j F_int - sum_j zeta_sing . (v_i - v_j)  (previous v)
//   ops.update_velocities() v <- mu . F
#include <cstdint>
#include <string>
#include <string_view>

namespace stokesian {

enum class integrator_kind : std::uint8_t { euler };

std::string_view to_string(integrator_kind k) noexcept;
integrator_kind parse_integrator(std::string_view name);  // throws std::invalid_argument

// The paper's scheme (Section 3.1): explicit Euler with lubrication from the previous velocities.
struct explicit_euler {
    template <class Ops>
    static void step(Ops& ops) {
        ops.drift();
        ops.update_forces();
        ops.update_velocities();
    }
};

}  // namespace stokesian
