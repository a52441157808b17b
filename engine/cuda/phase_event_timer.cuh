#pragma once
// The CUDA engine's optional per-phase timer (core/phase_timing.hpp): a CUDA event recorded on the
// default stream before and after each step primitive, read back in batches. The host never waits
// inside a step, so the device runs the timed steps as it runs untimed ones. A phase's time is
// measured from when the device reaches its first event to when it reaches its second: it includes
// launch gaps inside the phase (and the neighbour-count read-back of update_forces), which is what
// the phase costs when the device is starved at small N.
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "stokesian/core/phase_timing.hpp"

namespace stokesian::cuda {

class phase_event_timer final : public step_observer {
public:
    phase_event_timer() = default;
    ~phase_event_timer() {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
    }
    phase_event_timer(const phase_event_timer&) = delete;
    phase_event_timer& operator=(const phase_event_timer&) = delete;

    void begin(step_phase p) override {
        pending_.push_back({p, used_});
        record();
    }
    void end(step_phase) override { record(); }
    void step_done() override {
        step_ends_.push_back(pending_.size());
        // Bounded pool: read the finished steps back now and then (between steps).
        if (used_ >= flush_events) flush();
    }
    // The durations of the steps completed since the last call; synchronises with the device.
    std::vector<phase_durations> take() {
        flush();
        check(cudaDeviceSynchronize(), "phase timer");
        return std::exchange(finished_, {});
    }

private:
    static constexpr std::size_t flush_events = 2048;

    struct interval {
        step_phase phase;
        std::size_t first_event;  // the second is first_event + 1
    };

    void record() {
        if (used_ == events_.size()) {
            cudaEvent_t e = nullptr;
            check(cudaEventCreate(&e), "cudaEventCreate (phase timer)");
            events_.push_back(e);
        }
        check(cudaEventRecord(events_[used_++]), "cudaEventRecord (phase timer)");
    }

    void flush() {
        if (used_ > 0) check(cudaEventSynchronize(events_[used_ - 1]), "cudaEventSynchronize (phase timer)");
        std::size_t k = 0;
        for (std::size_t end : step_ends_) {
            phase_durations step{};
            for (; k < end; ++k) {
                float ms = 0.0f;
                check(cudaEventElapsedTime(&ms, events_[pending_[k].first_event], events_[pending_[k].first_event + 1]),
                      "cudaEventElapsedTime (phase timer)");
                step[static_cast<std::size_t>(pending_[k].phase)] += double(ms);
            }
            finished_.push_back(step);
        }
        // Events of an unfinished step (none between steps) are dropped with the rest.
        pending_.clear();
        step_ends_.clear();
        used_ = 0;
    }

    std::vector<cudaEvent_t> events_;  // the pool; reused after each flush
    std::size_t used_ = 0;
    std::vector<interval> pending_;       // recorded, not yet read back
    std::vector<std::size_t> step_ends_;  // pending_ index one past each completed step
    std::vector<phase_durations> finished_;
};

}  // namespace stokesian::cuda
