#include "observables_impl.hpp"

namespace stokesian {

std::vector<std::unique_ptr<observable>> make_observables(const scenario& s) {
    // Time series keep at most ~4096 points (decimated_series.hpp).
    const std::uint64_t samples = s.run.total_steps() / s.run.sample_interval_steps() + 1;
    const std::uint64_t block = (samples + 4095) / 4096;
    std::vector<std::unique_ptr<observable>> list;
    list.push_back(make_centre_of_mass_observable(s.system.box, block));
    if (s.observables.cycle) list.push_back(make_cycle_observable(*s.observables.cycle, s.system.box));
    if (s.observables.tetrahedron_symmetry) list.push_back(make_tetrahedron_symmetry_observable(s.system.box, block));
    return list;
}

}  // namespace stokesian
