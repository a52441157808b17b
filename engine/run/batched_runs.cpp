// Batched runs (stokesian/run/batched_runs.hpp): one run_session per run, their engines handles
// onto one shared_batch (batch_members.hpp), advanced together on this thread.
//
// Each round advances the batch by the least number of steps any run may take before its next
// event (end, checkpoint boundary, stop_after_step; run_session::steps_to_event) and at most about
// 0.2 s of wall time, recording frames on the common sample grid g = gcd over the runs of their
// sample interval and their base step (each run's sample steps are multiples of g in batch steps);
// each run keeps the frames at its own sample steps. The round then goes through the events of
// every run as run_scenario does (run_driver.cpp): run_session::goes_on (interrupt, checkpoint) and
// conclude (blow-up, finish).
#include "stokesian/run/batched_runs.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>

#include "batch_members.hpp"
#include "run_session.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/device_error.hpp"
#include "stokesian/core/integrator.hpp"
#include "stokesian/settings/resolved_physics.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace {

std::string refuse(std::string* why, const std::string& reason) {
    if (why != nullptr) *why = reason;
    return "";
}

}  // namespace

std::string batch_key(const run_request& request, std::string* why) {
    if (spread(request.ranks)) return refuse(why, "it runs across MPI ranks");
    const scenario& s = request.scenario_;
    batch_placement r;
    try {
        r = placement_of(request);
    } catch (const std::exception& e) {
        return refuse(why, e.what());  // the run alone will say it
    }
    // A batch member must compute what the run computes alone (core/batch.hpp): the backend says
    // whether its batches do, and of which kernel (a CUDA batch runs the fused engine: kernel fused).
    if (!r.backend->can.batches_runs)
        return refuse(why, "backend " + r.backend->name + " runs alone what no batch runs");
    if (const std::string& kernel = r.backend->can.batch_kernel; !kernel.empty() && r.config.hi_kernel != kernel)
        return refuse(
            why, "backend " + r.backend->name + " batches runs of hi-kernel " + kernel + ", not " + r.config.hi_kernel);
    if (r.device.ordinals.size() > 1) return refuse(why, "it runs on several devices");
    std::string devices;
    for (const int d : r.device.ordinals) devices += std::to_string(d) + ",";
    return r.backend->name + "|" + r.config.hi_kernel + "|" + to_string(s.run.precision) + "|" +
           std::string(to_string(s.run.integrator)) + "|N=" + std::to_string(s.particles.size()) +
           "|devices=" + devices + "\n" + settings::resolved_physics(r.config.system);
}

namespace {

class batch_group {
public:
    batch_group(const std::vector<const run_request*>& requests, const batch_label& label, batched_end on_end)
        : requests_(requests), outcomes_(requests.size()), on_end_(std::move(on_end)) {
        batch_placement r = placement_of(*requests.front());
        r.config.interrupt = nullptr;  // a run stops between rounds (stop_requested), never inside a step
        r.config.threads = 0;
        std::vector<batch_member> members;
        for (const run_request* q : requests) {
            r.config.threads += std::max(1u, q->threads);
            members.push_back({q->scenario_.particles, q->scenario_.run.dt});
        }
        std::map<std::string, std::string> text{{"batch_id", label.id}};
        for (const std::string& name : label.members)
            text["batch_members"] += (text["batch_members"].empty() ? "" : ",") + name;
        batch_ = std::make_unique<shared_batch>(r.config, r.device, std::move(members), std::move(text));
    }

    std::vector<batched_outcome> run() {
        for (std::size_t k = 0; k < requests_.size(); ++k) start(k);
        while (!active_.empty()) {
            try {
                if (active_ != batch_->members()) batch_->keep_only(active_);
            } catch (...) {
                fail_all(std::current_exception());
                break;
            }
            round();
        }
        return std::move(outcomes_);
    }

private:
    using clock = std::chrono::steady_clock;

    void start(std::size_t k) {
        sessions_.push_back(
            std::make_unique<run_session>(*requests_[k], [this, k] { return batch_->member_handle(k); }));
        try {
            if (std::optional<run_result> done = sessions_[k]->start()) {
                outcomes_[k].result = std::move(*done);
                end(k);
            } else {
                active_.push_back(k);
            }
        } catch (...) {
            end(k, std::current_exception());
        }
    }

