#pragma once
// Constructors of the individual observables (one file each), used by make_observables().
#include <cstdint>
#include <memory>
#include <string>

#include "stokesian/observables/decimated_series.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {
std::unique_ptr<observable> make_cycle_observable(observable_settings::cycle_spec spec, const box_settings& box);
std::unique_ptr<observable> make_tetrahedron_symmetry_observable(const box_settings& box, std::uint64_t block);
std::unique_ptr<observable> make_centre_of_mass_observable(const box_settings& box, std::uint64_t block);
std::unique_ptr<observable> make_positive_definiteness_observable(const system_parameters& system, std::uint64_t every);
std::unique_ptr<observable> make_pair_gap_observable(const system_parameters& system,
                                                     const std::vector<vec3<double>>& external_forces,
                                                     std::uint64_t block);
std::unique_ptr<observable> make_velocity_spread_observable(std::uint64_t block);
std::unique_ptr<observable> make_lubrication_solver_observable(double tolerance, std::uint64_t block);

// Writes `series` as the H5MD time series `name`, its partial last block closed (on a copy: the
// observable's own series stays open for the samples after a checkpoint). Returns that copy.
inline decimated_series write_series(result_sink& out, const std::string& name, decimated_series series) {
    series.finish();
    out.write_time_series(name, series.step(), series.time(), series.value());
    return series;
}
}  // namespace stokesian
