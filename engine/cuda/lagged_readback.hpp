#pragma once
// A value the device writes again and again and the host needs only some writes later (the longest
// neighbour row of each build, which the lists' capacity follows; a build a step, or a stage of the
// multi-stage schemes), so that no step waits for the device to finish its own launches. Depth
// page-locked words, mapped into the devices' address space, each with the event recorded after the
// launches that write it. Before the next write the host takes the words the device has written
// since it last looked: those whose events are done and, when all Depth words are in flight, the
// oldest, waiting for it. The host then runs at most Depth writes ahead of the device, and learns
// each word at most Depth writes late.
#include <cuda_runtime.h>

#include <array>
#include <stdexcept>

#include "cuda_check.hpp"

namespace stokesian::cuda {

template <class T, unsigned Depth>
class lagged_readback {
    static_assert(Depth >= 1);

public:
    lagged_readback() = default;
    ~lagged_readback() {
        for (cudaEvent_t e : written_)
            if (e) cudaEventDestroy(e);
        if (host_) cudaFreeHost(host_);
    }
    lagged_readback(const lagged_readback&) = delete;
    lagged_readback& operator=(const lagged_readback&) = delete;

    // take(value) for every word written since the last call, oldest first.
    template <class Take>
    void take_written(Take&& take, const char* what) {
        while (in_flight_ > 0) {
            const unsigned oldest = (next_ + Depth - in_flight_) % Depth;
            if (in_flight_ == Depth) {
                check(cudaEventSynchronize(written_[oldest]), what);
            } else {
                const cudaError_t status = cudaEventQuery(written_[oldest]);
                if (status == cudaErrorNotReady) return;
                check(status, what);
            }
            --in_flight_;
            take(host_[oldest]);
        }
    }

    // The word the next launches write: a device pointer to page-locked host memory. Call
    // take_written first: it frees a word when all are in flight.
    T* word(const char* what) {
        if (in_flight_ == Depth) throw std::logic_error("lagged_readback: every word in flight (take_written first)");
        if (!host_) {
            check(cudaHostAlloc(reinterpret_cast<void**>(&host_), Depth * sizeof(T),
                                cudaHostAllocMapped | cudaHostAllocPortable),
                  what);
            check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0), what);
            for (cudaEvent_t& e : written_) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), what);
        }
        return device_ + next_;
    }

    // After the launches that write word(), on this thread's stream.
    void written(const char* what) {
        check(cudaEventRecord(written_[next_], cudaStreamPerThread), what);
        next_ = (next_ + 1) % Depth;
        ++in_flight_;
    }

private:
    T* host_ = nullptr;
    T* device_ = nullptr;
    std::array<cudaEvent_t, Depth> written_{};
    unsigned next_ = 0;       // the word the next launches write
    unsigned in_flight_ = 0;  // words written or being written and not taken yet
};

}  // namespace stokesian::cuda
