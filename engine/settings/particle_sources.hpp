#pragma once
// The initial positions of [particles.file] and [particles.random] (docs/reference/scenario-file.md): a
// positions file read whole (H5MD, NumPy .npy, XYZ) and a random suspension placed by random
// sequential addition. initial_state.cpp chooses the source and applies the checks every source
// shares (inside the periodic box, no overlap).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/core/scenario.hpp"
#include "toml_checker.hpp"

namespace stokesian::settings {

// What is wrong with a positions file (one line, without the file's name): the file readers throw
// it and read_positions_file() turns it into the scenario's input_error.
class positions_fault : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct file_positions {
    std::vector<vec3<double>> positions;
    std::optional<vec3<double>> periodic_edges;  // an H5MD file's periodic box
};

// The positions of `settings` (format resolved by the field table), read from the file named
// relative to the scenario file (check.file()). Sets settings.frame to the frame read (h5md, xyz).
// Throws input_error "SCENARIO: key 'particles.file.path' = "PATH": FILE: fault" for every fault:
// unreadable, not of its format, wrong shape, N = 0 or more than most_file_particles, non-finite.
file_positions read_positions_file(const checker& check, const section& file_table, positions_file_settings& settings);

// The format readers (the bytes of the whole file; most_file_particles at most). Each throws
// positions_fault.
std::vector<vec3<double>> npy_positions(std::string_view bytes);
std::vector<vec3<double>> xyz_positions(std::string_view text, std::optional<std::uint64_t>& frame);
file_positions h5md_positions(const std::string& path, positions_file_settings& settings);

// A periodic box's edges must exceed twice the short-range cutoff (the minimum-image convention with
// the nearest image only); `edges` is box.edges as written, if it was (initial_state.cpp).
void check_box_reach(const checker& check, const section& box, const std::optional<entry>& edges,
                     const system_parameters& system);

// The random suspension: fills s.particles.positions, a periodic box's s.system.box.edges when they
// follow from count and volume fraction, and s.random_suspension (count and volume fraction as
// placed). Checks the box's reach (check_box_reach) before it places a sphere.
// `edges` is box.edges as written, if it was.
void read_random_suspension(const checker& check, const section& random_table, const section& box,
                            const std::optional<entry>& edges, scenario& s);

}  // namespace stokesian::settings
