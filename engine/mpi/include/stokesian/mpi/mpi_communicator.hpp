#pragma once
// MPI_COMM_WORLD as a communicator (stokesian/core/communicator.hpp): the one layer that includes
// <mpi.h>. A build without MPI (cmake found none, or -DSTOKESIAN_ENABLE_MPI=OFF) has this layer too:
// built() is false and world() refuses. Plain C++ header.
#include <memory>

#include "stokesian/core/communicator.hpp"

namespace stokesian::mpi {

// Whether this build has MPI.
bool built() noexcept;

// How many ranks the launcher (mpirun/mpiexec of Open MPI or of MPICH, srun with PMI) started, from
// the environment it gives each of them; 1 when the process was started alone. This rank's number
// the same way (0 when alone). Neither calls MPI.
unsigned launched_ranks() noexcept;
unsigned launched_rank() noexcept;

// MPI_COMM_WORLD after MPI_Init_thread (funnelled: only the main thread calls MPI); MPI_Finalize when
// it is destroyed. Throws std::runtime_error in a build without MPI.
std::unique_ptr<communicator> world(int& argc, char**& argv);

}  // namespace stokesian::mpi
