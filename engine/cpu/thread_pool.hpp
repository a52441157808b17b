#pragma once
// A small persistent pool for the CPU backend's parallel loops. Each index range is split into
// one contiguous chunk per worker; results never depend on the number of threads because every
// loop body writes only to its own particle and sums in a fixed order.
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace stokesian::cpu {

class thread_pool {
public:
    // Starts one worker thread running its argument. A test seam: the pool uses std::thread; a
    // starter that throws std::system_error stands for a process, pids or address-space limit.
    using thread_starter = std::function<std::thread(std::function<void()>)>;

    // threads: 0 for the hardware concurrency. A worker that cannot be started is input_error (one
    // line; exit code 2 in the CLI: the environment's limit), the pool unwound.
    explicit thread_pool(unsigned threads, const thread_starter& start = {});
    ~thread_pool();
    thread_pool(const thread_pool&) = delete;
    thread_pool& operator=(const thread_pool&) = delete;

    unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

    // Calls body(begin, end) on disjoint chunks covering [0, n); returns when all are done.
    // Runs inline when n is below `min_parallel`. If a chunk throws, the others still run to their
    // end (or their own throw) and the first exception is rethrown here; the pool stays usable.
    void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body,
                      std::size_t min_parallel = 64);

private:
    void stop_workers() noexcept;
    void work(unsigned index);
    void run_chunk(unsigned index) noexcept;

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable start_, done_;
    const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
    std::size_t n_ = 0;
    std::size_t generation_ = 0;
    unsigned pending_ = 0;
    std::exception_ptr first_error_;  // the first exception a chunk threw in this call
    bool stop_ = false;
};

}  // namespace stokesian::cpu
