// [particles.random]: spheres at uniformly random points, placed one by one at least a surface gap
// from every sphere placed before (random sequential addition). The positions follow from the seed
// alone, the same on every platform (docs/reference/scenario-file.md, "[particles.random]", is the
// specification; tests/settings/particle_sources_test.cpp checks it against a plain implementation of
// it and a committed digest).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "field_reader.hpp"
#include "particle_sources.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/portable_random.hpp"
#include "stokesian/physics/box.hpp"
#include "toml_value_text.hpp"

namespace stokesian::settings {

namespace {

// The saturation volume fraction of random sequential addition of equal spheres in three
// dimensions, 0.384130 +- 0.000002 (G. Zhang and S. Torquato, Phys. Rev. E 88, 053312 (2013)):
// beyond it no sequence of insertions can place every sphere.
constexpr double rsa_saturation = 0.38413;
// Below saturation the attempts grow steeply near it (the fraction approaches it as t^-1/3 in the
// attempts t). A placement may make 1000 attempts a sphere on average, and 10^6 more: a placement
// that needs more ends, so that a load takes at most about half a millisecond a sphere (a loop
// without end otherwise, or hours for a few million spheres). Large systems reach phi = 0.35 within
// it (10^5 spheres: 640 attempts a sphere), 1000 spheres phi = 0.35 (870 a sphere, 0.3 s); smaller
// boxes saturate earlier.
constexpr std::uint64_t attempts_per_sphere = 1000;
constexpr std::uint64_t attempts_beyond = 1000000;
std::uint64_t most_attempts(std::size_t count) { return attempts_per_sphere * count + attempts_beyond; }

struct placement {
    std::vector<vec3<double>> positions;
    std::uint64_t attempts = 0;  // in all
};

// A uniform grid of cells at least `contact` wide (and about one sphere each at most), holding the
// placed spheres as linked lists: only the 27 cells around a candidate can hold a sphere closer
// than `contact`. It only speeds the search: the spheres accepted are those the plain rule accepts.
class sphere_grid {
public:
    sphere_grid(vec3<double> edges, bool periodic, double contact, std::size_t count) : periodic_(periodic) {
        const double edge[3] = {edges.x, edges.y, edges.z};
        // Slightly wider than the contact, so that rounding in the cell index never hides a partner.
        const double wide = std::max(contact, std::cbrt(edges.x * edges.y * edges.z / static_cast<double>(count)));
        const double width = wide * (1.0 + 0x1p-20);
        std::size_t cells = 1;
        for (int k = 0; k < 3; ++k) {
            const double fit = std::floor(edge[k] / width);
            cells_[k] = static_cast<std::int64_t>(std::clamp(fit, 1.0, 0x1p20));
            width_[k] = edge[k] / static_cast<double>(cells_[k]);
            half_[k] = 0.5 * edge[k];
            cells *= static_cast<std::size_t>(cells_[k]);
        }
        head_.assign(cells, -1);
        next_.reserve(count);
    }

    // True when `close(j)` holds for no placed sphere j in the cells around r (each cell seen once).
    template <class Close>
    bool none_of_near(vec3<double> r, Close close) const {
        const double x[3] = {r.x, r.y, r.z};
        std::int64_t around[3][3];
        int counts[3];
        for (int k = 0; k < 3; ++k) {
            const std::int64_t c = cell_of(x[k], k), n = cells_[k];
            counts[k] = 0;
            for (std::int64_t d = -1; d <= 1; ++d) {
                std::int64_t neighbour = c + d;
                if (periodic_) neighbour = (neighbour + n) % n;
                else if (neighbour < 0 || neighbour >= n) continue;
                if (std::find(around[k], around[k] + counts[k], neighbour) == around[k] + counts[k])
                    around[k][counts[k]++] = neighbour;
            }
        }
        for (int i = 0; i < counts[0]; ++i)
            for (int j = 0; j < counts[1]; ++j)
                for (int k = 0; k < counts[2]; ++k)
                    for (std::int32_t s = head_[index(around[0][i], around[1][j], around[2][k])]; s >= 0; s = next_[s])
                        if (close(static_cast<std::size_t>(s))) return false;
        return true;
    }

    void add(vec3<double> r) {
        const std::size_t cell = index(cell_of(r.x, 0), cell_of(r.y, 1), cell_of(r.z, 2));
        next_.push_back(head_[cell]);
        head_[cell] = static_cast<std::int32_t>(next_.size() - 1);
    }

private:
    std::int64_t cell_of(double x, int k) const {
        const double c = std::floor((x + half_[k]) / width_[k]);
        return std::clamp(static_cast<std::int64_t>(std::clamp(c, 0.0, 0x1p40)), std::int64_t{0}, cells_[k] - 1);
    }
    std::size_t index(std::int64_t i, std::int64_t j, std::int64_t k) const {
        return static_cast<std::size_t>((i * cells_[1] + j) * cells_[2] + k);
    }

