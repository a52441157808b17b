// The closest-pair search shared by the scenario loader (overlapping initial positions) and the
// run driver (particles closer than run.min_separation during a run).
#include "stokesian/core/close_pair.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include "stokesian/physics/box.hpp"

namespace stokesian {

std::optional<close_pair> find_close_pair(const std::vector<vec3<double>>& positions, const box_settings& box,
                                          double contact) {
    const std::size_t n = positions.size();
    if (n < 2 || !(contact > 0.0)) return std::nullopt;
    const double contact2 = contact * contact;
    constexpr std::int64_t max_cells_per_axis = std::int64_t{1} << 20;

    // Per axis: origin, cell size (>= contact) and number of cells.
    double origin[3], cell[3];
    std::int64_t cells[3];
    const double lo[3] = {-0.5 * box.edges.x, -0.5 * box.edges.y, -0.5 * box.edges.z};
    const double edge[3] = {box.edges.x, box.edges.y, box.edges.z};
    for (int k = 0; k < 3; ++k) {
        if (box.periodic) {
            const double fit = std::floor(edge[k] / contact);
            cells[k] =
                std::clamp<std::int64_t>(static_cast<std::int64_t>(std::min(fit, 0x1p40)), 1, max_cells_per_axis);
            origin[k] = lo[k];
            cell[k] = edge[k] / static_cast<double>(cells[k]);
        } else {
            double mn = std::numeric_limits<double>::infinity(), mx = -mn;
            for (const auto& r : positions) {
                const double x = k == 0 ? r.x : k == 1 ? r.y : r.z;
                mn = std::min(mn, x);
                mx = std::max(mx, x);
            }
            origin[k] = mn;
            // Wider cells than the contact distance are still correct; they bound the index range for sparse inputs.
            const double span = mx - mn;
            cell[k] = std::max(contact, std::isfinite(span) ? span / static_cast<double>(max_cells_per_axis - 2)
                                                            : std::numeric_limits<double>::max());
            cells[k] = max_cells_per_axis;
        }
    }
    auto cell_index = [&](const vec3<double>& r, int k) {
        const double x = k == 0 ? r.x : k == 1 ? r.y : r.z;
        const double c = std::floor((x - origin[k]) / cell[k]);
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::clamp(c, 0.0, 0x1p40)), 0, cells[k] - 1);
    };
    auto pack = [](std::int64_t a, std::int64_t b, std::int64_t c) {
        return (static_cast<std::uint64_t>(a) << 42) | (static_cast<std::uint64_t>(b) << 21) |
               static_cast<std::uint64_t>(c);
    };

    std::vector<std::array<std::int64_t, 3>> index(n);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted(n);
    for (std::size_t i = 0; i < n; ++i) {
        index[i] = {cell_index(positions[i], 0), cell_index(positions[i], 1), cell_index(positions[i], 2)};
        sorted[i] = {pack(index[i][0], index[i][1], index[i][2]), static_cast<std::uint32_t>(i)};
    }
    std::sort(sorted.begin(), sorted.end());
    std::unordered_map<std::uint64_t, std::pair<std::size_t, std::size_t>> ranges;  // key -> [begin, end)
    ranges.reserve(n);
    for (std::size_t b = 0; b < n;) {
        std::size_t e = b;
        while (e < n && sorted[e].first == sorted[b].first) ++e;
        ranges.emplace(sorted[b].first, std::make_pair(b, e));
        b = e;
    }

    const box_geometry<double> geometry{box.periodic, box.edges};
    std::optional<close_pair> best;
    std::vector<std::uint64_t> neighbours;
    for (std::size_t i = 0; i < n; ++i) {
        neighbours.clear();
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    std::int64_t c[3] = {index[i][0] + dx, index[i][1] + dy, index[i][2] + dz};
                    bool valid = true;
                    for (int k = 0; k < 3; ++k) {
                        if (box.periodic) c[k] = (c[k] + cells[k]) % cells[k];
                        else if (c[k] < 0 || c[k] >= cells[k]) valid = false;
                    }
                    if (valid) neighbours.push_back(pack(c[0], c[1], c[2]));
                }
        // With fewer than three cells along an axis the periodic neighbours repeat.
        std::sort(neighbours.begin(), neighbours.end());
        neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
        for (const std::uint64_t key : neighbours) {
            const auto found = ranges.find(key);
            if (found == ranges.end()) continue;
            for (std::size_t s = found->second.first; s < found->second.second; ++s) {
                const std::size_t j = sorted[s].second;
                if (j <= i) continue;
                if (best && (i > best->i || (i == best->i && j >= best->j))) continue;
                const vec3<double> d = minimum_image(positions[i] - positions[j], geometry);
                const double r2 = dot(d, d);
                if (r2 < contact2) best = close_pair{i, j, std::sqrt(r2)};
            }
        }
        if (best && best->i == i) break;  // no pair with a smaller first index is left
    }
    return best;
}

}  // namespace stokesian
