#include "stokesian/core/system.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace stokesian {

std::string_view to_string(lubrication_scheme s) noexcept {
    return s == lubrication_scheme::implicit_solve ? "implicit" : "explicit";
}

lubrication_scheme parse_lubrication_scheme(std::string_view name) {
    if (name == "explicit") return lubrication_scheme::explicit_update;
    if (name == "implicit") return lubrication_scheme::implicit_solve;
    throw std::invalid_argument("unknown lubrication scheme '" + std::string(name) +
                                "' (expected explicit or implicit)");
}

double system_parameters::short_range_cutoff() const {
    double cutoff = 0.0;
    if (lubrication.enabled) cutoff = 3.0 * radius;  // s < 1
    if (pair_force.kind != pair_force_kind::none) cutoff = std::max(cutoff, pair_force.cutoff);
    return cutoff;
}

}  // namespace stokesian
