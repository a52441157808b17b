// The segments of a run as the members of one batch engine (segment_work.hpp). Member k starts from
// the stored state at the end of segment k - 1 (segment 0 from the scenario's initial state), and
// every member keeps the frames at the run's sample steps. Each round advances the batch by the
// steps the shortest remaining segment still needs (at most about 0.2 s of wall time, so that a
// stop request is seen): a segment that has reached its end leaves the batch and its state is
// compared with the stored one, bit for bit. Boundaries lie on sample steps, so every member stands
// on the run's sample grid whenever the batch does, and advance_sampled records exactly the run's
// sample steps.
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

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
        batch_placement placed = placement_of(request);
        placed.config.interrupt = nullptr;  // a stop request is seen between rounds
        placed.config.threads = std::max(1u, threads);
        std::vector<batch_member> members(segments_.size(), batch_member{s.particles, s.run.dt});
        batch_ = std::make_unique<shared_batch>(placed.config, placed.device, std::move(members),
                                                std::map<std::string, std::string>{{"batch_id", "segments"}});
        for (const std::size_t k : active_)
            if (k > 0) batch_->restore_state(k, state_from_words(b_.words[k - 1], s.run.precision, segments_[k].from));
    }

    std::size_t run() {
        while (!active_.empty()) {
            if (request_.stop_signal && request_.stop_signal->load() != 0) break;
            if (active_ != batch_->members()) batch_->keep_only(active_);
            try {
                round();
            } catch (const std::exception& error) {
                fail(active_.front(), error.what());  // the batch failed: its first segment is the first failure
                active_.clear();
            }
        }
        return first_failed_;
    }

private:
    using clock = std::chrono::steady_clock;

    void round() {
        std::uint64_t chunk =
            steps_per_second_ > 0.0 ? std::uint64_t(std::max(1.0, 0.2 * steps_per_second_)) : interval_;
        for (const std::size_t k : active_) chunk = std::min(chunk, segments_[k].to - batch_->run_step(k));
        // Every member stands at the same place on the sample grid (they start on it and step alike).
        const std::uint64_t at = batch_->run_step(active_.front());
        std::uint64_t samples = 0;
        if (at % interval_ != 0) chunk = std::min(chunk, interval_ - at % interval_);
        else if (chunk >= interval_) samples = chunk / interval_, chunk = samples * interval_;
        std::vector<frame> frames;
        const auto t0 = clock::now();
        if (samples > 0) batch_->batch().advance_sampled(samples, interval_, frames);
        else batch_->batch().advance(chunk);
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
            if (batch_->run_step(k) < segments_[k].to) {
                going_on.push_back(k);
                continue;
            }
            engine_state end;
            batch_->save_state(k, end);
            if (const std::string why = boundary_mismatch(end, b_, k); !why.empty()) fail(k, why);
        }
        // A segment after one that failed proves nothing more.
        std::erase_if(going_on, [&](std::size_t k) { return k > first_failed_; });
        active_ = std::move(going_on);
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
    std::vector<std::size_t> active_;  // segments still running, in order
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
