// The segments of a run as the members of one batch engine (segment_work.hpp). Member k starts from
// the stored state at the end of segment k - 1 (segment 0 from the scenario's initial state), and
// every member keeps the frames at the run's sample steps. Boundaries lie on sample steps, so every
// member stands on the run's sample grid as long as the batch advances whole sample intervals,
// which every round does (about 0.2 s of wall time, at least one interval, so that a stop request
// is seen), and advance_sampled records exactly the run's sample steps. A segment that has reached
// its end leaves the batch and its state is compared with the stored one, bit for bit. Only the
// run's last segment may end off the grid; its tail runs when it is the last member left.
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "batch_members.hpp"
#include "segment_work.hpp"
#include "stokesian/core/precision_modes.hpp"

namespace stokesian {

namespace {

class segment_batch {
public:
    segment_batch(const run_request& request, const boundary_states& b, std::vector<segment>& segments,
                  unsigned threads)
        : request_(request), b_(b), segments_(segments), first_failed_(segments.size()) {
        const scenario& s = request.scenario_;
        interval_ = s.run.sample_interval_steps();
        for (std::size_t k = 0; k < segments_.size(); ++k) {
            segments_[k].failure = stored_state_fault(b_, k);
            if (!segments_[k].failure.empty()) {
                first_failed_ = k;
                break;
            }
            active_.push_back(k);
        }
        placed_ = placement_of(request);
        placed_.config.interrupt = nullptr;  // a stop request is seen between rounds
        placed_.config.threads = std::max(1u, threads);
        member_ = batch_member{s.particles, s.run.dt};
        batch_ = std::make_unique<shared_batch>(placed_.config, placed_.device,
                                                std::vector<batch_member>(segments_.size(), member_), label());
        for (const std::size_t k : active_)
            if (k > 0) batch_->restore_state(k, state_from_words(b_.words[k - 1], s.run.precision, segments_[k].from));
    }

    std::size_t run() {
        try {
            while (!active_.empty() && !stopped()) {
                if (active_ != batch_->members()) batch_->keep_only(active_);
                round();
            }
            if (tail_ && tail_->first < first_failed_ && !stopped()) run_tail();
        } catch (const std::exception& error) {
            // The batch failed: its first segment still running is the first failure.
            fail(!active_.empty() ? active_.front() : tail_ ? tail_->first : 0, error.what());
        }
        return first_failed_;
    }

private:
    using clock = std::chrono::steady_clock;

    static std::map<std::string, std::string> label() { return {{"batch_id", "segments"}}; }
    bool stopped() const { return request_.stop_signal && request_.stop_signal->load() != 0; }

    // A segment's last sample step: its end, except for the run's last segment when the run does
    // not end on a sample step.
    std::uint64_t last_sample_step(std::size_t k) const {
        return segments_[k].to - (segments_[k].to - segments_[k].from) % interval_;
    }

    // Every round advances whole sample intervals, however slow the batch (a step off the sample
    // grid would cost every member its samples until the grid is reached again), up to the
    // nearest last sample step.
    void round() {
        std::uint64_t chunk = steps_per_second_ > 0.0 ? std::uint64_t(0.2 * steps_per_second_) : interval_;
        chunk = std::max(interval_, chunk - chunk % interval_);
        for (const std::size_t k : active_) chunk = std::min(chunk, last_sample_step(k) - batch_->run_step(k));
        const std::uint64_t samples = chunk / interval_;
        std::vector<frame> frames;
        const auto t0 = clock::now();
        batch_->batch().advance_sampled(samples, interval_, frames);
        const double wall = std::chrono::duration<double>(clock::now() - t0).count();
        if (wall > 0.0) steps_per_second_ = double(chunk) / wall;
        const std::size_t systems = batch_->members().size();
        std::vector<std::size_t> going_on;
        for (const std::size_t k : active_) {
            const std::size_t member = batch_->member_of(k);
            for (std::uint64_t s = 0; s < samples; ++s) {
                frame& f = frames[s * systems + member];
                batch_->as_run_frame(k, f);
                segments_[k].samples.push_back(std::move(f));
            }
            engine_state state;
            if (batch_->run_step(k) < last_sample_step(k)) {
                going_on.push_back(k);
            } else if (batch_->run_step(k) < segments_[k].to) {
                batch_->save_state(k, state);  // the run's last segment: its tail runs alone, last
                tail_.emplace(k, std::move(state));
            } else {
                batch_->save_state(k, state);
                compare(k, state);
            }
        }
        // A segment after one that failed proves nothing more.
        std::erase_if(going_on, [&](std::size_t k) { return k > first_failed_; });
        active_ = std::move(going_on);
    }

    // The steps of the run's last segment after its last sample step, alone: no other member
    // leaves the sample grid.
    void run_tail() {
        const auto& [k, state] = *tail_;
        shared_batch alone(placed_.config, placed_.device, {member_}, label());
        alone.restore_state(0, state);
        alone.batch().advance(segments_[k].to - state.step);
        engine_state end;
        alone.save_state(0, end);
        compare(k, end);
    }

    void compare(std::size_t k, const engine_state& end) {
        if (const std::string why = boundary_mismatch(end, b_, k); !why.empty()) fail(k, why);
    }

    void fail(std::size_t k, const std::string& why) {
        segments_[k].failure = why;
        first_failed_ = std::min(first_failed_, k);
    }

    const run_request& request_;
    const boundary_states& b_;
    std::vector<segment>& segments_;
    std::uint64_t interval_ = 1;
    std::size_t first_failed_;
    std::vector<std::size_t> active_;                           // segments still in the batch, in order
    std::optional<std::pair<std::size_t, engine_state>> tail_;  // the last segment at its last sample step
    batch_placement placed_;
    batch_member member_;
    std::unique_ptr<shared_batch> batch_;
    double steps_per_second_ = 0.0;
};

}  // namespace

std::size_t run_segments_batched(const run_request& request, const boundary_states& b, std::vector<segment>& segments,
                                 unsigned threads) {
    segment_batch batch(request, b, segments, threads);
    return batch.run();
}

}  // namespace stokesian
