#include "thread_pool.hpp"

#include <algorithm>
#include <utility>

namespace stokesian::cpu {

namespace {
std::pair<std::size_t, std::size_t> chunk(std::size_t n, unsigned parts, unsigned index) {
    const std::size_t base = n / parts, extra = n % parts;
    const std::size_t begin = index * base + std::min<std::size_t>(index, extra);
    return {begin, begin + base + (index < extra ? 1 : 0)};
}
}  // namespace

thread_pool::thread_pool(unsigned threads) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

thread_pool::~thread_pool() {
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
