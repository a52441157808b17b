// device_group.hpp: NCCL communicators, streams and events of a multi-device engine.
#include "device_group.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>
#include <utility>

#include "cuda_check.hpp"
#include "device_failure.hpp"
#include "slice_gather.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/rank_devices.hpp"
#include "stokesian/cuda/cuda_backend.hpp"

#if defined(STOKESIAN_HAVE_NCCL)
#include "nccl_library.hpp"
#endif

namespace stokesian::cuda {

#if defined(STOKESIAN_HAVE_NCCL)

struct device_group::impl {
    const nccl_api* api = nullptr;
    std::vector<int> ordinals;
    std::vector<std::string> names;
    std::vector<ncclComm_t> comms;
    std::vector<cudaStream_t> streams;  // communication, one per device
    std::vector<cudaEvent_t> ready;     // per device: its HI work is done (on its default stream)
    std::vector<cudaEvent_t> done;      // per device: its collectives are done (on its stream)
    bool aborted = false;
    bool failed = false;  // failed() ran: the error thrown names the device (and rank) already
    // Across MPI ranks: the ranks, this process's first slice and the number of slices; null and
    // 0, D alone.
    communicator* ranks = nullptr;
    std::size_t first_part = 0, parts = 0;
    // Timing on the first device: (start, end) pairs in use, and the total read back so far.
    bool timing = false;
    std::vector<std::pair<cudaEvent_t, cudaEvent_t>> timed;
    std::size_t timed_used = 0;
    double timed_ms = 0.0;

    // The communication stream and events of every device.
    void make_streams() {
        for (int ordinal : ordinals) {
            use_device(ordinal);
            cudaStream_t s = nullptr;
            check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate (communication)");
            streams.push_back(s);
            for (auto* events : {&ready, &done}) {
                cudaEvent_t e = nullptr;
                check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate (communication)");
                events->push_back(e);
            }
        }
        use_device(ordinals[0]);
    }

    void flush_timing() {
        use_device(ordinals[0]);
        if (timed_used > 0) check(cudaEventSynchronize(timed[timed_used - 1].second), "communication timer");
        for (std::size_t k = 0; k < timed_used; ++k) {
            float ms = 0.0f;
            check(cudaEventElapsedTime(&ms, timed[k].first, timed[k].second), "communication timer");
            timed_ms += double(ms);
        }
        timed_used = 0;
    }
};

namespace {

// Same compute capability and multiprocessor count: the same kernels, the same split lane count
// (hi_launch_device.cu, split_group_size), so every slice sums exactly as on the first device.
void check_one_kind(const std::vector<int>& ordinals, std::vector<std::string>& names) {
    cudaDeviceProp first{};
    for (std::size_t d = 0; d < ordinals.size(); ++d) {
        cudaDeviceProp p{};
        check(cudaGetDeviceProperties(&p, ordinals[d]), "cudaGetDeviceProperties");
        names.emplace_back(p.name);
        if (d == 0) {
            first = p;
            continue;
        }
        if (p.major != first.major || p.minor != first.minor || p.multiProcessorCount != first.multiProcessorCount)
            throw input_error("backend 'cuda': devices " + std::to_string(ordinals[0]) + " (" + names[0] + ", cc " +
                              std::to_string(first.major) + "." + std::to_string(first.minor) + ", " +
                              std::to_string(first.multiProcessorCount) + " SMs) and " + std::to_string(ordinals[d]) +
                              " (" + names[d] + ", cc " + std::to_string(p.major) + "." + std::to_string(p.minor) +
                              ", " + std::to_string(p.multiProcessorCount) +
                              " SMs) differ: a run on several devices is bit for bit the one-device run only on "
                              "devices of one kind");
    }
}

// What this rank finds for the device it is to drive (core/rank_devices.hpp).
rank_device this_rank_device(int ordinal, const host_ranks& host) {
    rank_device d;
    d.host = host.host;
    d.local_rank = host.local_rank;
    d.ordinal = ordinal;
    d.present = device_count();
    if (ordinal >= 0 && unsigned(ordinal) < d.present) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, ordinal) == cudaSuccess) {
            std::copy_n(reinterpret_cast<const unsigned char*>(p.uuid.bytes), d.identity.size(), d.identity.begin());
            d.major = p.major;
            d.minor = p.minor;
            d.multiprocessors = p.multiProcessorCount;
        } else {
            cudaGetLastError();
            d.set_problem("device " + std::to_string(ordinal) + " does not answer (cudaGetDeviceProperties)");
        }
    }
    return d;
}

