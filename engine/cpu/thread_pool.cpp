#include "thread_pool.hpp"

#include <algorithm>
#include <string>
#include <system_error>
#include <utility>

#include "stokesian/core/errors.hpp"

namespace stokesian::cpu {

namespace {
std::pair<std::size_t, std::size_t> chunk(std::size_t n, unsigned parts, unsigned index) {
    const std::size_t base = n / parts, extra = n % parts;
    const std::size_t begin = index * base + std::min<std::size_t>(index, extra);
    return {begin, begin + base + (index < extra ? 1 : 0)};
}
}  // namespace

// A worker that cannot be started (a limit on processes, pids or address space, as batch systems
// set) stops and joins the ones started: leaving them waiting would hang the unwinding (destroying
// the condition variable they wait on blocks until they leave it) or terminate the process.
thread_pool::thread_pool(unsigned threads, const thread_starter& start) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    try {
        workers_.reserve(threads - 1);  // a push_back that throws would leave its thread unjoined
        for (unsigned i = 1; i < threads; ++i) {
            std::function<void()> body = [this, i] { work(i); };
            workers_.push_back(start ? start(std::move(body)) : std::thread(std::move(body)));
        }
    } catch (const std::system_error& e) {
        const std::size_t started = workers_.size();
        stop_workers();
        throw input_error("CPU threads = " + std::to_string(threads) + ": cannot start worker thread " +
                          std::to_string(started + 1) + " of " + std::to_string(threads - 1) + " (" +
                          e.code().message() +
                          "): a limit on processes or memory (ulimit -u, ulimit -v, a batch system's) allows "
                          "fewer; ask for fewer threads");
    } catch (...) {
        stop_workers();
        throw;
    }
}

thread_pool::~thread_pool() { stop_workers(); }

void thread_pool::stop_workers() noexcept {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    start_.notify_all();
    for (auto& w : workers_) w.join();
}

void thread_pool::parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body,
                               std::size_t min_parallel) {
    if (workers_.empty() || n < min_parallel) {
        body(0, n);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        body_ = &body;
        n_ = n;
        pending_ = static_cast<unsigned>(workers_.size());
        first_error_ = nullptr;
        ++generation_;
    }
    start_.notify_all();
    run_chunk(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    // Every chunk has returned: nothing refers to `body` any more.
    if (std::exception_ptr error = std::exchange(first_error_, nullptr)) std::rethrow_exception(error);
}

// An exception leaving a worker thread would call std::terminate: keep the first for the caller.
void thread_pool::run_chunk(unsigned index) noexcept {
    const auto [begin, end] = chunk(n_, size(), index);
    try {
        (*body_)(begin, end);
    } catch (...) {
        std::lock_guard lock(mutex_);
        if (!first_error_) first_error_ = std::current_exception();
    }
}

void thread_pool::work(unsigned index) {
    std::size_t seen = 0;
    for (;;) {
        std::unique_lock lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        lock.unlock();
        run_chunk(index);
        lock.lock();
        if (--pending_ == 0) done_.notify_one();
    }
}

}  // namespace stokesian::cpu
