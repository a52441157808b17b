// Positions from an H5MD file (https://www.nongnu.org/h5md/h5md.html): a stokesian output or any
// H5MD file. particles/<group>/position is a time-dependent element (value [T, N, 3], one frame
// read) or a time-independent dataset [N, 3]; particles/<group>/box, when present, gives a periodic
// box: boundary "periodic" on every axis and rectangular edges: H5MD's vector form (a dataset [3],
// or an element whose value [T, 3] has a row per position frame) or its matrix form with the edges
// on the diagonal ([3, 3], or [T, 3, 3] per frame, as stokesian writes them).
#include <algorithm>
#include <cmath>
#include <span>

#include "particle_sources.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/h5md.hpp"
#include "toml_value_text.hpp"

namespace stokesian::settings {

namespace {

[[noreturn]] void fault(const std::string& what) { throw positions_fault(what); }

std::string shape_text(const std::vector<std::size_t>& shape) {
    std::string text = "[";
    for (std::size_t k = 0; k < shape.size(); ++k) text += (k ? ", " : "") + std::to_string(shape[k]);
    return text + "]";
}

std::string frames_text(std::size_t frames) { return std::to_string(frames) + (frames == 1 ? " frame" : " frames"); }

// The edges of H5MD box edges `object` read as `e` with `sample_shape` [3] or [3, 3] (a diagonal
// matrix); faults naming the object for any other shape or an edge vector off an axis.
vec3<double> rectangular_edges(const std::string& object, const std::vector<std::size_t>& shape,
                               std::span<const std::size_t> sample_shape, const std::vector<double>& e,
                               const std::string& expected) {
    const bool vector_form = sample_shape.size() == 1 && sample_shape[0] == 3;
    const bool matrix_form = sample_shape.size() == 2 && sample_shape[0] == 3 && sample_shape[1] == 3;
    if (!vector_form && !matrix_form)
        fault("'" + object + "' has shape " + shape_text(shape) + ": expected " + expected +
              " (rectangular box edges; a triclinic box is not supported)");
    if (vector_form) return {e[0], e[1], e[2]};
    for (std::size_t row = 0; row < 3; ++row)
        for (std::size_t column = 0; column < 3; ++column)
            if (row != column && e[3 * row + column] != 0.0)
                fault("'" + object + "' holds edge vectors off the axes: a triclinic box is not supported");
    return {e[0], e[4], e[8]};
}

// The edges of a periodic box at `frame` (of `frames` position frames), or none.
std::optional<vec3<double>> periodic_edges(const io::h5md_file& f, const std::string& box, std::size_t frame,
                                           std::size_t frames) {
    if (!f.is_group(box)) return std::nullopt;
    const auto boundary = f.string_array_attribute(box, "boundary");
    if (!boundary) return std::nullopt;
    const auto periodic = static_cast<std::size_t>(std::count(boundary->begin(), boundary->end(), "periodic"));
    if (boundary->size() != 3 || (periodic != 0 && periodic != 3)) {
        std::string listed;
        for (const auto& b : *boundary) listed += (listed.empty() ? "" : ", ") + echoed(b);
        fault("'" + box + "' has boundary [" + listed +
              "]: expected \"periodic\" or \"none\" on all three axes (a box periodic on some axes only is not "
              "supported)");
    }
    if (periodic == 0) return std::nullopt;
    const std::string edges = box + "/edges";
    vec3<double> result{};
    if (f.is_group(edges)) {
        const std::string value = edges + "/value";
        const auto shape = f.shape(value);
        if (shape.empty())
            fault("'" + value + "' has shape " + shape_text(shape) +
                  ": expected [T, 3] or [T, 3, 3] (rectangular box edges; a triclinic box is not supported)");
        const std::span<const std::size_t> sample(shape.data() + 1, shape.size() - 1);
        const bool known =
            (sample.size() == 1 && sample[0] == 3) || (sample.size() == 2 && sample[0] == 3 && sample[1] == 3);
        if (known && shape[0] != frames)
            fault("'" + value + "' holds " + frames_text(shape[0]) + ", the positions " + frames_text(frames) +
                  ": expected the box edges of every position frame");
        result =
            rectangular_edges(value, shape, sample, known ? f.read_doubles_row(value, frame) : std::vector<double>{},
                              "[T, 3] or [T, 3, 3]");
    } else if (f.exists(edges)) {
        const auto shape = f.shape(edges);
        const bool known =
            (shape.size() == 1 && shape[0] == 3) || (shape.size() == 2 && shape[0] == 3 && shape[1] == 3);
        result = rectangular_edges(edges, shape, shape, known ? f.read_doubles(edges) : std::vector<double>{},
                                   "[3] or [3, 3]");
    } else {
        fault("'" + box + "' is periodic but has no edges");
    }
    if (!(result.x > 0.0 && result.y > 0.0 && result.z > 0.0) || !std::isfinite(result.x) || !std::isfinite(result.y) ||
        !std::isfinite(result.z))
        fault("the periodic box's edges " + vector_text(result) + ": expected three finite numbers > 0");
    return result;
}

}  // namespace

file_positions h5md_positions(const std::string& path, positions_file_settings& settings) {
    const io::h5md_file f(path);  // input_error naming the file when it is not a readable H5MD file
    const std::string group = "/particles/" + settings.group;
    if (!f.is_group(group)) {
        std::string groups;
        if (f.is_group("/particles"))
            for (const auto& name : f.list("/particles")) groups += (groups.empty() ? "" : ", ") + name;
        fault("no particles group '" + group + "'" + (groups.empty() ? "" : " (it has: " + echoed(groups) + ")"));
    }
    const std::string position = group + "/position";
    file_positions read;
    std::vector<double> values;
    std::size_t frames = 1, frame = 0;
    if (f.is_group(position)) {
        const std::string value = position + "/value";
        const auto shape = f.shape(value);
        if (shape.size() != 3 || shape[2] != 3)
            fault("'" + value + "' has shape " + shape_text(shape) + ": expected [T, N, 3]");
        frames = shape[0];
        if (frames == 0) fault("'" + value + "' holds no frame");
        if (shape[1] > most_file_particles)
            fault(std::to_string(shape[1]) + " particles, more than the " + std::to_string(most_file_particles) +
                  " a positions file may hold");
        frame =
            settings.frame ? static_cast<std::size_t>(std::min<std::uint64_t>(*settings.frame, frames)) : frames - 1;
        if (frame >= frames)
            fault("no frame " + std::to_string(*settings.frame) + ": '" + value + "' holds " + frames_text(frames));
        values = f.read_doubles_row(value, frame);
    } else if (f.exists(position)) {
        const auto shape = f.shape(position);
        if (shape.size() != 2 || shape[1] != 3)
            fault("'" + position + "' has shape " + shape_text(shape) + ": expected [N, 3]");
        if (shape[0] > most_file_particles)
            fault(std::to_string(shape[0]) + " particles, more than the " + std::to_string(most_file_particles) +
                  " a positions file may hold");
        if (settings.frame && *settings.frame != 0)
            fault("no frame " + std::to_string(*settings.frame) + ": '" + position +
                  "' is one configuration (frame 0)");
        values = f.read_doubles(position);
    } else {
        fault("no positions '" + position + "'");
    }
    settings.frame = frame;
    read.positions.reserve(values.size() / 3);
    for (std::size_t i = 0; i + 2 < values.size(); i += 3)
        read.positions.push_back({values[i], values[i + 1], values[i + 2]});
    read.periodic_edges = periodic_edges(f, group + "/box", frame, frames);
    return read;
}

}  // namespace stokesian::settings
