// Executes prepared suite runs on a pool of threads (suite_runner.hpp): each worker takes the next
// group -- one run alone, or a batch of runs advanced together (stokesian/run/batched_runs.hpp).
// A run that throws is reported as failed; the others go on.
#include "stokesian/regression/suite_runner.hpp"

#include <algorithm>
#include <numeric>

#include "stokesian/regression/negative_control.hpp"
#include "stokesian/run/batched_runs.hpp"

namespace stokesian::regression {

std::string run_label(const suite_run_status& status) {
    return status.suite.empty() ? status.name : status.suite + "/" + status.name;
}

suite_execution::suite_execution(std::vector<prepared_run> runs, suite_options options)
    : runs_(std::move(runs)), options_(std::move(options)) {
    boundaries_.resize(runs_.size());
    if (options_.verify == verify_mode::segments && !options_.reference_dir.empty()) {
        // Each reference file read once for all the runs that verify against it.
        std::map<std::filesystem::path, reference_library> folders;
        for (std::size_t k = 0; k < runs_.size(); ++k) {
            const std::filesystem::path& folder = boundary_folder(runs_[k], options_.reference_dir);
            boundaries_[k] = stored_boundaries(runs_[k], folders.try_emplace(folder, folder).first->second);
            if (!boundaries_[k].empty()) runs_[k].batch_key.clear();  // its segments are its parallelism
        }
    }
    groups_ = batch_groups(runs_);
    jobs_ = std::min(concurrent_runs(runs_, options_.jobs), unsigned(groups_.size()));
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
    // Longest first: with fewer workers than groups the long ones must not start last. A batch
    // lasts as long as its longest run.
    std::vector<double> work;
    work.reserve(groups_.size());
    for (const auto& group : groups_) work.push_back(group_work(runs_, group));
    order_.resize(groups_.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
}

suite_execution::~suite_execution() {
    for (std::thread& t : workers_)
        if (t.joinable()) t.join();
}

std::size_t suite_execution::batches() const {
    return std::size_t(std::count_if(groups_.begin(), groups_.end(), [](const auto& g) { return g.size() > 1; }));
}

std::size_t suite_execution::batched_runs() const {
    std::size_t n = 0;
    for (const auto& g : groups_) n += g.size() > 1 ? g.size() : 0;
    return n;
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
    for (std::size_t k = next_++; k < groups_.size(); k = next_++) execute(groups_[order_[k]]);
}

void suite_execution::execute(const std::vector<std::size_t>& group) {
    if (options_.stop_signal && options_.stop_signal->load() != 0) {
        for (const std::size_t index : group) {
            suite_run_status final_status;
            {
                std::lock_guard lock(mutex_);
                status_[index].state = "interrupted";
                status_[index].message = "not started (stop requested)";
                final_status = status_[index];
            }
            report(final_status);
        }
        return;
    }
    if (group.size() == 1) execute_alone(group.front());
    else execute_batch(group);
}

run_request suite_execution::request_for(std::size_t index) {
    const prepared_run& p = runs_[index];
    run_request request;
    request.scenario_ = p.scenario_;
    request.output.path = p.output;
    request.output.force = options_.force;
    request.invocation = options_.invocation;
    request.invocation["suite"] = p.spec.name;
    request.invocation["equivalent_command"] = p.equivalent_command;
    request.stop_signal = options_.stop_signal;
    request.threads = p.threads;
    // Every run keeps its boundary states, so that its result can be recorded with them.
    request.boundary_steps = segment_boundaries(p.scenario_.run.total_steps(), p.scenario_.run.sample_interval_steps(),
                                                p.scenario_.particles.size());
    request.on_progress = [this, index](const run_progress& progress) {
        std::lock_guard lock(mutex_);
        status_[index].steps = progress.step;
        status_[index].wall_seconds = progress.wall_seconds;
    };
    return request;
}

void suite_execution::mark_running(std::size_t index) {
    std::lock_guard lock(mutex_);
    status_[index].state = "running";
}

void suite_execution::execute_alone(std::size_t index) {
    if (!boundaries_[index].empty()) return execute_segmented(index);
    mark_running(index);
    const run_request request = request_for(index);
    try {
        const run_result r = run_scenario(request);
        ended(index, &r, nullptr);
    } catch (...) {
        ended(index, nullptr, std::current_exception());
    }
}

void suite_execution::execute_batch(const std::vector<std::size_t>& group) {
    std::vector<run_request> requests;
    std::vector<const run_request*> pointers;
    batch_label label;
    requests.reserve(group.size());
    for (const std::size_t index : group) {
        mark_running(index);
        requests.push_back(request_for(index));
        label.members.push_back(run_label(status_[index]));
    }
    pointers.reserve(requests.size());
    for (const run_request& r : requests) pointers.push_back(&r);
    // The batch's name: its place among the suite's batches, counted in group order.
    std::size_t number = 1;
    for (const auto& g : groups_) {
        if (&g == &group) break;
        number += g.size() > 1 ? 1 : 0;
    }
    label.id = "batch-" + std::to_string(number);
    try {
        run_batched(pointers, label, [&](std::size_t k, const batched_outcome& o) {
            ended(group[k], o.result ? &*o.result : nullptr, o.error);
        });
    } catch (...) {
        // The batch could not be built (nothing written): each run alone says what it says.
        for (const std::size_t index : group) execute_alone(index);
    }
}

void suite_execution::ended(std::size_t index, const run_result* r, const std::exception_ptr& error) {
    const prepared_run& p = runs_[index];
    std::string state, message;
    double wall = 0.0;
    std::uint64_t steps = 0;
    try {
        if (error) std::rethrow_exception(error);
        state = r->failed ? "failed" : r->signal ? "interrupted" : "completed";
        message = r->status;
        if (!p.spec.negative_control.empty())
            mark_negative_control(r->output, p.spec.negative_control, p.spec.relabel_precision);
        wall = r->wall_seconds;
        steps = r->steps;
    } catch (const std::exception& e) {
        state = "failed";
        message = e.what();
    }
    suite_run_status final_status;
    {
        std::lock_guard lock(mutex_);
        suite_run_status& s = status_[index];
        s.state = state;
        s.message = message;
        if (wall > 0.0) s.wall_seconds = wall;
        if (steps > 0) s.steps = steps;
        final_status = s;
    }
    report(final_status);
}

void suite_execution::report(const suite_run_status& final_status) {
    {
        std::lock_guard report(report_mutex_);
        if (on_finished_) on_finished_(final_status);
    }
    std::lock_guard lock(mutex_);
    ++ended_;
    all_done_.notify_all();
}

}  // namespace stokesian::regression
