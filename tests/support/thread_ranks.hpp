#pragma once
// R ranks as R threads of one process: a communicator (stokesian/core/communicator.hpp) whose
// gathers and broadcasts copy between the threads' buffers. Tests the decomposition of the engines
// across ranks without MPI (every build, the sanitizers' included); the MPI runs themselves are
// tests/cli/quick_mpi_ranks_test.cpp.
#include <barrier>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "stokesian/core/communicator.hpp"

namespace stokesian::test_support {

class thread_ranks {
public:
    explicit thread_ranks(unsigned size) : barrier_(std::ptrdiff_t(size)), buffers_(size) {
        for (unsigned r = 0; r < size; ++r) ranks_.emplace_back(*this, r);
    }
    communicator& rank(unsigned r) { return ranks_[r]; }

private:
    class one_rank final : public communicator {
    public:
        one_rank(thread_ranks& all, unsigned rank) : all_(&all), rank_(rank) {}
        unsigned rank() const override { return rank_; }
        unsigned size() const override { return unsigned(all_->buffers_.size()); }
        void allgather(void* data, std::size_t element_bytes, std::span<const std::size_t> counts,
                       std::span<const std::size_t> offsets) override {
            all_->buffers_[rank_] = data;
            barrier();  // every rank's slice is written
            for (unsigned p = 0; p < size(); ++p)
                if (p != rank_ && counts[p] > 0)
                    std::memcpy(static_cast<char*>(data) + offsets[p] * element_bytes,
                                static_cast<const char*>(all_->buffers_[p]) + offsets[p] * element_bytes,
                                counts[p] * element_bytes);
            barrier();  // nobody writes before every rank has copied
        }
        void broadcast(void* data, std::size_t bytes, unsigned root) override {
            if (rank_ == root) all_->buffers_[root] = data;
            barrier();
            if (rank_ != root && bytes > 0) std::memcpy(data, all_->buffers_[root], bytes);
            barrier();
        }
        void barrier() override { all_->barrier_.arrive_and_wait(); }
        [[noreturn]] void abort(int) override { std::abort(); }

    private:
        thread_ranks* all_;
        unsigned rank_;
    };

    std::barrier<> barrier_;
    std::vector<void*> buffers_;
    std::vector<one_rank> ranks_;
};

}  // namespace stokesian::test_support
