// The messages of a run across MPI ranks (run/rank_protocol.hpp): rank 0's side and the others'.
#include "rank_protocol.hpp"

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/device_error.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/core/rank_devices.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace {

enum class command : std::uint64_t { build = 1, restore, advance, advance_sampled, end };

// The fixed part of a message; a build, restore or end message continues with its payload.
struct message {
    command what{};
    std::uint64_t a = 0, b = 0;
};

message receive(communicator& ranks) {
    message m;
    ranks.broadcast(&m, sizeof m, 0);
    return m;
}

void send(communicator& ranks, message m) { ranks.broadcast(&m, sizeof m, 0); }

// A map of strings, key and value after key and value.
void broadcast_map(communicator& ranks, std::map<std::string, std::string>& map) {
    std::uint64_t entries = map.size();
    ranks.broadcast(&entries, sizeof entries, 0);
    if (ranks.leads()) {
        for (const auto& [key, value] : map) {
            std::string k = key, v = value;
            broadcast_string(ranks, k);
            broadcast_string(ranks, v);
        }
        return;
    }
    map.clear();
    for (std::uint64_t k = 0; k < entries; ++k) {
        std::string key, value;
        broadcast_string(ranks, key);
        broadcast_string(ranks, value);
        map.emplace(std::move(key), std::move(value));
    }
}

// Every word of the state (core/engine.hpp), byte for byte.
void broadcast_state(communicator& ranks, engine_state& s) {
    ranks.broadcast(&s.step, sizeof s.step, 0);
    ranks.broadcast(&s.precision, sizeof s.precision, 0);
    for (auto* v :
         {&s.position_hi, &s.position_lo, &s.velocity_hi, &s.velocity_lo, &s.force, &s.history_hi, &s.history_lo})
        broadcast_vector(ranks, *v);
    broadcast_vector(ranks, s.image);
}

class rank_leader_engine final : public engine {
public:
    rank_leader_engine(std::unique_ptr<engine> inner, communicator& ranks) : inner_(std::move(inner)), ranks_(ranks) {}

    void advance(std::uint64_t steps) override {
        send(ranks_, {command::advance, steps, 0});
        inner_->advance(steps);
    }
    void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) override {
        send(ranks_, {command::advance_sampled, samples, interval});
        inner_->advance_sampled(samples, interval, out);
    }
    void restore_state(const engine_state& state) override {
        send(ranks_, {command::restore, 0, 0});
        engine_state copy = state;
        broadcast_state(ranks_, copy);
        inner_->restore_state(state);
    }
    std::uint64_t step() const override { return inner_->step(); }
    std::size_t size() const override { return inner_->size(); }
    void read_frame(frame& out) const override { inner_->read_frame(out); }
    engine_description description() const override { return inner_->description(); }
    void save_state(engine_state& out) const override { inner_->save_state(out); }

private:
    std::unique_ptr<engine> inner_;
    communicator& ranks_;
};

// A follower's engine, built from rank 0's record as a resumed run rebuilds its scenario.
std::unique_ptr<engine> build_follower(communicator& ranks, unsigned threads) {
    std::map<std::string, std::string> record;
    broadcast_map(ranks, record);
    io::run_checkpoint c;
    c.run = record;
    scenario s;
    engine_config config;
    try {
        s = scenario_from_checkpoint(c, "rank 0's run");
        config = make_engine_config(s);
        config.backend = record.at("rank_backend");
        config.hi_kernel = record.at("rank_hi_kernel");
        const std::string& devices = record.at("rank_devices");  // "": not given
        s.run.devices = devices.empty() ? device_selection{} : parse_device_selection(devices);
    } catch (const std::exception& e) {
        // Rank 0 read the same settings without complaint: this is no bad input of the user's but a
        // fault of this rank, which must say so (the CLI prints only rank 0's input errors).
        throw std::runtime_error("rank " + std::to_string(ranks.rank()) + " cannot rebuild rank 0's run: " + e.what());
    }
    config.threads = threads;
    // The device this rank drives (one per rank; none for a host backend), as rank 0 chose its own.
    // What fails here may fail on this rank alone (its host lacks the backend rank 0 chose): it is
    // gathered, never thrown alone (rank 0 waits in the same gather and says it).
    device_context device;
    backends::registry::resolved chosen;
    std::string problem;
    try {
        chosen = backends::backend_registry().resolve(config, s.particles.size(), "the run");
        device = backends::device_context_for(*chosen.chosen, s.run.devices, &ranks);
    } catch (const input_error& e) {
        problem = e.what();
    } catch (const std::invalid_argument& e) {
        problem = e.what();
    }
    if (const std::string verdict = gather_rank_problems(ranks, problem); !verdict.empty()) throw input_error(verdict);
    return backends::make_engine(backends::backend_registry().choose_kernel(chosen, s.particles.size(), device), device,
                                 s.particles);
}

