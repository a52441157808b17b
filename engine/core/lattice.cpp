#include "stokesian/core/lattice.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "stokesian/core/portable_random.hpp"

namespace stokesian {

std::vector<vec3<double>> fcc_lattice(int cells, double lattice_constant) {
    if (cells < 1) throw std::invalid_argument("fcc_lattice: cells must be >= 1");
    if (!(lattice_constant > 0.0) || !std::isfinite(lattice_constant))
        throw std::invalid_argument("fcc_lattice: the lattice constant must be a finite number > 0");
    // Basis in units of b, shifted by 1/4 so that the lattice is centred in the box.
    static constexpr double basis[4][3] = {
        {0.25, 0.25, 0.25}, {0.25, 0.75, 0.75}, {0.75, 0.25, 0.75}, {0.75, 0.75, 0.25}};
    const double half_cells = 0.5 * static_cast<double>(cells);
    std::vector<vec3<double>> sites;
    sites.reserve(4 * static_cast<std::size_t>(cells) * static_cast<std::size_t>(cells) *
                  static_cast<std::size_t>(cells));
    for (int ix = 0; ix < cells; ++ix)
        for (int iy = 0; iy < cells; ++iy)
            for (int iz = 0; iz < cells; ++iz)
                for (const auto& u : basis) {
                    // Exact in double for any sane number of cells (multiples of 1/4 below 2^50).
                    const double fx = static_cast<double>(ix) + u[0] - half_cells;
                    const double fy = static_cast<double>(iy) + u[1] - half_cells;
                    const double fz = static_cast<double>(iz) + u[2] - half_cells;
                    sites.push_back({fx * lattice_constant, fy * lattice_constant, fz * lattice_constant});
                }
    return sites;
}

double cube_root_15_bits(double x) {
    const double b = std::cbrt(x);
    if (!std::isfinite(b) || !(b > 0.0)) return b;
    int exponent = 0;
    std::frexp(b, &exponent);  // b = m 2^exponent, m in [0.5, 1)
    const double quantum = std::ldexp(1.0, exponent - 15);
    return std::nearbyint(b / quantum) * quantum;
}

double fcc_lattice_constant(double density) { return cube_root_15_bits(4.0 / density); }

namespace {
double wrap_into_box(double x, double edge) {
    const double half = 0.5 * edge;
    if (x >= -half && x < half) return x;
    const double far = x;
    x -= edge * std::floor((x + half) / edge);
    // Rounding in the line above can leave x on the upper boundary or just outside.
    if (x >= half) x -= edge;
    if (x < -half) x += edge;
    if (x >= -half && x < half) return x;
    // Many edges away (a perturbation of 1e300 a) the product above rounds by more than an edge.
    // fmod is exact, and so is one shift by an edge of a remainder in [half, edge) (Sterbenz).
    x = std::fmod(far, edge);
    if (x >= half) x -= edge;
    else if (x < -half) x += edge;
    return x;
}
}  // namespace

void perturb_positions(std::vector<vec3<double>>& positions, double amplitude, std::uint64_t seed, vec3<double> edges) {
    std::mt19937_64 generator(seed);
    for (auto& r : positions) {
        // x, y, z drawn in this order, particle by particle: the sequence is part of the format.
        const double dx = amplitude * (2.0 * unit_interval(generator) - 1.0);
        const double dy = amplitude * (2.0 * unit_interval(generator) - 1.0);
        const double dz = amplitude * (2.0 * unit_interval(generator) - 1.0);
        r = {wrap_into_box(r.x + dx, edges.x), wrap_into_box(r.y + dy, edges.y), wrap_into_box(r.z + dz, edges.z)};
    }
}

}  // namespace stokesian
