#include "observables_impl.hpp"
#include "stokesian/core/lubrication_solver.hpp"

namespace stokesian {

std::vector<std::unique_ptr<observable>> make_observables(const scenario& s) {
    // With a trajectory, time series are sampled at its frames (H5MD readers such as MDAnalysis
    // read observables per frame); without one they keep at most ~4096 points
    // (decimated_series.hpp), so a 50-million-step run stays small.
    const std::uint64_t samples = s.run.total_steps() / s.run.sample_interval_steps() + 1;
    const std::uint64_t block = s.run.write_trajectory ? 1 : (samples + 4095) / 4096;
    std::vector<std::unique_ptr<observable>> list;
    list.push_back(make_centre_of_mass_observable(s.system.box, block));
    if (s.observables.cycle) list.push_back(make_cycle_observable(*s.observables.cycle, s.system.box));
    if (s.observables.tetrahedron_symmetry) list.push_back(make_tetrahedron_symmetry_observable(s.system.box, block));
    if (s.observables.positive_definiteness)
        list.push_back(make_positive_definiteness_observable(s.system, s.observables.positive_definiteness->every));
    if (s.observables.pair_gap) list.push_back(make_pair_gap_observable(s.system, s.particles.external_forces, block));
    if (s.observables.velocity_spread) list.push_back(make_velocity_spread_observable(block));
    // The implicit lubrication scheme's solver is always recorded when it runs.
    if (s.system.lubrication.implicit())
        list.push_back(make_lubrication_solver_observable(lubrication_tolerance(s.run.precision), block));
    return list;
}

}  // namespace stokesian
