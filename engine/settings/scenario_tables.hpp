#pragma once
// The field tables of the scenario format, one per settings struct (stokesian/settings/
// field_table.hpp). Adding a key is one entry in one of them (engine/README.md, "How to add a
// scenario key"): the reader, the resolved configuration, the reference's key tables and the
// command-line overrides follow from the entry.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/field_table.hpp"
#include "stokesian/settings/text_input.hpp"

namespace stokesian::settings {

// [particles.lattice]: a generated initial configuration (initial_state.cpp builds it).
struct lattice_settings {
    std::string kind;
    std::int64_t cells = 0;
    double density = 0.0;
    double perturbation = 0.0;
    std::uint64_t seed = 1;
};

// The most particles a scenario generates ([particles.random]): as many as the largest lattice,
// 4 max_fcc_cells^3 = 4 million (core/lattice.hpp).
inline constexpr std::uint64_t most_generated_particles =
    4 * std::uint64_t(max_fcc_cells) * std::uint64_t(max_fcc_cells) * std::uint64_t(max_fcc_cells);
// The most particles a positions file ([particles.file]) may hold: as many as a scenario file can
// list (max_text_input_bytes at 64 bytes a position, about 10^6). The resolved configuration lists
// a file's positions in full (the file is not part of a run's output), so it stays within that.
inline constexpr std::uint64_t most_file_particles = max_text_input_bytes / 64;

using cycle_spec = observable_settings::cycle_spec;
using positive_definiteness_spec = observable_settings::positive_definiteness_spec;

std::span<const field<scenario>> scenario_fields();  // [scenario]: name, description
std::span<const field<system_parameters>> physics_fields();
std::span<const field<lubrication_settings>> lubrication_fields();
std::span<const field<pair_force_settings>> pair_force_fields();
std::span<const field<box_settings>> box_fields();
std::span<const field<ewald_settings>> ewald_fields();     // [physics.ewald]
std::span<const field<initial_state>> particles_fields();  // documented here, read in initial_state.cpp
std::span<const field<lattice_settings>> lattice_fields();
std::span<const field<positions_file_settings>> positions_file_fields();        // [particles.file]
std::span<const field<random_suspension_settings>> random_suspension_fields();  // [particles.random]
std::span<const field<run_settings>> run_fields();
std::span<const field<observable_settings>> observables_fields();
std::span<const field<cycle_spec>> cycle_fields();
std::span<const field<positive_definiteness_spec>> positive_definiteness_fields();
std::span<const field<output_settings>> output_fields();

// The sub-tables each logical table accepts ("" is the top level, "case" a [cases.NAME] table).
std::span<const std::string_view> sub_tables(std::string_view table);

}  // namespace stokesian::settings