    bool periodic_;
    std::int64_t cells_[3];
    double width_[3], half_[3];
    std::vector<std::int32_t> head_, next_;
};

// The specified algorithm (docs/reference/scenario-file.md): std::mt19937_64(seed); each candidate draws x, y, z
// in this order as (unit_interval() - 0.5) L_k, a point of [-L_k/2, L_k/2); it is accepted when for
// every sphere placed before, d = minimum_image(candidate - r_j) (plain difference in an open box)
// has dot(d, d) >= contact^2; otherwise the next candidate is drawn.
placement place_spheres(std::size_t count, vec3<double> edges, bool periodic, double contact, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    const box_geometry<double> geometry{periodic, edges};
    const double contact2 = contact * contact;
    sphere_grid grid(edges, periodic, contact, count);
    placement p;
    p.positions.reserve(count);
    const std::uint64_t budget = most_attempts(count);
    while (p.positions.size() < count && p.attempts < budget) {
        const double x = (unit_interval(generator) - 0.5) * edges.x;
        const double y = (unit_interval(generator) - 0.5) * edges.y;
        const double z = (unit_interval(generator) - 0.5) * edges.z;
        const vec3<double> r{x, y, z};
        ++p.attempts;
        const bool free = grid.none_of_near(r, [&](std::size_t j) {
            const vec3<double> d = minimum_image(r - p.positions[j], geometry);
            return dot(d, d) < contact2;
        });
        if (free) {
            grid.add(r);
            p.positions.push_back(r);
        }
    }
    return p;
}

std::string short_text(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", x);
    return text;
}

}  // namespace

void read_random_suspension(const checker& check, const section& table, const section& box,
                            const std::optional<entry>& edges_entry, scenario& s) {
    random_suspension_settings settings;
    read_fields(field_reader(table), random_suspension_fields(), settings);
    system_parameters& system = s.system;
    const bool periodic = system.box.periodic;
    const auto count_entry = table.find("count");
    const auto fraction_entry = table.find("volume_fraction");
    const std::string two_of = "two of " + table.key("count") + ", " + table.key("volume_fraction") + " and " +
                               box.key("edges") + " (the third follows from them)";
    if (!periodic) {
        const std::string open = " (in an open box the spheres fill a cube of volume N (4/3) pi a^3 / phi)";
        if (!count_entry) check.fail_missing(table.key("count"), "an integer >= 1" + open);
        if (!fraction_entry) check.fail_missing(table.key("volume_fraction"), "a number in (0, 1)" + open);
    } else {
        const int given = int(count_entry.has_value()) + int(fraction_entry.has_value()) + int(edges_entry.has_value());
        if (given == 3) check.fail(*fraction_entry, "set only " + two_of);
        if (given < 2) check.fail_missing(count_entry ? table.key("volume_fraction") : table.key("count"), two_of);
    }

    const double a = system.radius;
    const double sphere_volume = 4.0 / 3.0 * std::numbers::pi * a * a * a;
    std::uint64_t count = 0;
    vec3<double> edges = system.box.edges;  // periodic: the box; open: the cube the centres fill
    if (count_entry && fraction_entry) {
        count = *settings.count;
        // Rounded like a lattice's edge (core/lattice.hpp): the same on every platform.
        const double edge = cube_root_15_bits(static_cast<double>(count) * sphere_volume / *settings.volume_fraction);
        if (!std::isfinite(edge) || !(edge > 0.0))
            check.fail(*fraction_entry,
                       "expected a volume fraction that gives a finite box ((N (4/3) pi a^3 / phi)^(1/3))");
        edges = {edge, edge, edge};
        if (periodic) system.box.edges = edges;
    } else if (count_entry) {
        count = *settings.count;
    } else {
        const double spheres =
            std::nearbyint(*settings.volume_fraction * (edges.x * edges.y * edges.z) / sphere_volume);
        if (!(spheres >= 1.0))
            check.fail(*fraction_entry, "gives no sphere in the box (N = phi V / ((4/3) pi a^3) rounds to 0)");
        if (!(spheres <= static_cast<double>(most_generated_particles)))
            check.fail(*fraction_entry, "gives " + short_text(spheres) + " spheres in the box, more than the " +
                                            std::to_string(most_generated_particles) + " a scenario may generate");
        count = static_cast<std::uint64_t>(spheres);
    }
    check_box_reach(check, box, edges_entry, system);

    // The fraction as placed; with a gap, each sphere excludes a sphere of radius a + gap/2.
    settings.count = count;
    settings.volume_fraction = static_cast<double>(count) * sphere_volume / (edges.x * edges.y * edges.z);
    const double contact = 2.0 * a + settings.min_gap;
    const double widened = contact / (2.0 * a);
    const double excluded = *settings.volume_fraction * widened * widened * widened;
    const entry& crowded = fraction_entry ? *fraction_entry : *count_entry;
    const std::string gap_note =
        settings.min_gap > 0.0 ? " (with min_gap, phi (1 + min_gap / 2a)^3 = " + short_text(excluded) + ")" : "";
    if (!(excluded < rsa_saturation))
        check.fail(crowded, "a volume fraction of " + short_text(*settings.volume_fraction) + gap_note + " is beyond " +
                                short_text(rsa_saturation) +
                                ", the saturation of random sequential addition (Zhang & Torquato 2013): no such "
                                "placement exists; lower volume_fraction, count or min_gap");

    placement p = place_spheres(count, edges, periodic, contact, settings.seed);
    if (p.positions.size() < count)
        check.fail(crowded, "random sequential addition placed " + std::to_string(p.positions.size()) + " of " +
                                std::to_string(count) + " spheres in the " + std::to_string(p.attempts) +
                                " attempts it may make (1000 a sphere and 10^6 more) at a volume fraction of " +
                                short_text(*settings.volume_fraction) + gap_note + ": below the saturation " +
                                short_text(rsa_saturation) +
                                " but too close to it; lower volume_fraction, count or "
                                "min_gap");
    s.particles.positions = std::move(p.positions);
    s.random_suspension = settings;
}

}  // namespace stokesian::settings
