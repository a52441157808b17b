#include "stokesian/core/integrator.hpp"

#include <stdexcept>
#include <string>

#include "stokesian/core/errors.hpp"

namespace stokesian {

namespace {
struct named {
    integrator_kind kind;
    const char* name;
    int evaluations;
};
constexpr named integrators[] = {{integrator_kind::euler, "euler", 1},
                                 {integrator_kind::heun, "heun", 2},
                                 {integrator_kind::rk4, "rk4", 4},
                                 {integrator_kind::ab2, "ab2", 1}};
}  // namespace

std::string_view to_string(integrator_kind k) noexcept {
    for (const auto& i : integrators)
        if (i.kind == k) return i.name;
    return "?";
}

int evaluations_per_step(integrator_kind k) noexcept {
    for (const auto& i : integrators)
        if (i.kind == k) return i.evaluations;
    return 1;
}

integrator_kind parse_integrator(std::string_view name) {
    for (const auto& i : integrators)
        if (name == i.name) return i.kind;
    throw std::invalid_argument("unknown integrator '" + echoed(name) + "' (expected euler, heun, rk4 or ab2)");
}

}  // namespace stokesian
