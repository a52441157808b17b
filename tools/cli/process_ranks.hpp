#pragma once
// The MPI ranks this process is one of. main() starts them: MPI_COMM_WORLD when a launcher
// (mpirun -n R, R > 1) started this process and the build has MPI, else this process alone.
// Only `stokesian run` runs across ranks (engine/README.md, "Runs across MPI ranks").
#include "stokesian/core/communicator.hpp"

namespace stokesian::cli {

// MPI_Init when launched as one of several ranks. Throws input_error when launched so by a build
// without MPI (its R copies would run the whole command R times, writing the same output).
void start_process_ranks(int& argc, char**& argv);
// MPI_Finalize (when started); the ranks are this process alone afterwards.
void stop_process_ranks();
communicator& process_ranks();

// Refuses (input_error) a command that does not run across ranks when there are several.
void require_one_rank(const char* command);

}  // namespace stokesian::cli
