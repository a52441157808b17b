#pragma once
// Neighbour lists for the short-range forces (pair repulsion, lubrication) on the CPU.
// A cell list of cells no smaller than the cutoff finds candidates in O(N); each particle's
// neighbours are then sorted by index, so forces are summed in ascending j on every run and for
// any number of threads. Small systems (or boxes of fewer than three cells a side) are searched
// pair by pair, which gives the same lists.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "stokesian/physics/box.hpp"
#include "stokesian/physics/cell_grid.hpp"

namespace stokesian::cpu {

// The cell (0 ... cells - 1) of coordinate x in [lo, lo + extent]; clamped in floating point, so a
// coordinate outside (rounding) or non-finite lands in an edge cell instead of overflowing.
template <class W>
long cell_coordinate(W x, W lo, W extent, long cells) {
    const double k = std::floor(double((x - lo) / extent * static_cast<W>(cells)));
    if (!(k > 0.0)) return 0;  // NaN too
    return k >= double(cells - 1) ? cells - 1 : static_cast<long>(k);
}

class neighbour_list {
public:
    // Rebuilds the lists of all j != i with |r_i - r_j| < cutoff (minimum image in a periodic box).
    template <class W>
    void build(const std::vector<vec3<W>>& r, const box_geometry<W>& box, W cutoff);

    std::size_t count(std::size_t i) const { return offsets_[i + 1] - offsets_[i]; }
    const std::uint32_t* begin(std::size_t i) const { return indices_.data() + offsets_[i]; }
    const std::uint32_t* end(std::size_t i) const { return indices_.data() + offsets_[i + 1]; }

private:
    std::vector<std::size_t> offsets_;
    std::vector<std::uint32_t> indices_;
    std::vector<std::vector<std::uint32_t>> scratch_;
    std::vector<std::vector<std::uint32_t>> cells_;
};

template <class W>
void neighbour_list::build(const std::vector<vec3<W>>& r, const box_geometry<W>& box, W cutoff) {
    const std::size_t n = r.size();
    scratch_.assign(n, {});
    const W cutoff2 = cutoff * cutoff;
    auto close = [&](std::size_t i, std::size_t j) {
        const vec3<W> d = minimum_image(r[i] - r[j], box);
        return dot(d, d) < cutoff2;
    };
    if (cutoff > W(0) && n > 1) {
        // Grid: the box (periodic) or the bounding box (open), cells >= cutoff.
        vec3<W> lo{}, extent{};
        if (box.periodic) {
            lo = W(-0.5) * box.edges;
            extent = box.edges;
        } else {
            lo = r[0];
            vec3<W> hi = r[0];
            for (const auto& p : r) {
                lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
                hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
            }
            extent = hi - lo;
        }
        const cell_counts g = cell_counts_for(extent, cutoff, n);
        const long nx = g.nx, ny = g.ny, nz = g.nz;
        if (!g.use_cells) {
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j)
                    if (j != i && close(i, j)) scratch_[i].push_back(static_cast<std::uint32_t>(j));
        } else {
            cells_.assign(static_cast<std::size_t>(nx * ny * nz), {});
            std::vector<long> cell(n);
            for (std::size_t i = 0; i < n; ++i) {
                const long cx = cell_coordinate(r[i].x, lo.x, extent.x, nx),
                           cy = cell_coordinate(r[i].y, lo.y, extent.y, ny),
                           cz = cell_coordinate(r[i].z, lo.z, extent.z, nz);
                cell[i] = (cz * ny + cy) * nx + cx;
                cells_[static_cast<std::size_t>(cell[i])].push_back(static_cast<std::uint32_t>(i));
            }
            for (std::size_t i = 0; i < n; ++i) {
                const long c = cell[i], cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
                for (long dz = -1; dz <= 1; ++dz)
                    for (long dy = -1; dy <= 1; ++dy)
                        for (long dx = -1; dx <= 1; ++dx) {
                            long x = cx + dx, y = cy + dy, z = cz + dz;
                            if (box.periodic) {
                                x = (x + nx) % nx;
                                y = (y + ny) % ny;
                                z = (z + nz) % nz;
                            } else if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) {
                                continue;
                            }
                            for (std::uint32_t j : cells_[static_cast<std::size_t>((z * ny + y) * nx + x)])
                                if (j != i && close(i, j)) scratch_[i].push_back(j);
                        }
                std::sort(scratch_[i].begin(), scratch_[i].end());
            }
        }
    }
    offsets_.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) offsets_[i + 1] = offsets_[i] + scratch_[i].size();
    indices_.resize(offsets_[n]);
    for (std::size_t i = 0; i < n; ++i)
        std::copy(scratch_[i].begin(), scratch_[i].end(), indices_.begin() + long(offsets_[i]));
}

}  // namespace stokesian::cpu
