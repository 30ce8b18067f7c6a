//===- mpi_world.h - joining and leaving the MPI world ----------*- C++ -*-===//
//
// What both communicator backends (MPI, and NCCL bootstrapped over MPI) do
// to start: MPI may already be running (a host such as mpi4py started it),
// and is finalized only by whoever started it.
//
//===----------------------------------------------------------------------===//

#ifndef AMPRT_MPI_WORLD_H
#define AMPRT_MPI_WORLD_H

#include <mpi.h>

#include <cstddef>
#include <cstdio>

namespace amprt {

struct MpiWorld {
  MPI_Comm comm = MPI_COMM_NULL; // a duplicate of MPI_COMM_WORLD
  bool startedMpi = false;

  /// Starts MPI unless it runs, and duplicates the world. The step calls
  /// MPI from the thread that runs it; the libraries' worker threads never
  /// do (MPI_THREAD_FUNNELED).
  bool join(char *error, size_t size) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
          MPI_SUCCESS) {
        std::snprintf(error, size, "MPI_Init_thread failed");
        return false;
      }
      startedMpi = true;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    return true;
  }

  void leave() {
    if (comm != MPI_COMM_NULL)
      MPI_Comm_free(&comm);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (startedMpi && !finalized)
      MPI_Finalize();
  }
};

} // namespace amprt

#endif // AMPRT_MPI_WORLD_H
