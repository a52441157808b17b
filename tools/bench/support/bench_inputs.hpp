#pragma once
// The systems `stokesian bench fcc` times, and the files that let other codes time the same ones:
//   fcc      the paper's benchmark (Section 3.3): an fcc lattice of cells^3 unit cells, N = 4 cells^3,
//            at number density n (core/lattice.hpp), all forces (0, 0, -1)
//   uniform  N uniform random positions at density n (overlaps allowed), forces (0, 0, -1)
//   file     positions (and forces) from an HDF5 or H5MD file (read with io::h5md_file, /h5md not required)
// Units: lengths in a, forces in F (radius 1, mu0 1, Rotne-Prager).
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "stokesian/core/engine.hpp"

namespace stokesian::bench {

struct benchmark_system {
    std::string source;  // "fcc", "uniform" or the input file's path
    system_parameters system;
    initial_state state;
    int cells = 0;  // fcc only
};

inline std::size_t fcc_particles(int cells) {
    const auto m = static_cast<std::size_t>(cells);
    return 4 * m * m * m;
}

// The fcc sizes to run: `cells` (default list when empty) capped at N <= max_n (0: no cap), with
// m = 50, 63 (N = 500 000, 1 000 188) appended when `large`. Sorted, without duplicates.
std::vector<int> fcc_cells_to_run(std::vector<int> cells, std::size_t max_n, bool large);
inline const std::vector<int> default_fcc_cells{4, 6, 8, 10, 14, 20, 30, 37};  // N = 256 ... 202 612
inline const std::vector<int> large_fcc_cells{50, 63};

// Physics of all benchmark systems: radius 1, mu0 1, Rotne-Prager, no pair force, lubrication as
// given (paper: on), box periodic with the given edge or open.
system_parameters benchmark_physics(bool lubrication, bool periodic, double edge);

benchmark_system fcc_system(int cells, double density, bool periodic, bool lubrication);
// The positions of `stokesian bench hi` for the same (n, density, seed): std::mt19937_64 seeded
// with `seed`, each coordinate L (u - 1/2) with u the top 53 bits x 2^-53, L = (N / n)^(1/3).
benchmark_system uniform_system(std::size_t n, double density, std::uint64_t seed, bool periodic, bool lubrication);

// Reads positions from `positions` [N,3] or `particles/trajectory/position/value` [T,N,3] (frame 0), and
// forces from `forces` [N,3] or `particles/trajectory/force/value` (frame 0), else (0, 0, -1) on each.
// Periodic: the edges from `box_edges` [3], `particles/trajectory/box/edges/value` [T,3] or [T,3,3]
// (frame 0; a diagonal matrix) or
// `particles/trajectory/box/edges` [3], else a cube of edge (N / density)^(1/3); positions are wrapped
// into [-L/2, L/2). Throws input_error (one line naming the file) for anything else.
benchmark_system read_system(const std::filesystem::path& path, bool periodic, double density, bool lubrication);

// One HI update for cross-checks, as plain HDF5: datasets positions, forces, velocities [N,3] and
// box_edges [3] (periodic only), float64; `attributes` as string attributes of the root group.
// read_system() reads the file back. Replaces an existing file.
void write_hi_update(const std::filesystem::path& path, const frame& f, const system_parameters& system,
                     const std::map<std::string, std::string>& attributes);

}  // namespace stokesian::bench