// A device error as the text a rank posts to its peers and back: "ORDINAL\x1fNAME\x1fDETAIL".
constexpr char field = '\x1f';

std::string posted_text(const device_error& e) {
    return std::to_string(e.ordinal()) + field + e.device_name() + field + e.detail();
}

device_error from_posted(const std::string& text) {
    const std::size_t a = text.find(field), b = a == std::string::npos ? a : text.find(field, a + 1);
    if (b == std::string::npos) return device_error(-1, "another MPI rank's device", text);
    int ordinal = -1;
    try {
        ordinal = std::stoi(text.substr(0, a));
    } catch (const std::exception&) {}
    return device_error(ordinal, text.substr(a + 1, b - a - 1), text.substr(b + 1));
}

}  // namespace

namespace {
std::mutex pool_mutex;
}  // namespace

std::vector<std::unique_ptr<device_group::impl>>& device_group::pool() {
    static auto* idle = new std::vector<std::unique_ptr<impl>>();  // never destroyed: see the header
    return *idle;
}

device_group::device_group(const std::vector<int>& ordinals, communicator* ranks) {
    if (spread(ranks)) {
        if (ordinals.size() != 1)
            throw std::invalid_argument("device_group: one device per MPI rank, " + std::to_string(ordinals.size()) +
                                        " given");
        join_ranks(ordinals[0], *ranks);
        return;
    }
    check_device_ordinals(ordinals);
    {
        const std::lock_guard<std::mutex> lock(pool_mutex);
        auto& idle = pool();
        const auto found =
            std::find_if(idle.begin(), idle.end(), [&](const auto& g) { return g->ordinals == ordinals; });
        if (found != idle.end()) {
            impl_ = std::move(*found);
            idle.erase(found);
        }
    }
    if (impl_) {
        impl_->timing = false;
        impl_->timed_used = 0;
        impl_->timed_ms = 0.0;
        use_device(ordinals[0]);
        return;
    }
    impl_ = std::make_unique<impl>();
    impl& g = *impl_;
    g.ordinals = ordinals;
    check_one_kind(ordinals, g.names);
    g.api = &nccl();
    const int n = static_cast<int>(ordinals.size());
    g.comms.assign(ordinals.size(), nullptr);
    check_nccl(g.api->comm_init_all(g.comms.data(), n, ordinals.data()), "ncclCommInitAll");
    g.parts = ordinals.size();
    g.make_streams();
}

void device_group::join_ranks(int ordinal, communicator& ranks) {
    impl_ = std::make_unique<impl>();
    impl& g = *impl_;
    g.ranks = &ranks;
    g.first_part = ranks.rank();
    g.parts = ranks.size();
    g.ordinals = {ordinal};
    // Every rank's findings on every rank, and one verdict: no rank may wait in ncclCommInitRank for
    // a peer that has given up (its message would be lost, the run hung).
    rank_device mine = this_rank_device(ordinal, ranks.host());
    try {
        g.api = &nccl();
    } catch (const std::exception& e) {
        mine.set_problem(e.what());
    }
    std::vector<rank_device> table(ranks.size());
    table.at(ranks.rank()) = mine;
    allgather_slices(ranks, std::span<rank_device>(table));
    if (const std::string why = check_rank_devices(table); !why.empty()) throw input_error(why);
    g.names = {device_name_of(ordinal)};
    use_device(ordinal);
    ncclUniqueId id{};
    if (ranks.leads()) check_nccl(g.api->get_unique_id(&id), "ncclGetUniqueId");
    ranks.broadcast(&id, sizeof id, 0);
    g.comms.assign(1, nullptr);
    check_nccl(g.api->comm_init_rank(&g.comms[0], static_cast<int>(ranks.size()), id, static_cast<int>(ranks.rank())),
               "ncclCommInitRank");
    g.make_streams();
}

