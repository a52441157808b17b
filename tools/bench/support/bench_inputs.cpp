#include "bench_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "bench_hdf5.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/io/h5md.hpp"

namespace stokesian::bench {

namespace hdf5 = io::hdf5;

std::vector<int> fcc_cells_to_run(std::vector<int> cells, std::size_t max_n, bool large) {
    if (cells.empty()) cells = default_fcc_cells;
    if (large) cells.insert(cells.end(), large_fcc_cells.begin(), large_fcc_cells.end());
    for (int m : cells)
        if (m < 1 || m > max_fcc_cells)
            throw input_error("command line", "--sizes-cells", std::to_string(m),
                              "expected whole numbers of unit cells from 1 to " + std::to_string(max_fcc_cells));
    std::erase_if(cells, [&](int m) { return max_n != 0 && fcc_particles(m) > max_n; });
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    return cells;
}

system_parameters benchmark_physics(bool lubrication, bool periodic, double edge) {
    system_parameters s;
    s.radius = 1.0;
    s.self_mobility = 1.0;
    s.tensor = hydrodynamic_tensor::rotne_prager;
    s.lubrication.enabled = lubrication;
    s.pair_force.kind = pair_force_kind::none;
    s.box.periodic = periodic;
    s.box.edges = periodic ? vec3<double>{edge, edge, edge} : vec3<double>{0.0, 0.0, 0.0};
    return s;
}

namespace {

void require_density(double density) {
    if (!(density > 0.0) || !std::isfinite(density))
        throw input_error("--density: expected a number density > 0 (in a^-3), got " + std::to_string(density));
}

// The minimum-image convention needs L > 2 x the short-range cutoff (as the scenario loader).
void require_box_fits(const system_parameters& s, const std::string& what) {
    if (!s.box.periodic) return;
    const double shortest = std::min({s.box.edges.x, s.box.edges.y, s.box.edges.z});
    if (!(shortest > 2.0 * s.short_range_cutoff()) || !(shortest > 0.0))
        throw input_error(what + ": the periodic box (edge " + std::to_string(shortest) +
                          " a) must be longer than twice the lubrication range (3 a)");
}

double wrap_into_box(double x, double edge) {
    const double half = 0.5 * edge;
    if (x >= -half && x < half) return x;
    x -= edge * std::floor((x + half) / edge);
    if (x >= half) x -= edge;  // rounding above can land on the upper boundary
    if (x < -half) x += edge;
    return x;
}

}  // namespace

benchmark_system fcc_system(int cells, double density, bool periodic, bool lubrication) {
    require_density(density);
    const double b = fcc_lattice_constant(density);
    benchmark_system s;
    s.source = "fcc";
    s.cells = cells;
    s.system = benchmark_physics(lubrication, periodic, double(cells) * b);
    s.state.positions = fcc_lattice(cells, b);
    s.state.external_forces.assign(s.state.positions.size(), {0.0, 0.0, -1.0});
    require_box_fits(s.system, "fcc lattice of " + std::to_string(cells) + " cells");
    return s;
}

benchmark_system uniform_system(std::size_t n, double density, std::uint64_t seed, bool periodic, bool lubrication) {
    require_density(density);
    if (n == 0) throw input_error("uniform generator: expected at least one particle");
    const double edge = std::cbrt(double(n) / density);
    benchmark_system s;
    s.source = "uniform";
    s.system = benchmark_physics(lubrication, periodic, edge);
    std::mt19937_64 rng(seed);
    auto unit = [&] { return double(rng() >> 11) * 0x1p-53; };
    s.state.positions.resize(n);
    for (auto& p : s.state.positions) {
        // Three statements: the order of the draws is x, y, z on every compiler.
        const double x = edge * (unit() - 0.5);
        const double y = edge * (unit() - 0.5);
        const double z = edge * (unit() - 0.5);
        p = {x, y, z};
    }
    s.state.external_forces.assign(n, {0.0, 0.0, -1.0});
    require_box_fits(s.system, "uniform system of " + std::to_string(n) + " particles");
    return s;
}

namespace {

// The first frame of a [T, N, 3] dataset (only that frame is read) or a whole [N, 3] one, as vectors.
std::vector<vec3<double>> read_vectors(const io::h5md_file& file, const std::string& path, bool trajectory,
                                       const std::string& name) {
    const std::vector<std::size_t> shape = file.shape(path);
    const bool ok =
        trajectory ? (shape.size() == 3 && shape[0] >= 1 && shape[2] == 3) : (shape.size() == 2 && shape[1] == 3);
    if (!ok) throw input_error(name + ": expected '" + path + "' of shape " + (trajectory ? "[T, N, 3]" : "[N, 3]"));
    const std::size_t n = trajectory ? shape[1] : shape[0];
    const std::vector<double> flat = trajectory ? file.read_doubles_row(path, 0) : file.read_doubles(path);
    std::vector<vec3<double>> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
        if (!std::isfinite(out[i].x) || !std::isfinite(out[i].y) || !std::isfinite(out[i].z))
            throw input_error(name + ": '" + path + "' holds a non-finite value (particle " + std::to_string(i) + ")");
    }
    return out;
}

std::optional<vec3<double>> read_edges(const io::h5md_file& file, const std::string& name) {
    for (const std::string path :
         {"box_edges", "particles/trajectory/box/edges/value", "particles/trajectory/box/edges"}) {
        if (!file.is_dataset(path)) continue;
        const std::vector<std::size_t> shape = file.shape(path);
        const bool vector_form =
            (shape.size() == 1 && shape[0] == 3) || (shape.size() == 2 && shape[0] >= 1 && shape[1] == 3);
        // H5MD's matrix form, the edge vectors as rows (stokesian writes [T, 3, 3]): its diagonal.
        const bool matrix_form = shape.size() == 3 && shape[0] >= 1 && shape[1] == 3 && shape[2] == 3;
        if (!vector_form && !matrix_form)
            throw input_error(name + ": expected '" + path + "' of shape [3], [T, 3] or [T, 3, 3]");
        const std::vector<double> e = file.read_doubles(path);
        if (matrix_form && (e[1] != 0.0 || e[2] != 0.0 || e[3] != 0.0 || e[5] != 0.0 || e[6] != 0.0 || e[7] != 0.0))
            throw input_error(name + ": '" + path + "' holds edge vectors off the axes (a triclinic box)");
        const vec3<double> edges = matrix_form ? vec3<double>{e[0], e[4], e[8]} : vec3<double>{e[0], e[1], e[2]};
        if (!(edges.x > 0.0 && edges.y > 0.0 && edges.z > 0.0) || !std::isfinite(edges.x + edges.y + edges.z))
            throw input_error(name + ": '" + path + "' must hold three finite edges > 0");
        return edges;
    }
    return std::nullopt;
}

}  // namespace

