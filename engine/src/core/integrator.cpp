#include "stokesian/core/integrator.hpp"

#include <stdexcept>
#include <string>

namespace stokesian {

std::string_view to_string(integrator_kind k) noexcept {
    switch (k) {
        case integrator_kind::euler: return "euler";
    }
    return "?";
}

integrator_kind parse_integrator(std::string_view name) {
    if (name == "euler") return integrator_kind::euler;
    throw std::invalid_argument("unknown integrator '" + std::string(name) + "' (expected euler)");
}

}  // namespace stokesian