// After a device error on this rank or a peer (cuda/device_group.hpp): rank 0 writes the checkpoint
// of the last good sample and then ends every rank (MPI_Abort, exit code 1, its message naming the
// rank and device). Leaving first would end rank 0 before its checkpoint; so wait, but not for ever.
[[noreturn]] void wait_for_rank_zero_to_end(communicator& ranks, const device_error& e) {
    constexpr auto patience = std::chrono::minutes(10);  // a checkpoint of 10^6 particles takes seconds
    std::this_thread::sleep_for(patience);
    throw std::runtime_error("rank " + std::to_string(ranks.rank()) + ": " + e.what() +
                             "; rank 0 did not end the run within 10 minutes");
}

}  // namespace

void announce_build(communicator& ranks, std::map<std::string, std::string> record, const engine_config& config,
                    const device_selection& devices) {
    send(ranks, {command::build, 0, 0});
    record["rank_backend"] = config.backend;
    record["rank_hi_kernel"] = config.hi_kernel;
    record["rank_devices"] = to_string(devices);
    broadcast_map(ranks, record);
    // Rank 0 prepared before it announced (it throws alone: its line is the one printed).
    if (const std::string verdict = gather_rank_problems(ranks, ""); !verdict.empty()) throw input_error(verdict);
}

std::unique_ptr<engine> lead_ranks(std::unique_ptr<engine> inner, communicator& ranks) {
    return std::make_unique<rank_leader_engine>(std::move(inner), ranks);
}

void announce_end(communicator& ranks, const run_result& result) {
    send(ranks, {command::end, result.failed ? 1U : 0U, std::uint64_t(result.signal)});
    std::uint64_t resumable = result.resumable ? 1 : 0;
    ranks.broadcast(&resumable, sizeof resumable, 0);
    std::string status = result.status;
    broadcast_string(ranks, status);
}

run_result follow_run(communicator& ranks, unsigned threads) {
    if (ranks.leads()) throw std::logic_error("follow_run: rank 0 leads the run (run_scenario)");
    std::unique_ptr<engine> eng;
    std::vector<frame> discarded;
    for (;;) {
        const message m = receive(ranks);
        if (m.what == command::end) {
            run_result r;
            r.failed = m.a != 0;
            r.signal = int(m.b);
            std::uint64_t resumable = 0;
            ranks.broadcast(&resumable, sizeof resumable, 0);
            r.resumable = resumable != 0;
            broadcast_string(ranks, r.status);
            return r;
        }
        if (m.what == command::build) {
            eng.reset();
            eng = build_follower(ranks, threads);
            continue;
        }
        if (!eng) throw std::logic_error("rank " + std::to_string(ranks.rank()) + ": an engine call before the build");
        try {
            switch (m.what) {
                case command::restore: {
                    engine_state state;
                    broadcast_state(ranks, state);
                    eng->restore_state(state);
                    break;
                }
                case command::advance: eng->advance(m.a); break;
                case command::advance_sampled: eng->advance_sampled(m.a, m.b, discarded); break;
                default:
                    throw std::logic_error("rank " + std::to_string(ranks.rank()) + ": unknown message " +
                                           std::to_string(std::uint64_t(m.what)));
            }
        } catch (const device_error& e) {
            wait_for_rank_zero_to_end(ranks, e);
        } catch (const lubrication_solver_error&) {
            // Rank 0's engine failed the same way at the same step (the state is the same on every
            // rank): its run ends as a blow-up and the end message follows.
        }
    }
}

}  // namespace stokesian