benchmark_system read_system(const std::filesystem::path& path, bool periodic, double density, bool lubrication) {
    const std::string name = path.string();
    const io::h5md_file file(path, io::h5md_group::not_required);  // plain HDF5 files of other codes too
    benchmark_system s;
    s.source = name;
    if (file.is_dataset("positions")) s.state.positions = read_vectors(file, "positions", false, name);
    else if (file.is_dataset("particles/trajectory/position/value"))
        s.state.positions = read_vectors(file, "particles/trajectory/position/value", true, name);
    else
        throw input_error(name + ": expected positions in 'positions' [N, 3] or 'particles/trajectory/position/value'");
    const std::size_t n = s.state.positions.size();
    if (n == 0) throw input_error(name + ": the file holds no particles");

    if (file.is_dataset("forces")) s.state.external_forces = read_vectors(file, "forces", false, name);
    else if (file.is_dataset("particles/trajectory/force/value"))
        s.state.external_forces = read_vectors(file, "particles/trajectory/force/value", true, name);
    else s.state.external_forces.assign(n, {0.0, 0.0, -1.0});
    if (s.state.external_forces.size() != n)
        throw input_error(name + ": " + std::to_string(s.state.external_forces.size()) + " forces for " +
                          std::to_string(n) + " positions");

    vec3<double> edges{0.0, 0.0, 0.0};
    if (periodic) {
        if (auto e = read_edges(file, name)) {
            edges = *e;
        } else {
            require_density(density);
            const double edge = std::cbrt(double(n) / density);
            edges = {edge, edge, edge};
        }
        for (auto& r : s.state.positions)
            r = {wrap_into_box(r.x, edges.x), wrap_into_box(r.y, edges.y), wrap_into_box(r.z, edges.z)};
    }
    s.system = benchmark_physics(lubrication, periodic, edges.x);
    s.system.box.edges = edges;
    require_box_fits(s.system, name);
    return s;
}

void write_hi_update(const std::filesystem::path& path, const frame& f, const system_parameters& system,
                     const std::map<std::string, std::string>& attributes) {
    const hdf5::error_silencer quiet;
    try {
        hdf5::file file(
            hdf5::check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "creating the file"));
        h5::write_vectors(file.get(), "positions", f.position);
        h5::write_vectors(file.get(), "forces", f.force);
        h5::write_vectors(file.get(), "velocities", f.velocity);
        if (system.box.periodic) {
            const vec3<double> e = system.box.edges;
            h5::write_doubles(file.get(), "box_edges", {3}, {e.x, e.y, e.z});
        }
        h5::write_string_attribute(file.get(), "boundary", system.box.periodic ? "periodic" : "open");
        for (const auto& [name, value] : attributes) h5::write_string_attribute(file.get(), name, value);
        if (!file.reset()) throw std::runtime_error("closing the file failed");
    } catch (const std::runtime_error& e) {
        throw input_error(path.string(), "", "", e.what());
    }
}

}  // namespace stokesian::bench
