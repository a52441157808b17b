// The observables' and the engine's part of a run's checkpoint (checkpoint_contents.hpp).
#include "checkpoint_contents.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "stokesian/core/errors.hpp"
#include "stokesian/run/blow_up.hpp"

namespace stokesian {

bool finite_state(const engine_state& s) {
    auto all_finite = [](const std::vector<vec3<double>>& values) {
        return std::all_of(values.begin(), values.end(), [](const vec3<double>& v) { return finite_vector(v); });
    };
    return all_finite(s.position_hi) && all_finite(s.position_lo) && all_finite(s.velocity_hi) &&
           all_finite(s.velocity_lo) && all_finite(s.force);
}

void save_observables(const std::vector<std::unique_ptr<observable>>& observables, io::run_checkpoint& c) {
    for (const auto& o : observables) {
        saved_state state;
        o->save(state);
        c.observables.emplace_back(o->kind(), std::move(state));
    }
}

void restore_observables(std::vector<std::unique_ptr<observable>>& observables, const io::run_checkpoint& c,
                         const std::filesystem::path& path) {
    if (c.observables.size() != observables.size())
        throw input_error(path.string(), "/checkpoint/observables", "",
                          "holds " + std::to_string(c.observables.size()) + " observables, the run has " +
                              std::to_string(observables.size()));
    for (std::size_t k = 0; k < observables.size(); ++k) {
        char group[48];
        std::snprintf(group, sizeof group, "/checkpoint/observables/%03zu", k);
        const auto& [kind, state] = c.observables[k];
        if (kind != observables[k]->kind())
            throw input_error(path.string(), group, kind, "expected the observable '" + observables[k]->kind() + "'");
        try {
            observables[k]->restore(state);
        } catch (const std::invalid_argument& e) {
            throw input_error(path.string(), group, kind, e.what());
        }
    }
}

}  // namespace stokesian
