#include "state_check.hpp"

#include "stokesian/run/blow_up.hpp"

namespace stokesian::bench {

std::function<std::string(const frame&)> state_check(const benchmark_system& s, double dt) {
    if (!s.system.lubrication.enabled) return {};
    scenario checked;
    checked.system = s.system;
    checked.run.dt = dt;
    checked.run.min_separation = 0.0;
    return [checked](const frame& f) { return blow_up_in(f, checked); };
}

std::string fewer_resets_note(std::uint64_t requested, const phase_timing& t) {
    if (t.blown_up_by.empty()) return {};
    return "the state after step " + std::to_string(t.reset_every) + " from the initial one blew up (" + t.blown_up_by +
           "): timed with a reset every " + (t.reset_every == 1 ? "step" : std::to_string(t.reset_every) + " steps") +
           ", not " + std::to_string(requested);
}

}  // namespace stokesian::bench