device_group::~device_group() {
    if (!impl_) return;
    impl& g = *impl_;
    if (g.ranks) g.aborted = true;  // never pooled; the communicator is left to the process's end
    if (!g.aborted && g.comms.size() == g.ordinals.size() && g.streams.size() == g.ordinals.size()) {
        // Idle (the engine waited for every device before it let go): the next group takes it.
        cudaSetDevice(g.ordinals[0]);
        const std::lock_guard<std::mutex> lock(pool_mutex);
        pool().push_back(std::move(impl_));
        return;
    }
    if (!g.aborted)
        for (ncclComm_t c : g.comms)
            if (c) g.api->comm_destroy(c);
    for (std::size_t d = 0; d < g.streams.size(); ++d) {
        cudaSetDevice(g.ordinals[d]);
        cudaStreamDestroy(g.streams[d]);
        cudaEventDestroy(g.ready[d]);
        cudaEventDestroy(g.done[d]);
        if (d == 0)
            for (auto& [start, end] : g.timed) {
                cudaEventDestroy(start);
                cudaEventDestroy(end);
            }
    }
    cudaGetLastError();  // nothing to report from a destructor (after a failure, every call fails)
    if (!g.ordinals.empty()) cudaSetDevice(g.ordinals[0]);
}

std::size_t device_group::size() const { return impl_->ordinals.size(); }
std::size_t device_group::parts() const { return impl_->parts; }
std::size_t device_group::part(std::size_t d) const { return impl_->first_part + d; }
int device_group::ordinal(std::size_t d) const { return impl_->ordinals.at(d); }
const std::string& device_group::name(std::size_t d) const { return impl_->names.at(d); }
std::string device_group::nccl_version() const { return impl_->api->version_text(); }

void device_group::all_gather(const std::vector<void*>& buffers, std::size_t item_bytes,
                              const std::vector<target_range>& slices) {
    impl& g = *impl_;
    if (g.aborted) throw cuda_call_error("the device group was aborted after a device failed");
    const std::vector<slice_broadcast> plan = gather_plan(slices, item_bytes);
    for (std::size_t d = 0; d < g.ordinals.size(); ++d) {
        use_device(g.ordinals[d]);
        check(cudaEventRecord(g.ready[d], cudaStreamPerThread), "cudaEventRecord (all-gather)");
        check(cudaStreamWaitEvent(g.streams[d], g.ready[d], 0), "cudaStreamWaitEvent (all-gather)");
    }
    use_device(g.ordinals[0]);
    if (g.timing) {
        if (g.timed_used == g.timed.size()) {
            if (g.timed.size() >= 2048) g.flush_timing();  // a bounded pool, read back now and then
            else {
                cudaEvent_t start = nullptr, end = nullptr;
                check(cudaEventCreate(&start), "cudaEventCreate (communication timer)");
                check(cudaEventCreate(&end), "cudaEventCreate (communication timer)");
                g.timed.emplace_back(start, end);
            }
        }
        check(cudaEventRecord(g.timed[g.timed_used].first, cudaStreamPerThread), "communication timer");
    }
    // One broadcast per slice, in place, every device in one group (one thread drives them all).
    check_nccl(g.api->group_start(), "ncclGroupStart");
    for (const slice_broadcast& b : plan)
        for (std::size_t d = 0; d < g.ordinals.size(); ++d) {
            auto* bytes = static_cast<unsigned char*>(buffers[d]) + b.offset_bytes;
            check_nccl(
                g.api->broadcast(bytes, bytes, b.bytes, ncclUint8, static_cast<int>(b.root), g.comms[d], g.streams[d]),
                "ncclBroadcast");
        }
    if (const ncclResult_t status = g.api->group_end(); status != ncclSuccess)
        fail(std::string("NCCL error in the all-gather: ") + g.api->error_string(status));
    for (std::size_t d = 0; d < g.ordinals.size(); ++d) {
        use_device(g.ordinals[d]);
        check(cudaEventRecord(g.done[d], g.streams[d]), "cudaEventRecord (all-gather)");
        check(cudaStreamWaitEvent(cudaStreamPerThread, g.done[d], 0), "cudaStreamWaitEvent (all-gather)");
    }
    use_device(g.ordinals[0]);
    if (g.timing) check(cudaEventRecord(g.timed[g.timed_used++].second, g.streams[0]), "communication timer");
}

