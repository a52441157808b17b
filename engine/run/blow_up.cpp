#include "stokesian/run/blow_up.hpp"

#include <cmath>

#include "stokesian/core/close_pair.hpp"
#include "stokesian/core/number_text.hpp"

namespace stokesian {

bool finite_vector(const vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string blow_up_in(const frame& f, const scenario& s) {
    const auto& box = s.system.box;
    for (std::size_t i = 0; i < f.position.size(); ++i) {
        const std::string particle = "particle " + std::to_string(i);
        if (!finite_vector(f.position[i])) return "non-finite position of " + particle;
        if (!finite_vector(f.velocity[i])) return "non-finite velocity of " + particle;
        if (i < f.force.size() && !finite_vector(f.force[i])) return "non-finite force on " + particle;
        if (box.periodic) {
            const vec3<double> v = f.velocity[i];
            const double dt = s.run.dt;
            if (std::fabs(v.x) * dt > 0.5 * box.edges.x || std::fabs(v.y) * dt > 0.5 * box.edges.y ||
                std::fabs(v.z) * dt > 0.5 * box.edges.z)
                return particle +
                       " moves by more than half a box in one step (|v| = " + short_number(std::sqrt(dot(v, v))) + ")";
        }
    }
    const double floor = s.run.min_separation * s.system.radius;
    if (floor > 0.0)
        if (const auto pair = find_close_pair(f.position, box, floor))
            return "particles " + std::to_string(pair->i) + " and " + std::to_string(pair->j) + " are " +
                   short_number(pair->distance / s.system.radius) +
                   " a apart, closer than run.min_separation = " + short_number(s.run.min_separation) + " a";
    return {};
}

}  // namespace stokesian
