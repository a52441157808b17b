// The events a run's observers hear (run_request::on_event, run/run.hpp), in order: start, a
// sample after every chunk of steps, a checkpoint after each one written, interrupt or blow_up when
// the run stops early, finish; with the step each one stands at. Small in-process CPU runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "stokesian/core/scenario.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace stokesian {
// Events by name in GoogleTest's messages.
void PrintTo(run_event event, std::ostream* os) { *os << to_string(event); }
}  // namespace stokesian

namespace {

struct heard {
    run_event event;
    run_progress progress;
};

// The tetrahedron for 20 tau_s at dt = 0.1 (200 steps), a sample every 1 tau_s, a checkpoint every 5.
scenario short_tetrahedron() {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    s.run.dt = 0.1;
    s.run.time = 20.0;
    s.run.sample_every = 1.0;
    s.run.checkpoint_every = 5.0;
    return s;
}

// The head-on approaching pair: the centres come to about 2.15 a at t ~ 0.68 (quick_blow_up_test).
scenario approaching_pair(double min_separation) {
    scenario s = parse_scenario(R"(
[scenario]
name = "pair"
[physics.lubrication]
enabled = true
[box]
boundary = "open"
[particles]
positions = [[-1.25, 0.0, 0.0], [1.25, 0.0, 0.0]]
forces = [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]
[run]
dt = 0.001
time = 2.0
sample_every = 0.01
)",
                                "pair");
    s.run.min_separation = min_separation;
    return s;
}

std::vector<run_event> events_of(const std::vector<heard>& log) {
    std::vector<run_event> events;
    for (const heard& h : log) events.push_back(h.event);
    return events;
}

std::vector<std::uint64_t> steps_of(const std::vector<heard>& log, run_event event) {
    std::vector<std::uint64_t> steps;
    for (const heard& h : log)
        if (h.event == event) steps.push_back(h.progress.step);
    return steps;
}

std::string spelled(const std::vector<heard>& log) {
    std::string text;
    for (const heard& h : log) text += std::string(to_string(h.event)) + "@" + std::to_string(h.progress.step) + " ";
    return text;
}

// Every event between the first and the last is a sample, a checkpoint, interrupt or blow_up.
void expect_framed_by_start_and_finish(const std::vector<heard>& log) {
    ASSERT_GE(log.size(), 2u) << spelled(log);
    EXPECT_EQ(log.front().event, run_event::start) << spelled(log);
    EXPECT_EQ(log.back().event, run_event::finish) << spelled(log);
    const auto events = events_of(log);
    EXPECT_EQ(std::count(events.begin(), events.end(), run_event::start), 1) << spelled(log);
    EXPECT_EQ(std::count(events.begin(), events.end(), run_event::finish), 1) << spelled(log);
    for (std::size_t k = 1; k < log.size(); ++k)
        EXPECT_GE(log[k].progress.step, log[k - 1].progress.step) << "steps never go back: " << spelled(log);
}

class RunEvents : public test_support::scratch_directory_test {
protected:
    RunEvents() : scratch_directory_test("stokesian_run_events") {}

    run_request request(const scenario& s, const fs::path& out) {
        run_request req;
        req.scenario_ = s;
        req.output.path = out;
        req.threads = 1;
        req.checkpoint_wall_seconds = 0.0;
        req.stop_signal = &signal_;
        req.on_event = [this](run_event e, const run_progress& p) {
            log_.push_back({e, p});
            if (e == run_event::sample && raise_at_ && p.step >= *raise_at_ && signal_ == 0) signal_ = SIGTERM;
        };
        return req;
    }

    std::atomic<int> signal_{0};
    std::optional<std::uint64_t> raise_at_;  // the first sample event at or past it raises SIGTERM
    std::vector<heard> log_;
};

}  // namespace