void device_group::wait_all() {
    impl& g = *impl_;
    if (g.aborted) throw_device_failure(g.ordinals[0], "the device group was aborted after a device failed");
    auto pause = std::chrono::microseconds(5);
    for (;;) {
        check_peers();
        bool idle = true;
        for (std::size_t d = 0; d < g.ordinals.size(); ++d) {
            if (cudaSetDevice(g.ordinals[d]) != cudaSuccess)
                failed(device_error(g.ordinals[d], g.names[d], "cudaSetDevice failed"));
            for (cudaStream_t s : {cudaStreamPerThread, g.streams[d]}) {
                const cudaError_t status = cudaStreamQuery(s);
                if (status == cudaErrorNotReady) idle = false;
                else if (status != cudaSuccess)
                    failed(device_error(g.ordinals[d], g.names[d],
                                        std::string("CUDA error in a step: ") + cudaGetErrorString(status) + " (" +
                                            cudaGetErrorName(status) + ")"));
            }
            ncclResult_t async = ncclSuccess;
            const ncclResult_t asked = g.api->comm_get_async_error(g.comms[d], &async);
            if (asked != ncclSuccess || (async != ncclSuccess && async != ncclInProgress)) {
                // Across ranks NCCL may see a failed peer go before the peer's own word arrives:
                // give it a second to name the device that failed.
                for (int wait = 0; g.ranks && wait < 100; ++wait) {
                    check_peers();
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
                failed(device_error(
                    g.ordinals[d], g.names[d],
                    std::string("NCCL error: ") + g.api->error_string(asked != ncclSuccess ? asked : async)));
            }
        }
        if (idle) break;
        // Short waits first (small systems), then at most 1 ms between polls (a step of a large
        // system takes seconds).
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
    use_device(g.ordinals[0]);
}

void device_group::fail(const std::string& what) {
    impl& g = *impl_;
    std::size_t culprit = 0;
    std::string why = what;
    for (std::size_t d = g.ordinals.size(); d-- > 0;) {
        cudaSetDevice(g.ordinals[d]);
        const cudaError_t status = cudaStreamQuery(cudaStreamPerThread);
        ncclResult_t async = ncclSuccess;
        g.api->comm_get_async_error(g.comms[d], &async);
        if (status != cudaSuccess && status != cudaErrorNotReady) {
            culprit = d;
            why = what + "; CUDA error on the device: " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) +
                  ")";
        } else if (async != ncclSuccess && async != ncclInProgress) {
            culprit = d;
        }
    }
    cudaSetDevice(g.ordinals[0]);
    failed(device_error(g.ordinals[culprit], g.names[culprit], why));
}

void device_group::check_peers() {
    impl& g = *impl_;
    if (!g.ranks) return;
    // A failure a peer rank posted: its device is named; this rank's collectives will never end.
    if (const std::string posted = g.ranks->posted_failure(); !posted.empty()) {
        abort();
        g.failed = true;
        throw from_posted(posted);
    }
}

void device_group::failed(const device_error& e) {
    impl& g = *impl_;
    if (!g.ranks || g.failed) {
        abort();
        throw e;
    }
    g.failed = true;
    const device_error named(e.ordinal(), e.device_name() + ", MPI rank " + std::to_string(g.ranks->rank()),
                             e.detail());
    // Told first: should aborting the communicator on a faulted device hang, rank 0 still knows.
    g.ranks->post_failure(posted_text(named));
    abort();
    throw named;
}

void device_group::abort() noexcept {
    impl& g = *impl_;
    if (g.aborted) return;
    g.aborted = true;
    for (ncclComm_t c : g.comms)
        if (c) g.api->comm_abort(c);
}

void device_group::set_timing(bool on) { impl_->timing = on; }

double device_group::take_communication_ms() {
    impl& g = *impl_;
    g.flush_timing();
    return std::exchange(g.timed_ms, 0.0);
}

#else  // a build without nccl.h: one device only

struct device_group::impl {};

std::vector<std::unique_ptr<device_group::impl>>& device_group::pool() {
    static std::vector<std::unique_ptr<impl>> idle;
    return idle;
}

device_group::device_group(const std::vector<int>&, communicator*) {
    throw input_error(
        "this build of stokesian runs on one device only: it was built without NCCL (nccl.h was not found; "
        "engine/docs/multi-gpu.md)");
}
device_group::~device_group() = default;
std::size_t device_group::size() const { return 0; }
int device_group::ordinal(std::size_t) const { return 0; }
const std::string& device_group::name(std::size_t) const {
    static const std::string none;
    return none;
}
std::string device_group::nccl_version() const { return ""; }
void device_group::all_gather(const std::vector<void*>&, std::size_t, const std::vector<target_range>&) {}
void device_group::wait_all() {}
void device_group::join_ranks(int, communicator&) {}
void device_group::check_peers() {}
std::size_t device_group::parts() const { return 0; }
std::size_t device_group::part(std::size_t) const { return 0; }
void device_group::fail(const std::string&) { throw input_error("no device group in this build"); }
void device_group::failed(const device_error& e) { throw e; }
void device_group::abort() noexcept {}
void device_group::set_timing(bool) {}
double device_group::take_communication_ms() { return 0.0; }

#endif

}  // namespace stokesian::cuda
