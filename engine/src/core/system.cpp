#include "stokesian/core/system.hpp"

#include <algorithm>

namespace stokesian {

double system_parameters::short_range_cutoff() const {
    double cutoff = 0.0;
    if (lubrication.enabled) cutoff = 3.0 * radius;  // s < 1
    if (pair_force.kind != pair_force_kind::none) cutoff = std::max(cutoff, pair_force.cutoff);
    return cutoff;
}

}  // namespace stokesian
