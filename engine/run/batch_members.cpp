// The batch of a group of batched runs and each run's engine handle (batch_members.hpp).
#include "batch_members.hpp"

#include <stdexcept>
#include <utility>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

batch_placement placement_of(const run_request& request) {
    const scenario& s = request.scenario_;
    engine_config config = make_engine_config(s);
    const std::size_t n = s.particles.size();
    const backends::registry& registry = backends::backend_registry();
    backends::registry::resolved r = registry.resolve(config, n, "the run");
    const device_context device = backends::device_context_for(*r.chosen, s.run.devices, nullptr);
    r = registry.choose_kernel(std::move(r), n, device);
    return {r.config, device, r.chosen};
}

namespace {

// A run's engine inside a batch: everything but advancing goes to its member.
class member_engine final : public engine {
public:
    member_engine(shared_batch& batch, std::size_t run)
        : batch_(batch), run_(run), description_(batch.description(run)) {}

    void advance(std::uint64_t) override {
        throw std::logic_error("a batched run is advanced by its batch (run/batched_runs.hpp)");
    }
    void advance_sampled(std::uint64_t, std::uint64_t, std::vector<frame>&) override {
        throw std::logic_error("a batched run is advanced by its batch (run/batched_runs.hpp)");
    }
    std::uint64_t step() const override { return batch_.run_step(run_); }
    std::size_t size() const override { return batch_.particles(); }
    void read_frame(frame& out) const override { batch_.read_frame(run_, out); }
    // The batch as it was when the run started (the provenance names the members it ran with).
    engine_description description() const override { return description_; }
    void save_state(engine_state& out) const override { batch_.save_state(run_, out); }
    void restore_state(const engine_state& state) override { batch_.restore_state(run_, state); }

private:
    shared_batch& batch_;
    std::size_t run_;
    engine_description description_;
};

}  // namespace

shared_batch::shared_batch(const engine_config& config, const device_context& device, std::vector<batch_member> runs,
                           std::map<std::string, std::string> label)
    : config_(config), device_(device), runs_(std::move(runs)), label_(std::move(label)) {
    batch_ = backends::make_batch_engine(config_, device_, runs_);
    for (std::size_t k = 0; k < runs_.size(); ++k) members_.push_back(k);
    slot_ = members_;
    base_.assign(runs_.size(), 0);
}

std::unique_ptr<engine> shared_batch::member_handle(std::size_t run) {
    return std::make_unique<member_engine>(*this, run);
}

std::size_t shared_batch::in_batch(std::size_t run) const {
    const std::size_t m = slot_.at(run);
    if (m == absent) throw std::logic_error("run " + std::to_string(run) + " has left its batch");
    return m;
}

void shared_batch::keep_only(const std::vector<std::size_t>& runs) {
    std::vector<engine_state> states(runs.size());
    std::vector<batch_member> members;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        save_state(runs[k], states[k]);
        members.push_back(runs_.at(runs[k]));
    }
    // The new batch starts from the initial states (its constructor's launch); the saved words replace them.
    std::unique_ptr<batch_engine> next = backends::make_batch_engine(config_, device_, members);
    for (std::size_t k = 0; k < runs.size(); ++k) next->restore_member_state(k, states[k]);
    batch_ = std::move(next);
    slot_.assign(runs_.size(), absent);
    for (std::size_t k = 0; k < runs.size(); ++k) {
        slot_[runs[k]] = k;
        base_[runs[k]] = states[k].step;
    }
    members_ = runs;
}

void shared_batch::as_run_frame(std::size_t run, frame& f) const {
    f.step += base_.at(run);
    f.time = static_cast<double>(f.step) * runs_.at(run).dt;
}

void shared_batch::read_frame(std::size_t run, frame& out) const {
    std::vector<frame> frames;
    batch_->read_frames(frames);
    out = std::move(frames.at(in_batch(run)));
    as_run_frame(run, out);
}

void shared_batch::save_state(std::size_t run, engine_state& out) const {
    batch_->save_member_state(in_batch(run), out);
    out.step = run_step(run);
}

void shared_batch::restore_state(std::size_t run, const engine_state& state) {
    if (state.step < batch_->step())
        throw std::invalid_argument("a batched run resumes only before its batch has stepped");
    batch_->restore_member_state(in_batch(run), state);
    base_.at(run) = state.step - batch_->step();
}

engine_description shared_batch::description(std::size_t run) const {
    engine_description d = batch_->description();
    for (const auto& [key, value] : label_) d.details[key] = value;
    d.details["batch_member"] = std::to_string(in_batch(run));
    return d;
}

}  // namespace stokesian
