// The CPU thread pool (cpu/thread_pool.hpp): a chunk that throws hands its exception to the caller
// (it used to call std::terminate from the worker thread) and the pool keeps working.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "cpu/thread_pool.hpp"

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
