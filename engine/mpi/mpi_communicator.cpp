// MPI_COMM_WORLD as a communicator (stokesian/mpi/mpi_communicator.hpp).
#include "stokesian/mpi/mpi_communicator.hpp"

#include <charconv>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#if defined(STOKESIAN_HAVE_MPI)
#include <mpi.h>
#endif

namespace stokesian::mpi {

namespace {

// The first of the launchers' variables that is set, as a number.
unsigned from_environment(std::initializer_list<const char*> names, unsigned otherwise) {
    for (const char* name : names) {
        const char* text = std::getenv(name);
        if (text == nullptr) continue;
        unsigned value = 0;
        const std::string_view view(text);
        const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
        if (error == std::errc{} && end == view.data() + view.size()) return value;
    }
    return otherwise;
}

#if defined(STOKESIAN_HAVE_MPI)

int as_int(std::size_t value, const char* what) {
    if (value > std::size_t(INT_MAX))
        throw std::invalid_argument(std::string("MPI: ") + what + " " + std::to_string(value) + " exceeds INT_MAX");
    return int(value);
}

class world_communicator final : public communicator {
public:
    world_communicator(int& argc, char**& argv) {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (!initialised) {
            int provided = 0;
            MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
            owns_ = true;
        }
        int rank = 0, size = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        rank_ = unsigned(rank);
        size_ = unsigned(size);
        // The ranks of this host (collective: every rank constructs this at start-up).
        MPI_Comm local = MPI_COMM_NULL;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
        int local_rank = 0, local_size = 1, host = rank;
        MPI_Comm_rank(local, &local_rank);
        MPI_Comm_size(local, &local_size);
        MPI_Bcast(&host, 1, MPI_INT, 0, local);  // local rank 0 has the lowest world rank (key = rank)
        MPI_Comm_free(&local);
        host_ = {unsigned(local_rank), unsigned(local_size), unsigned(host)};
    }
    ~world_communicator() override {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (owns_ && !finalised) MPI_Finalize();
    }
    world_communicator(const world_communicator&) = delete;
    world_communicator& operator=(const world_communicator&) = delete;

    unsigned rank() const override { return rank_; }
    unsigned size() const override { return size_; }

    void allgather(void* data, std::size_t element_bytes, std::span<const std::size_t> counts,
                   std::span<const std::size_t> offsets) override {
        if (counts.size() != size_ || offsets.size() != size_)
            throw std::invalid_argument("MPI allgather: one count and offset per rank expected");
        std::vector<int> count(size_), offset(size_);
        for (unsigned p = 0; p < size_; ++p) {
            count[p] = as_int(counts[p], "element count");
            offset[p] = as_int(offsets[p], "element offset");
        }
        // Elements as one contiguous type: counts in elements, not bytes, stay below INT_MAX.
        MPI_Datatype element = MPI_DATATYPE_NULL;
        MPI_Type_contiguous(as_int(element_bytes, "element size"), MPI_BYTE, &element);
        MPI_Type_commit(&element);
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, count.data(), offset.data(), element, MPI_COMM_WORLD);
        MPI_Type_free(&element);
    }

    void broadcast(void* data, std::size_t bytes, unsigned root) override {
        constexpr std::size_t piece = std::size_t(1) << 30;
        auto* at = static_cast<char*>(data);
        for (std::size_t done = 0; done < bytes; done += piece) {
            const std::size_t now = bytes - done < piece ? bytes - done : piece;
            MPI_Bcast(at + done, int(now), MPI_BYTE, int(root), MPI_COMM_WORLD);
        }
    }

    void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }

    [[noreturn]] void abort(int code) override {
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);
    }

    host_ranks host() const override { return host_; }

    void post_failure(const std::string& text) override {
        if (!posted_.empty()) return;
        posted_ = text.empty() ? std::string("(no detail)") : text;  // the send buffer, kept until exit
        for (unsigned p = 0; p < size_; ++p) {
            if (p == rank_) continue;
            MPI_Request request = MPI_REQUEST_NULL;
            MPI_Isend(posted_.data(), as_int(posted_.size(), "failure text"), MPI_CHAR, int(p), failure_tag,
                      MPI_COMM_WORLD, &request);
            MPI_Request_free(&request);  // never waited for: the sender may be about to be ended
        }
    }

    std::string posted_failure() override {
        if (!received_.empty()) return received_;
        int arrived = 0;
        MPI_Status status{};
        MPI_Iprobe(MPI_ANY_SOURCE, failure_tag, MPI_COMM_WORLD, &arrived, &status);
        if (!arrived) return {};
        int length = 0;
        MPI_Get_count(&status, MPI_CHAR, &length);
        std::string text(std::size_t(length > 0 ? length : 0), '\0');
        MPI_Recv(text.data(), length, MPI_CHAR, status.MPI_SOURCE, failure_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        received_ = text.empty() ? std::string("(no detail)") : text;
        return received_;
    }

private:
    // Point to point, apart from every collective (MPI keeps collectives and tagged messages apart).
    static constexpr int failure_tag = 0x5f0d;
    unsigned rank_ = 0, size_ = 1;
    host_ranks host_;
    std::string posted_, received_;
    bool owns_ = false;
};

#endif

}  // namespace

bool built() noexcept {
#if defined(STOKESIAN_HAVE_MPI)
    return true;
#else
    return false;
#endif
}

unsigned launched_ranks() noexcept { return from_environment({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, 1); }

unsigned launched_rank() noexcept { return from_environment({"OMPI_COMM_WORLD_RANK", "PMI_RANK"}, 0); }

std::unique_ptr<communicator> world([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#if defined(STOKESIAN_HAVE_MPI)
    return std::make_unique<world_communicator>(argc, argv);
#else
    throw std::runtime_error("this build of stokesian has no MPI");
#endif
}

}  // namespace stokesian::mpi
