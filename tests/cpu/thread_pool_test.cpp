// The CPU thread pool (cpu/thread_pool.hpp): a chunk that throws hands its exception to the caller
// (it used to call std::terminate from the worker thread) and the pool keeps working; a worker
// that cannot be started unwinds the pool into one input_error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "cpu/thread_pool.hpp"
#include "stokesian/core/errors.hpp"

using stokesian::cpu::thread_pool;

TEST(ThreadPool, AThrowingChunkReachesTheCallerAndThePoolStaysUsable) {
    thread_pool pool(4);
    ASSERT_EQ(pool.size(), 4u);
    // Every chunk but the caller's (chunk 0 starts at index 0) throws, so the exception surely
    // comes from a worker thread.
    for (int round = 0; round < 3; ++round) {
        std::atomic<int> chunks{0};
        EXPECT_THROW(pool.parallel_for(
                         400,
                         [&](std::size_t begin, std::size_t) {
                             ++chunks;
                             if (begin != 0) throw std::runtime_error("chunk failed");
                         },
                         1),
                     std::runtime_error);
        EXPECT_EQ(chunks.load(), 4) << "every chunk ran to its end or its throw before parallel_for returned";
    }
    std::vector<int> hit(1000, 0);
    pool.parallel_for(
        hit.size(),
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) ++hit[i];
        },
        1);
    for (std::size_t i = 0; i < hit.size(); ++i) ASSERT_EQ(hit[i], 1) << "index " << i;
}

TEST(ThreadPool, TheCallersOwnChunkThrowingIsRethrownAfterTheWorkersFinish) {
    thread_pool pool(3);
    std::atomic<int> finished{0};
    EXPECT_THROW(pool.parallel_for(
                     300,
                     [&](std::size_t begin, std::size_t) {
                         if (begin == 0) throw std::logic_error("caller's chunk");
                         ++finished;
                     },
                     1),
                 std::logic_error);
    EXPECT_EQ(finished.load(), 2);
}

namespace {

// Starts `good` workers, then fails as pthread_create does under a process or address-space
// limit (EAGAIN, which std::thread reports as std::system_error).
thread_pool::thread_starter failing_after(unsigned good) {
    auto started = std::make_shared<unsigned>(0);
    return [started, good](std::function<void()> body) {
        if ((*started)++ == good) throw std::system_error(EAGAIN, std::generic_category(), "thread creation (test)");
        return std::thread(std::move(body));
    };
}

}  // namespace

// In a child process under an alarm: a pool whose unwinding hangs (destroying the condition
// variable its started workers wait on) is ended by SIGALRM instead of hanging the test binary.
TEST(ThreadPool, AWorkerThatCannotBeStartedUnwindsThePoolIntoOneInputError) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            ::alarm(10);
            for (const unsigned good : {3u, 1u, 6u, 0u}) {
                try {
                    thread_pool pool(8, failing_after(good));
                    std::_Exit(10);  // constructed although a start failed
                } catch (const stokesian::input_error& e) {
                    const std::string expected =
                        "CPU threads = 8: cannot start worker thread " + std::to_string(good + 1) + " of 7";
                    if (std::string(e.what()).find(expected) == std::string::npos) {
                        std::fprintf(stderr, "unexpected message: %s\n", e.what());
                        std::_Exit(11);
                    }
                    if (good == 3u) std::fprintf(stderr, "%s\n", e.what());
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "not an input_error: %s\n", e.what());
                    std::_Exit(12);
                }
            }
            // The pools started and stopped: a pool built afterwards works.
            thread_pool pool(4);
            std::atomic<int> chunks{0};
            pool.parallel_for(
                400, [&](std::size_t, std::size_t) { ++chunks; }, 1);
            std::_Exit(chunks.load() == 4 ? 0 : 13);
        },
        ::testing::ExitedWithCode(0),
        "CPU threads = 8: cannot start worker thread 4 of 7 \\(Resource temporarily unavailable\\)");
}
