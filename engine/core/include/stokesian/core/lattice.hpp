#pragma once
// Initial particle configurations generated from a few numbers (scenario key [particles.lattice]),
// also used by the benchmarks to set up the paper's fcc systems (Section 3.3).
#include <cstdint>
#include <vector>

#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

// The sites of an fcc lattice of cells^3 cubic unit cells (4 sites each, N = 4 cells^3) with
// lattice constant b, centred in the periodic box [-L/2, L/2)^3, L = cells * b: the sites sit at
// (n + u + 1/4 - cells/2) b with n = 0..cells-1 and u in {0, 1/2} (the four fcc basis vectors
// (0,0,0), (0,1/2,1/2), (1/2,0,1/2), (1/2,1/2,0)), shifted by (1/4, 1/4, 1/4) b: the centre of
// mass is the box centre, no site lies on the box boundary (a wrapped single-precision copy cannot
// flip between -L/2 and +L/2), and the nearest-neighbour distance is b / sqrt(2). (The box centre is
// then a tetrahedral hole, not a centre of inversion; no shift gives both that and a boundary free
// of sites, and the periodic lattice is translation invariant anyway.)
// Order: unit cells x-major (x slowest, z fastest), then the four basis sites in the order above.
// The factor (n + u + 1/4 - cells/2) is a multiple of 1/4 and exact, so every coordinate is one
// correctly rounded product and each coordinate's set of values is symmetric about 0 bitwise.
std::vector<vec3<double>> fcc_lattice(int cells, double lattice_constant);

// The largest fcc lattice a scenario or a benchmark may ask for: cells = 100, N = 4 * 100^3 = 4
// million particles (a guard against typos; the benchmarks' largest default is cells = 63, N ~ 10^6).
inline constexpr int max_fcc_cells = 100;

// The fcc lattice constant for a number density n (4 sites per cubic cell of edge b: b = (4/n)^(1/3)),
// rounded to 15 significant bits. Then b, L = cells * b (cells <= 100) and every site coordinate
// (a multiple of b/4 below 50 b) are exact in float, and so are all differences of coordinates:
// separations of exactly L/2 stay exactly L/2 in every precision mode, and the perfect lattice is
// translation invariant bit for bit (each particle sees the same neighbourhood). The density then
// differs from n by at most 3 * 2^-15 ~ 1e-4 relative.
double fcc_lattice_constant(double density);

// The cube root of x > 0 rounded to 15 significant bits: an edge or lattice constant from a volume.
// cbrt is not correctly rounded by every libm; the rounding to 15 bits absorbs a difference in the
// last bits, so the result is the same on every platform (short of a cube root within an ulp of a
// rounding boundary). Non-finite or non-positive cube roots are returned as they are.
double cube_root_15_bits(double x);

// Displaces every coordinate by an independent uniform random amount in [-amplitude, amplitude],
// then wraps it into [-L/2, L/2) (L = edges). Portable: std::mt19937_64 seeded with `seed` and
// unit_interval() (core/portable_random.hpp), not std::uniform_real_distribution, whose output
// differs between standard libraries.
void perturb_positions(std::vector<vec3<double>>& positions, double amplitude, std::uint64_t seed, vec3<double> edges);

}  // namespace stokesian
