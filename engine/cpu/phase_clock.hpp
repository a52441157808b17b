#pragma once
// The CPU engine's optional per-phase timer (core/phase_timing.hpp): std::chrono::steady_clock
// around each step primitive. The primitives return only when their parallel loops are done, so
// wall time is the phase's time.
#include <chrono>
#include <utility>
#include <vector>

#include "stokesian/core/phase_timing.hpp"

namespace stokesian::cpu {

class phase_clock final : public step_observer {
public:
    void begin(step_phase) override { start_ = std::chrono::steady_clock::now(); }
    void end(step_phase p) override {
        const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start_;
        current_[static_cast<std::size_t>(p)] += elapsed.count();
    }
    void step_done() override {
        finished_.push_back(current_);
        current_ = {};
    }
    // The durations of the steps completed since the last call.
    std::vector<phase_durations> take() { return std::exchange(finished_, {}); }

private:
    std::chrono::steady_clock::time_point start_{};
    phase_durations current_{};
    std::vector<phase_durations> finished_;
};

}  // namespace stokesian::cpu
