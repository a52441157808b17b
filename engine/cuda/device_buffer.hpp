#pragma once
// Owning device allocation of n elements of T. Out-of-memory errors say how much was asked for
// and how much the device has free.
//
// resize() only allocates when the buffer must grow: cudaMalloc and cudaFree synchronise the whole
// device (CUDA Programming Guide, "Implicit Synchronization"), so a buffer reallocated per step or
// per sample (neighbour lists, sample buffers) would make every concurrent run of a suite wait for
// every other run's kernels.
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"

namespace stokesian::cuda {

std::string out_of_memory_message(std::size_t bytes, const char* what);

// Copies between device memory and pageable host memory, after waiting for this host thread's
// stream outside the copy: a pageable cudaMemcpy that waits for a running kernel holds up the CUDA
// calls of the process's other host threads (their launches) until it ends, so the concurrent runs
// of a suite took turns (one H100, 2026-11-27: 8 fused runs at once went at half their rate alone;
// 8 processes under MPS did not slow each other; waiting first, 8 at once ran as fast as one).
inline void copy_to_host(void* host, const void* device, std::size_t bytes, const char* what) {
    check(cudaStreamSynchronize(cudaStreamPerThread), what);
    check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), what);
}
inline void copy_to_device(void* device, const void* host, std::size_t bytes, const char* what) {
    check(cudaStreamSynchronize(cudaStreamPerThread), what);
    check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), what);
}

// One value the host reads back from the device at every step and needs at once (the implicit
// scheme's count of lubricated pairs): copied into page-locked memory on this thread's stream, then
// one wait for the stream. copy_to_host waits for the stream, then a pageable cudaMemcpy stages the
// copy and waits again. (A value the host may learn some steps late: lagged_readback.hpp.)
template <class T>
class pinned_readback {
public:
    pinned_readback() = default;
    ~pinned_readback() {
        if (host_) cudaFreeHost(host_);
    }
    pinned_readback(const pinned_readback&) = delete;
    pinned_readback& operator=(const pinned_readback&) = delete;

    T read(const T* device, const char* what) {
        if (!host_) check(cudaMallocHost(&host_, sizeof(T)), what);
        check(cudaMemcpyAsync(host_, device, sizeof(T), cudaMemcpyDeviceToHost, cudaStreamPerThread), what);
        check(cudaStreamSynchronize(cudaStreamPerThread), what);
        return *host_;
    }

private:
    T* host_ = nullptr;
};

template <class T>
class device_buffer {
public:
    device_buffer() = default;
    explicit device_buffer(std::size_t n, const char* what = "device buffer") { resize(n, what); }
    ~device_buffer() { release(); }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    device_buffer(device_buffer&& o) noexcept : data_(o.data_), size_(o.size_), capacity_(o.capacity_) {
        o.data_ = nullptr;
        o.size_ = o.capacity_ = 0;
    }
    device_buffer& operator=(device_buffer&& o) noexcept {
        if (this != &o) {
            release();
            data_ = o.data_;
            size_ = o.size_;
            capacity_ = o.capacity_;
            o.data_ = nullptr;
            o.size_ = o.capacity_ = 0;
        }
        return *this;
    }

    void resize(std::size_t n, const char* what = "device buffer") {
        if (n <= capacity_) {
            size_ = n;
            return;
        }
        release();
        const cudaError_t status = cudaMalloc(&data_, n * sizeof(T));
        if (status == cudaErrorMemoryAllocation) {
            cudaGetLastError();  // clear the sticky-free error state
            data_ = nullptr;
            throw device_out_of_memory(out_of_memory_message(n * sizeof(T), what));
        }
        check(status, what);
        size_ = capacity_ = n;
    }
    void upload(const std::vector<T>& host) {
        resize(host.size());
        if (!host.empty()) copy_to_device(data_, host.data(), host.size() * sizeof(T), "upload");
    }
    void download(std::vector<T>& host) const { download(host, 0, size_); }
    // Elements [first, first + count) into `host` (resized to count); host[k] to element first + k.
    void download(std::vector<T>& host, std::size_t first, std::size_t count) const {
        check_range(first, count);
        host.resize(count);
        if (count) copy_to_host(host.data(), data_ + first, count * sizeof(T), "download");
    }
    void upload(const std::vector<T>& host, std::size_t first) {
        check_range(first, host.size());
        if (!host.empty()) copy_to_device(data_ + first, host.data(), host.size() * sizeof(T), "upload");
    }

    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    void check_range(std::size_t first, std::size_t count) const {
        if (first > size_ || count > size_ - first)
            throw std::out_of_range("device buffer: elements [" + std::to_string(first) + ", " +
                                    std::to_string(first + count) + ") of " + std::to_string(size_));
    }
    void release() noexcept {
        if (data_) cudaFree(data_);
        data_ = nullptr;
        size_ = capacity_ = 0;
    }
    T* data_ = nullptr;
    std::size_t size_ = 0;      // elements in use
    std::size_t capacity_ = 0;  // elements allocated
};

}  // namespace stokesian::cuda
