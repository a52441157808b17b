#include "process_ranks.hpp"

#include <memory>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/mpi/mpi_communicator.hpp"

namespace stokesian::cli {

namespace {

single_process alone;
std::unique_ptr<communicator> world;

}  // namespace

void start_process_ranks(int& argc, char**& argv) {
    const unsigned launched = mpi::launched_ranks();
    if (launched < 2) return;  // started alone, or as the only rank: no MPI, as before
    if (!mpi::built())
        throw input_error("this build of stokesian has no MPI, so under mpirun its " + std::to_string(launched) +
                          " copies would each run the whole command: run one process, or rebuild with MPI "
                          "(Debian: libopenmpi-dev)");
    world = mpi::world(argc, argv);
}

void stop_process_ranks() { world.reset(); }

communicator& process_ranks() { return world ? *world : alone; }

void require_one_rank(const char* command) {
    const communicator& ranks = process_ranks();
    if (ranks.size() > 1)
        throw input_error("`stokesian " + std::string(command) + "` runs in one process, not across " +
                          std::to_string(ranks.size()) +
                          " MPI ranks (only `stokesian run` does): start it without "
                          "mpirun");
}

}  // namespace stokesian::cli
