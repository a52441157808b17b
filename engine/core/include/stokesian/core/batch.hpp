#pragma once
// Batches: many independent small systems of the same size N and the same precision mode,
// advanced together (engine/README.md, "Fused and batched small systems"). Each member has its own
// initial positions, external forces and time step; every other physical parameter (radius,
// mobility, tensor, lubrication, pair force, box) is shared and taken from the configuration.
//
// Every member's trajectory is bitwise the trajectory of the same system run alone with
// make_engine() on the same backend and precision mode (CPU: the default all-pairs loop; CUDA: the
// fused kernel, --hi-kernel fused).
//
// One batch = one precision mode: each mode is a different instantiation of the kernels, so a study
// over several modes builds one batch per mode.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "stokesian/core/engine.hpp"

namespace stokesian {

struct batch_member {
    initial_state state;
    double dt = 0.01;  // tau_s; replaces engine_config::dt for this member
};

class batch_engine {
public:
    virtual ~batch_engine() = default;
    // Advances every member by `steps` time steps.
    virtual void advance(std::uint64_t steps) = 0;
    virtual std::uint64_t step() const = 0;
    // Number of members.
    virtual std::size_t systems() const = 0;
    // One frame per member, in member order (time = step x the member's dt).
    virtual void read_frames(std::vector<frame>& out) const = 0;
    // Advances samples x interval steps; out[k * systems() + s] is member s's frame after
    // step() + (k + 1) x interval steps, what advance(interval) + read_frames() gives (the fused CUDA
    // batch records them on the device, one transfer per launch).
    virtual void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) {
        out.clear();
        std::vector<frame> now;
        for (std::uint64_t k = 0; k < samples; ++k) {
            advance(interval);
            read_frames(now);
            for (frame& f : now) out.push_back(std::move(f));
        }
    }
    // One member's state, bit for bit, as its engine alone saves it (engine::save_state), with
    // step = step(); and back. restore_member replaces the member's words only (step() stays): the
    // batched runs (run layer) rebuild a batch from the states of the members that go on, and
    // resume a member from its checkpoint. Throws std::invalid_argument for a state of another
    // precision mode or size.
    virtual void save_member_state(std::size_t member, engine_state& out) const = 0;
    virtual void restore_member_state(std::size_t member, const engine_state& state) = 0;
    // What ran: backend, kernel, and as provenance members, particles per member, threads or device.
    virtual engine_description description() const = 0;
};

// Batches are made by the backends layer: make_batch_engine() (stokesian/backends/engine_factory.hpp).

}  // namespace stokesian
