// A run verified in segments (stokesian/run/segments.hpp; engine/docs/segmented-verification.md):
// the segments as the members of one batch (segment_batch.cpp), each from its boundary state to the
// next boundary, then their samples, in order, through one run_session whose engine only stands at
// the boundaries.
#include <cstring>
#include <limits>
#include <stdexcept>

#include "run_session.hpp"
#include "segment_work.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/run/batched_runs.hpp"
#include "stokesian/run/segments.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace {

// The stitched run's engine: the run's own engine (its description, frames and states), placed at
// each boundary by the driver; it never steps (the segments did).
class boundary_engine final : public engine {
public:
    explicit boundary_engine(std::unique_ptr<engine> inner) : inner_(std::move(inner)) {}
    void advance(std::uint64_t) override {
        throw std::logic_error("segmented run: the stitched run's engine only stands at boundaries");
    }
    std::uint64_t step() const override { return inner_->step(); }
    std::size_t size() const override { return inner_->size(); }
    void read_frame(frame& out) const override { inner_->read_frame(out); }
    engine_description description() const override { return inner_->description(); }
    void save_state(engine_state& out) const override { inner_->save_state(out); }
    void restore_state(const engine_state& state) override { inner_->restore_state(state); }

private:
    std::unique_ptr<engine> inner_;
};

std::string range_of(std::size_t k, std::size_t count, const segment& s) {
    return "segment " + std::to_string(k + 1) + " of " + std::to_string(count) + " (steps " + std::to_string(s.from) +
           " to " + std::to_string(s.to) + ")";
}

// Why the stored boundaries cannot verify this run ("" : they can).
std::string misfit(const run_request& request, const boundary_states& b) {
    const scenario& s = request.scenario_;
    if (request.resume || request.stop_after_step || spread(request.ranks))
        return "the run resumes, stops early or spans MPI ranks";
    if (s.run.checkpoint_interval_steps() != 0) return "the run writes checkpoints by simulated time";
    if (const std::string fault = boundary_states_fault(b); !fault.empty()) return fault;
    if (b.steps.size() < 2 || b.steps.back() != s.run.total_steps())
        return "the stored boundaries end at step " + std::to_string(b.steps.empty() ? 0 : b.steps.back()) +
               ", the run at step " + std::to_string(s.run.total_steps());
    const std::uint64_t interval = s.run.sample_interval_steps();
    for (std::size_t k = 0; k + 1 < b.steps.size(); ++k)
        if (b.steps[k] % interval != 0) return "boundary step " + std::to_string(b.steps[k]) + " is not a sample step";
    if (b.precision != to_string(s.run.precision))
        return "the stored boundaries are states of " + b.precision + ", the run computes " +
               to_string(s.run.precision);
    if (std::string why; batch_key(request, &why).empty()) return "its segments cannot run as one batch: " + why;
    return "";
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

run_result stitch(const run_request& request, const boundary_states& b, std::vector<segment>& segments) {
    run_request stitched = request;
    stitched.boundary_steps = b.steps;
    stitched.invocation["verification"] = verified_in_segments(segments.size());
    boundary_engine* placed = nullptr;
    run_session session(stitched, [&] {
        engine_config config = make_engine_config(stitched.scenario_);
        config.threads = stitched.threads;
        auto e = std::make_unique<boundary_engine>(build_run_engine(config, stitched.scenario_));
        placed = e.get();
        return e;
    });
    if (std::optional<run_result> done = session.start()) return *done;
    const precision_mode precision = stitched.scenario_.run.precision;
    for (std::size_t k = 0; k < segments.size(); ++k) {
        placed->restore_state(state_from_words(b.words[k], precision, b.steps[k]));
        if (session.advanced(segments[k].to - segments[k].from, std::move(segments[k].samples),
                             std::numeric_limits<double>::infinity()) != run_phase::running ||
            !session.goes_on())
            break;
    }
    return session.conclude();
}

}  // namespace

std::string stored_state_fault(const boundary_states& b, std::size_t k) {
    if (boundary_digest(b.steps[k], b.words[k]) != b.digests[k])
        return "the stored state at its end does not match its stored digest";
    return "";
}

std::string boundary_mismatch(const engine_state& end, const boundary_states& b, std::size_t k) {
    if (end.step != b.steps[k]) return "it ended at step " + std::to_string(end.step);
    if (!same_bits(state_words(end), b.words[k]))
        return "its state differs from the stored boundary state (digest " +
               boundary_digest(end.step, state_words(end)) + ", stored " + b.digests[k] + ")";
    return "";
}

segmented_outcome run_segmented(const run_request& request, const boundary_states& b, unsigned threads) {
    segmented_outcome out;
    if (const std::string why = misfit(request, b); !why.empty()) {
        out.failure = "the stored boundaries do not fit the run: " + why;
        return out;
    }
    std::vector<segment> segments(b.steps.size());
    for (std::size_t k = 0; k < segments.size(); ++k) {
        segments[k].from = k == 0 ? 0 : b.steps[k - 1];
        segments[k].to = b.steps[k];
    }
    out.segments = segments.size();
    const std::size_t failed = run_segments_batched(request, b, segments, threads);
    if (request.stop_signal && request.stop_signal->load() != 0) {
        out.failure = "stopped by a signal during segmented verification";
        return out;
    }
    if (failed < segments.size()) {
        out.failure = range_of(failed, segments.size(), segments[failed]) +
                      " did not end bit for bit at its boundary: " + segments[failed].failure;
        return out;
    }
    out.result = stitch(request, b, segments);
    return out;
}

}  // namespace stokesian
