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

std::string_view to_string(lubrication_model m) noexcept {
    return m == lubrication_model::two_body ? "two-body" : "paper";
}

lubrication_model parse_lubrication_model(std::string_view name) {
    if (name == "paper") return lubrication_model::paper;
    if (name == "two-body") return lubrication_model::two_body;
    throw std::invalid_argument("unknown lubrication model '" + std::string(name) + "' (expected paper or two-body)");
}

std::string lubrication_model_refusal(const system_parameters& s) {
    if (!s.lubrication.enabled || s.lubrication.model != lubrication_model::two_body) return {};
    if (s.lubrication.scheme != lubrication_scheme::implicit_solve)
        return "physics.lubrication.model = \"two-body\" needs scheme = \"implicit\": the explicit scheme diverges "
               "once the spectral radius of zeta mu exceeds 1, which the exact near-contact resistance always "
               "reaches (engine/docs/lubrication.md)";
    if (s.tensor != hydrodynamic_tensor::rotne_prager)
        return "physics.lubrication.model = \"two-body\" subtracts the Rotne-Prager two-body mobility; tensor = \"" +
               std::string(to_string(s.tensor)) + "\" is not supported with it (use \"rotne-prager\")";
    return {};
}

double system_parameters::short_range_cutoff() const {
    double cutoff = 0.0;
    if (lubrication.enabled)  // paper: s < 1; two-body: the tapered cutoff (physics/two_body_lubrication.hpp)
        cutoff = lubrication.model == lubrication_model::two_body ? two_body_lubrication_cutoff * radius : 3.0 * radius;
    if (pair_force.kind != pair_force_kind::none) cutoff = std::max(cutoff, pair_force.cutoff);
    return cutoff;
}

}  // namespace stokesian
