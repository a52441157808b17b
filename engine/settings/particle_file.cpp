// [particles.file]: the positions of a scenario read from an H5MD, NumPy (.npy) or XYZ file
// (docs/reference/scenario-file.md). Every fault of the file is one input_error naming the scenario, the key
// particles.file.path, its value, the file as found and the fault.
#include <cmath>
#include <filesystem>

#include "particle_sources.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/settings/text_input.hpp"
#include "toml_value_text.hpp"

namespace stokesian::settings {

file_positions read_positions_file(const checker& check, const section& file_table, positions_file_settings& settings) {
    const entry path = *file_table.find("path");
    // Relative to the folder of the scenario file (check.file() names it), as a reader of the file expects.
    std::filesystem::path file(settings.path);
    if (file.is_relative()) file = std::filesystem::path(check.file()).parent_path() / file;
    auto fail = [&](const std::string& fault) {
        check.fail(path.key, written(*path.node), file.string() + ": " + fault);
    };

    file_positions read;
    try {
        if (settings.format == "h5md") {
            read = h5md_positions(file.string(), settings);
        } else {
            // Binary or text, read_text_input reads the bytes as they are: only a regular file of at
            // most max_text_input_bytes (64 MiB), more than most_file_particles positions take.
            const std::string bytes = read_text_input(file, "the positions file");
            if (settings.format == "npy") read.positions = npy_positions(bytes);
            else read.positions = xyz_positions(bytes, settings.frame);
        }
    } catch (const positions_fault& fault) {
        fail(fault.what());
    } catch (const input_error& error) {
        // The readers of files name the file themselves ("PATH: cannot read the positions file (...)").
        check.fail(path.key, written(*path.node), error.what());
    }
    const std::vector<vec3<double>>& positions = read.positions;
    if (positions.empty()) fail("no particles (N = 0)");
    if (positions.size() > most_file_particles)
        fail(std::to_string(positions.size()) + " particles, more than the " + std::to_string(most_file_particles) +
             " a positions file may hold");
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const vec3<double> r = positions[i];
        if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.z))
            fail("particle " + std::to_string(i) + " has a non-finite coordinate " + vector_text(r));
    }
    return read;
}

}  // namespace stokesian::settings
