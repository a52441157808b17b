#pragma once
// A test-only engine for backends registered from tests: particles that never move, its step count,
// and a description that names a device (as the CUDA engines' do) when told to.
#include <cstdint>

#include "stokesian/core/engine.hpp"
#include "stokesian/core/precision_modes.hpp"

namespace stokesian::test_support {

class still_engine final : public engine {
public:
    still_engine(const engine_config& config, const initial_state& state, bool device)
        : config_(config), state_(state), device_(device) {}
    void advance(std::uint64_t steps) override { step_ += steps; }
    std::uint64_t step() const override { return step_; }
    std::size_t size() const override { return state_.size(); }
    void read_frame(frame& out) const override {
        out = {};
        out.step = step_;
        out.time = double(step_) * config_.dt;
        out.position = state_.positions;
        out.image.assign(size(), {0, 0, 0});
        out.velocity.assign(size(), {0, 0, 0});
        out.force = state_.external_forces;
    }
    engine_description description() const override {
        engine_description d{config_.backend, "still", {{"precision", to_string(config_.precision)}}};
        if (device_)
            d.details = {
                {"device_name", "Test Device 7"}, {"compute_capability", "7.7"}, {"device_code", "test code 7.7"}};
        return d;
    }
    void save_state(engine_state& out) const override {
        out = {};
        out.step = step_;
        out.precision = config_.precision;
        out.position_hi = state_.positions;
        out.position_lo.assign(size(), {0, 0, 0});
        out.image.assign(size(), {0, 0, 0});
        out.velocity_hi.assign(size(), {0, 0, 0});
        out.velocity_lo.assign(size(), {0, 0, 0});
        out.force = state_.external_forces;
    }
    void restore_state(const engine_state& state) override { step_ = state.step; }

private:
    engine_config config_;
    initial_state state_;
    std::uint64_t step_ = 0;
    bool device_;
};

}  // namespace stokesian::test_support
