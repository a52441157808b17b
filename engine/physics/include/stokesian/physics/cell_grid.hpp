#pragma once
// The size of the cell grid of the short-range neighbour search (CPU: cpu/neighbour_list.hpp;
// CUDA: cuda/cuda_engine.cu), one rule for both backends.
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

struct cell_counts {
    long nx = 1, ny = 1, nz = 1;
    bool use_cells = false;  // more than 64 particles and at least three cells a side, so the 27
                             // neighbour cells of a cell are distinct
};

// Cells no smaller than `cell_size` over a box (or bounding box) of `extent`, at most 8 n + 64 of
// them in all, so memory and the time to clear them stay O(n). Extents come from the input (box
// edges of 1e7 a) or from a blown-up state (particles 1e30 a apart, inf, NaN), so the counts are
// bounded in floating point before they become integers: a grid over the budget is coarsened by
// the same factor on every side (larger cells hold more candidates, never fewer neighbours), and a
// non-finite extent gets one cell (the pair search). A grid within the budget is the finest one.
// Both backends sort each particle's neighbours by index, so the grid never changes a result.
template <class W>
cell_counts cell_counts_for(const vec3<W>& extent, W cell_size, std::size_t n) {
    const double budget = 8.0 * double(n) + 64.0;
    auto cells_along = [&](W e) {
        const double c = std::floor(double(e) / double(cell_size));
        return c >= 1.0 ? std::min(c, budget) : 1.0;  // NaN: 1; the product stays below 1e23
    };
    double c[3] = {cells_along(extent.x), cells_along(extent.y), cells_along(extent.z)};
    if (const double product = c[0] * c[1] * c[2]; product > budget) {
        const double shrink = std::cbrt(budget / product);
        for (double& side : c) side = std::max(1.0, std::floor(side * shrink));
    }
    cell_counts g{static_cast<long>(c[0]), static_cast<long>(c[1]), static_cast<long>(c[2])};
    g.use_cells = n > 64 && g.nx >= 3 && g.ny >= 3 && g.nz >= 3;
    return g;
}

}  // namespace stokesian
