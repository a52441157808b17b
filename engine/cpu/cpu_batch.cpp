// The CPU implementation of batch_engine: members advanced in parallel, each by its own engine.
#include "stokesian/cpu/cpu_batch.hpp"

#include <string>

#include "stokesian/cpu/cpu_backend.hpp"
#include "thread_pool.hpp"

namespace stokesian::cpu {

namespace {

class cpu_batch_engine final : public batch_engine {
public:
    cpu_batch_engine(const engine_config& config, const std::vector<batch_member>& members)
        : pool_(config.threads), precision_(config.precision) {
        engine_config member_config = config;
        member_config.backend = "cpu";
        member_config.threads = 1;  // parallel over members, not within one
        members_.reserve(members.size());
        for (const batch_member& m : members) {
            member_config.dt = m.dt;
            members_.push_back(make_cpu_engine(member_config, m.state));
        }
        particles_ = members.front().state.size();
        hi_kernel_ = members_.front()->description().hi_kernel;
    }

    void advance(std::uint64_t steps) override {
        // One chunk of members per worker; each engine is touched by exactly one thread.
        pool_.parallel_for(
            members_.size(),
            [&](std::size_t begin, std::size_t end) {
                for (std::size_t k = begin; k < end; ++k) members_[k]->advance(steps);
            },
            2);
        step_ += steps;
    }

    std::uint64_t step() const override { return step_; }
    std::size_t systems() const override { return members_.size(); }

    void read_frames(std::vector<frame>& out) const override {
        out.resize(members_.size());
        for (std::size_t k = 0; k < members_.size(); ++k) members_[k]->read_frame(out[k]);
    }

    // A member engine's step counts from its own start or restored state; the batch's is step().
    void save_member_state(std::size_t member, engine_state& out) const override {
        members_.at(member)->save_state(out);
        out.step = step_;
    }
    void restore_member_state(std::size_t member, const engine_state& state) override {
        engine_state at_batch_step = state;
        at_batch_step.step = step_;
        members_.at(member)->restore_state(at_batch_step);
    }

    engine_description description() const override {
        return {"cpu",
                hi_kernel_,
                {{"batch", "one single-threaded engine per member, members distributed over threads"},
                 {"threads", std::to_string(pool_.size())},
                 {"systems", std::to_string(members_.size())},
                 {"particles_per_system", std::to_string(particles_)},
                 {"precision", to_string(precision_)}}};
    }

private:
    std::vector<std::unique_ptr<engine>> members_;
    thread_pool pool_;
    precision_mode precision_;
    std::size_t particles_ = 0;
    std::string hi_kernel_;
    std::uint64_t step_ = 0;
};

}  // namespace

std::unique_ptr<batch_engine> make_cpu_batch_engine(const engine_config& config,
                                                    const std::vector<batch_member>& members) {
    return std::make_unique<cpu_batch_engine>(config, members);
}

}  // namespace stokesian::cpu
