#pragma once
// The host side every engine shares: the particle state in the storage types of a precision mode,
// and the one copy of its conversions -- initial positions rounded to storage and wrapped once
// more, frames widened to double, checkpoint words. The CPU engine computes on a host_state; the
// GPU engines override the computation only and mirror their device arrays through one (download
// before a frame or checkpoint, upload after a restore), as HOOMD's *GPU twins do.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/core/system.hpp"
#include "stokesian/physics/drift.hpp"

namespace stokesian {

// The box in the storage type P of positions, as the drift wraps with it.
template <class P>
drift_box<P> storage_box(const box_settings& box) {
    return {box.periodic, value_cast<P>(box.edges),
            value_cast<P>(vec3<double>{0.5 * box.edges.x, 0.5 * box.edges.y, 0.5 * box.edges.z})};
}

// positions[i] rounded to P into position[i], image[i] from zero. Rounding to the storage type may
// land a coordinate on +L/2: wrap once more.
template <class P>
void round_initial_positions(const std::vector<vec3<double>>& positions, const drift_box<P>& box, vec3<P>* position,
                             vec3<int>* image) {
    for (std::size_t i = 0; i < positions.size(); ++i) {
        position[i] = value_cast<P>(positions[i]);
        image[i] = {0, 0, 0};
        if (box.periodic) {
            wrap_component(position[i].x, image[i].x, box.edge.x, box.half_edge.x);
            wrap_component(position[i].y, image[i].y, box.edge.y, box.half_edge.y);
            wrap_component(position[i].z, image[i].z, box.edge.z, box.half_edge.z);
        }
    }
}

// The first n forces rounded to the working type W into out[0, n).
template <class W>
void round_forces(const std::vector<vec3<double>>& forces, std::size_t n, vec3<W>* out) {
    for (std::size_t i = 0; i < n; ++i) out[i] = value_cast<W>(forces[i]);
}

// A frame of n particles from storage arrays, every value widened exactly; time = step x dt. The
// lubrication report is the caller's.
template <class P, class A, class W>
void fill_frame(frame& out, std::uint64_t step, double dt, std::size_t n, const vec3<P>* position,
                const vec3<int>* image, const vec3<A>* velocity, const vec3<W>* force) {
    out.step = step;
    out.time = static_cast<double>(step) * dt;
    out.position.resize(n);
    out.image.assign(image, image + n);
    out.velocity.resize(n);
    out.force.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.position[i] = value_cast<double>(position[i]);
        out.velocity[i] = value_cast<double>(velocity[i]);
        out.force[i] = value_cast<double>(force[i]);
    }
}

template <class Policy>
struct host_state {
    using W = typename Policy::working;
    using A = typename Policy::accumulator;
    using P = typename Policy::position;

    std::uint64_t step = 0;
    std::vector<vec3<P>> position;
    std::vector<vec3<int>> image;
    std::vector<vec3<A>> velocity;
    std::vector<vec3<W>> force;    // the last force evaluation
    std::vector<vec3<A>> history;  // Adams-Bashforth's v_{n-1}, when has_history
    bool has_history = false;

    std::size_t size() const { return position.size(); }

    // Step 0 of `state`: positions rounded and wrapped, velocities and forces zero, no history.
    void load_initial(const initial_state& state, const drift_box<P>& box) {
        const std::size_t n = state.size();
        step = 0;
        position.resize(n);
        image.resize(n);
        round_initial_positions(state.positions, box, position.data(), image.data());
        velocity.assign(n, vec3<A>{A{}, A{}, A{}});
        force.assign(n, vec3<W>{});
        history.clear();
        has_history = false;
    }

    void read_frame(frame& out, double dt) const {
        fill_frame(out, step, dt, size(), position.data(), image.data(), velocity.data(), force.data());
    }

    // Checkpoint words, bit for bit (core/engine.hpp, engine_state).
    void save(engine_state& out) const {
        out.step = step;
        out.precision = Policy::mode;
        split_words(position, out.position_hi, out.position_lo);
        out.image = image;
        split_words(velocity, out.velocity_hi, out.velocity_lo);
        out.force.resize(force.size());
        for (std::size_t i = 0; i < force.size(); ++i) out.force[i] = value_cast<double>(force[i]);
        out.history_hi.clear();
        out.history_lo.clear();
        if (has_history) split_words(history, out.history_hi, out.history_lo);
    }

    // The inverse of save() for an engine of n particles; throws std::invalid_argument when `s`
    // does not fit (state_words.hpp, check_state_fits).
    void restore(const engine_state& s, std::size_t n) {
        check_state_fits(s, n, Policy::mode);
        step = s.step;
        position = join_words<P>(s.position_hi, s.position_lo);
        image = s.image;
        velocity = join_words<A>(s.velocity_hi, s.velocity_lo);
        force.resize(s.force.size());
        for (std::size_t i = 0; i < force.size(); ++i) force[i] = value_cast<W>(s.force[i]);
        has_history = !s.history_hi.empty();
        history.clear();
        if (has_history) history = join_words<A>(s.history_hi, s.history_lo);
    }
};

}  // namespace stokesian
