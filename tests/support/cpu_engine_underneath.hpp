#pragma once
// A test backend's engine: the CPU engine underneath, everything forwarded to it; a test overrides
// what its backend does otherwise (fails like a device, describes itself as another kernel).
#include <cstdint>
#include <memory>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian::test_support {

class cpu_engine_underneath : public engine {
public:
    // config's on the CPU, its default HI loop (the test backend's kernels are names only).
    cpu_engine_underneath(const engine_config& config, const initial_state& state) {
        engine_config cpu = config;
        cpu.backend = "cpu";
        cpu.hi_kernel.clear();
        inner_ = make_engine(cpu, state);
    }
    void advance(std::uint64_t steps) override { inner_->advance(steps); }
    std::uint64_t step() const override { return inner_->step(); }
    std::size_t size() const override { return inner_->size(); }
    void read_frame(frame& out) const override { inner_->read_frame(out); }
    void save_state(engine_state& out) const override { inner_->save_state(out); }
    void restore_state(const engine_state& state) override { inner_->restore_state(state); }
    engine_description description() const override { return inner_->description(); }

protected:
    engine& inner() { return *inner_; }

private:
    std::unique_ptr<engine> inner_;
};

}  // namespace stokesian::test_support
