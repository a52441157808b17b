#pragma once
// Streaming observables: each consumes the sampled frames in order and keeps only what it needs
// (a few numbers or a window), then writes its results into the H5MD `observables` group.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/result_sink.hpp"
#include "stokesian/observables/saved_state.hpp"

namespace stokesian {

class observable {
public:
    virtual ~observable() = default;
    virtual void sample(const frame& f) = 0;
    virtual void write(result_sink& out) const = 0;
    // Headline numbers for the terminal and --json (name -> value).
    virtual void summarise(std::map<std::string, double>& summary) const = 0;

    // Checkpoints (run/run.hpp): kind() names the observable in a checkpoint file; save() records
    // every member that influences write() and summarise(). restore(save()) into a fresh observable
    // made from the same scenario continues it bit for bit; a state that does not fit the
    // observable's settings throws std::invalid_argument.
    virtual std::string kind() const = 0;
    virtual void save(saved_state& out) const = 0;
    virtual void restore(const saved_state& in) = 0;
};

// The observables a scenario asks for, plus the ones every run records (centre of mass).
std::vector<std::unique_ptr<observable>> make_observables(const scenario& s);

// x + image * L: the coordinate without the periodic wrapping.
inline vec3<double> unwrapped_position(const frame& f, std::size_t i, const box_settings& box) {
    const vec3<double> r = f.position[i];
    if (!box.periodic) return r;
    const vec3<int> n = f.image[i];
    return {r.x + n.x * box.edges.x, r.y + n.y * box.edges.y, r.z + n.z * box.edges.z};
}

}  // namespace stokesian