    // Run k has ended (its result or `error` recorded): its session lets go of files and lock.
    void end(std::size_t k, const std::exception_ptr& error = nullptr) {
        if (error) outcomes_[k].error = error;
        sessions_[k].reset();
        if (on_end_) on_end_(k, outcomes_[k]);
    }

    // The common sample grid of the runs in the batch (batched_runs.cpp's header).
    std::uint64_t grid() const {
        std::uint64_t g = 0;
        for (const std::size_t k : active_) {
            const std::uint64_t base = batch_->run_step(k) - batch_->batch().step();
            g = std::gcd(g, std::gcd(sessions_[k]->sample_interval(), base));
        }
        return std::max<std::uint64_t>(g, 1);
    }

    void round() {
        std::uint64_t chunk = steps_per_second_ > 0.0 ? std::uint64_t(std::max(1.0, 0.2 * steps_per_second_)) : 1;
        for (const std::size_t k : active_) chunk = std::min(chunk, sessions_[k]->steps_to_event());
        const std::uint64_t g = grid(), at = batch_->batch().step();
        // Whole grid intervals to advance_sampled (from a grid step); otherwise up to the next grid step.
        std::uint64_t samples = 0;
        if (at % g != 0) chunk = std::min(chunk, g - at % g);
        else if (chunk >= g) samples = chunk / g, chunk = samples * g;
        std::vector<frame> frames;
        const auto t0 = clock::now();
        try {
            if (samples > 0) batch_->batch().advance_sampled(samples, g, frames);
            else batch_->batch().advance(chunk);
        } catch (...) {
            fail_all(std::current_exception());
            return;
        }
        const double wall = std::chrono::duration<double>(clock::now() - t0).count();
        if (wall > 0.0) steps_per_second_ = double(chunk) / wall;
        const std::size_t systems = batch_->members().size();
        std::vector<std::size_t> going_on;
        for (const std::size_t k : active_) {
            std::vector<frame> mine;
            const std::size_t member = batch_->member_of(k);
            const std::uint64_t interval = sessions_[k]->sample_interval();
            for (std::uint64_t s = 0; s < samples; ++s) {
                frame& f = frames[s * systems + member];
                batch_->as_run_frame(k, f);
                if (f.step % interval == 0) mine.push_back(std::move(f));
            }
            if (events(k, chunk, std::move(mine))) going_on.push_back(k);
        }
        active_ = std::move(going_on);
    }

    // The events of run k after the round; true while it goes on.
    bool events(std::size_t k, std::uint64_t steps, std::vector<frame>&& samples) {
        run_session& session = *sessions_[k];
        try {
            try {
                if (session.advanced(steps, std::move(samples), steps_per_second_) == run_phase::running &&
                    session.goes_on())
                    return true;
                outcomes_[k].result = session.conclude();
                end(k);
                return false;
            } catch (const device_error& e) {
                session.device_failed(e);  // throws
            }
        } catch (...) {
            end(k, std::current_exception());
        }
        return false;
    }

    // The batch failed: a device error ends every run as device_failed does (each keeps its last
    // good state as its checkpoint); any other error is every run's error.
    void fail_all(const std::exception_ptr& error) {
        for (const std::size_t k : active_) {
            try {
                try {
                    std::rethrow_exception(error);
                } catch (const device_error& e) {
                    sessions_[k]->device_failed(e);  // throws
                }
            } catch (...) {
                end(k, std::current_exception());
            }
        }
        active_.clear();
    }

    const std::vector<const run_request*>& requests_;
    std::vector<batched_outcome> outcomes_;
    batched_end on_end_;
    std::unique_ptr<shared_batch> batch_;                 // declared before the sessions: released after them
    std::vector<std::unique_ptr<run_session>> sessions_;  // one per request
    std::vector<std::size_t> active_;                     // the runs still running, in order
    double steps_per_second_ = 0.0;
};

}  // namespace

std::vector<batched_outcome> run_batched(const std::vector<const run_request*>& requests, const batch_label& label,
                                         batched_end on_end) {
    if (requests.empty()) return {};
    batch_group group(requests, label, std::move(on_end));
    return group.run();
}

}  // namespace stokesian
