// Executes prepared suite runs on a pool of threads (suite_runner.hpp). A run that throws is
// reported as failed; the others go on.
#include "stokesian/regression/suite_runner.hpp"

#include <algorithm>
#include <numeric>

#include "stokesian/regression/negative_control.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian::regression {

std::string run_label(const suite_run_status& status) {
    return status.suite.empty() ? status.name : status.suite + "/" + status.name;
}

suite_execution::suite_execution(std::vector<prepared_run> runs, suite_options options)
    : runs_(std::move(runs)), options_(std::move(options)) {
    jobs_ = concurrent_runs(runs_, options_.jobs);
    for (const prepared_run& p : runs_) {
        suite_run_status s;
        s.name = p.spec.name;
        s.suite = p.suite;
        s.output = p.output;
        s.backend = p.scenario_.run.backend;
        s.total_steps = p.scenario_.run.total_steps();
        s.devices = to_string(p.scenario_.run.devices);
        status_.push_back(s);
    }
    // Longest first: with fewer workers than runs the long ones must not start last.
    order_.resize(runs_.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [this](std::size_t a, std::size_t b) {
        return estimated_work(runs_[a]) > estimated_work(runs_[b]);
    });
}

suite_execution::~suite_execution() {
    for (std::thread& t : workers_)
        if (t.joinable()) t.join();
}

void suite_execution::start(std::function<void(const suite_run_status&)> on_finished) {
    on_finished_ = std::move(on_finished);
    for (unsigned k = 0; k < jobs_; ++k) workers_.emplace_back([this] { work(); });
}

bool suite_execution::wait_for(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return all_done_.wait_for(lock, timeout, [this] { return ended_ == runs_.size(); });
}

std::vector<suite_run_status> suite_execution::snapshot() const {
    std::lock_guard lock(mutex_);
    return status_;
}

void suite_execution::work() {
    for (std::size_t k = next_++; k < runs_.size(); k = next_++) execute(order_[k]);
}

void suite_execution::execute(std::size_t index) {
    const prepared_run& p = runs_[index];
    {
        std::lock_guard lock(mutex_);
        status_[index].state = "running";
    }
    suite_run_status final_status;
    if (options_.stop_signal && options_.stop_signal->load() != 0) {
        std::lock_guard lock(mutex_);
        status_[index].state = "interrupted";
        status_[index].message = "not started (stop requested)";
        final_status = status_[index];
    } else {
        run_request request;
        request.scenario_ = p.scenario_;
        request.output.path = p.output;
        request.output.force = options_.force;
        request.invocation = options_.invocation;
        request.invocation["suite"] = p.spec.name;
        request.invocation["equivalent_command"] = p.equivalent_command;
        request.stop_signal = options_.stop_signal;
        request.threads = p.threads;
        request.on_progress = [this, index](const run_progress& progress) {
            std::lock_guard lock(mutex_);
            status_[index].steps = progress.step;
            status_[index].wall_seconds = progress.wall_seconds;
        };
        std::string state, message;
        double wall = 0.0;
        std::uint64_t steps = 0;
        try {
            const run_result r = run_scenario(request);
            state = r.failed ? "failed" : r.signal ? "interrupted" : "completed";
            message = r.status;
            if (!p.spec.negative_control.empty())
                mark_negative_control(r.output, p.spec.negative_control, p.spec.relabel_precision);
            wall = r.wall_seconds;
            steps = r.steps;
        } catch (const std::exception& e) {
            state = "failed";
            message = e.what();
        }
        std::lock_guard lock(mutex_);
        suite_run_status& s = status_[index];
        s.state = state;
        s.message = message;
        if (wall > 0.0) s.wall_seconds = wall;
        if (steps > 0) s.steps = steps;
        final_status = s;
    }
    {
        std::lock_guard report(report_mutex_);
        if (on_finished_) on_finished_(final_status);
    }
    std::lock_guard lock(mutex_);
    ++ended_;
    all_done_.notify_all();
}

}  // namespace stokesian::regression