TEST_F(RunEvents, ACompletedRunHearsStartSamplesItsCheckpointsAndFinish) {
    const run_result r = run_scenario(request(short_tetrahedron(), dir_ / "t.h5"));
    ASSERT_EQ(r.status, "completed");
    expect_framed_by_start_and_finish(log_);
    EXPECT_EQ(log_.front().progress.step, 0u);
    EXPECT_EQ(log_.front().progress.total_steps, 200u);
    // Every 50 steps but at the end (a completed run removes its checkpoint instead).
    EXPECT_EQ(steps_of(log_, run_event::checkpoint), (std::vector<std::uint64_t>{50, 100, 150})) << spelled(log_);
    const auto samples = steps_of(log_, run_event::sample);
    ASSERT_FALSE(samples.empty());
    EXPECT_TRUE(std::is_sorted(samples.begin(), samples.end()));
    EXPECT_EQ(samples.back(), 200u);
    for (std::size_t k = 1; k < log_.size(); ++k)
        if (log_[k].event == run_event::checkpoint)
            EXPECT_EQ(log_[k - 1].event, run_event::sample)
                << "a checkpoint follows the chunk it ends: " << spelled(log_);
    const auto events = events_of(log_);
    EXPECT_EQ(std::count(events.begin(), events.end(), run_event::interrupt), 0);
    EXPECT_EQ(std::count(events.begin(), events.end(), run_event::blow_up), 0);
    EXPECT_EQ(log_.back().progress.step, 200u);
}

TEST_F(RunEvents, ASignalIsHeardAsInterruptThenCheckpointAndTheResumeStartsThere) {
    const fs::path out = dir_ / "t.h5";
    raise_at_ = 70;
    const run_result stopped = run_scenario(request(short_tetrahedron(), out));
    ASSERT_TRUE(stopped.resumable) << stopped.status;
    EXPECT_EQ(stopped.signal, SIGTERM);
    expect_framed_by_start_and_finish(log_);
    const std::vector<run_event> events = events_of(log_);
    const std::vector<run_event> tail(events.end() - 4, events.end());
    EXPECT_EQ(tail, (std::vector<run_event>{run_event::sample, run_event::interrupt, run_event::checkpoint,
                                            run_event::finish}))
        << spelled(log_);
    for (auto at = log_.end() - 4; at != log_.end(); ++at) EXPECT_EQ(at->progress.step, stopped.steps);
    EXPECT_EQ(steps_of(log_, run_event::checkpoint), (std::vector<std::uint64_t>{50, stopped.steps}));

    log_.clear();
    signal_ = 0;
    raise_at_.reset();
    run_request again = request(short_tetrahedron(), out);
    again.resume = true;
    const run_result resumed = run_scenario(again);
    ASSERT_EQ(resumed.status, "completed");
    expect_framed_by_start_and_finish(log_);
    EXPECT_EQ(log_.front().progress.step, stopped.steps);
    EXPECT_EQ(log_.front().progress.first_step, stopped.steps);
    std::vector<std::uint64_t> later_checkpoints;  // every 50 steps after the stop, none at the end
    for (std::uint64_t step = 50; step < 200; step += 50)
        if (step > stopped.steps) later_checkpoints.push_back(step);
    EXPECT_EQ(steps_of(log_, run_event::checkpoint), later_checkpoints) << spelled(log_);
}

TEST_F(RunEvents, ABlowUpIsHeardAfterTheSampleThatFoundItThenFinish) {
    const run_result r = run_scenario(request(approaching_pair(2.2), dir_ / "pair.h5"));
    ASSERT_TRUE(r.failed) << r.status;
    expect_framed_by_start_and_finish(log_);
    const std::vector<run_event> events = events_of(log_);
    const std::vector<run_event> tail(events.end() - 3, events.end());
    EXPECT_EQ(tail, (std::vector<run_event>{run_event::sample, run_event::blow_up, run_event::finish}))
        << spelled(log_);
    EXPECT_EQ(log_[log_.size() - 2].progress.step, r.steps);
}

TEST_F(RunEvents, AFirstSampleThatBlowsUpIsHeardAsStartBlowUpFinish) {
    // The centres start 2.5 a apart: a floor of 3 a fails at step 0, before any step.
    const run_result r = run_scenario(request(approaching_pair(3.0), dir_ / "pair.h5"));
    ASSERT_TRUE(r.failed) << r.status;
    EXPECT_EQ(r.steps, 0u);
    EXPECT_EQ(events_of(log_), (std::vector<run_event>{run_event::start, run_event::blow_up, run_event::finish}))
        << spelled(log_);
}
