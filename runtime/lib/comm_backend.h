//===- comm_backend.h - what a communicator backend provides ----*- C++ -*-===//
//
// libamprt's communicator calls a backend through this table. The MPI
// backend lives in libamprt_mpi.so (loaded by amprt_comm_init("mpi")), so
// that libamprt itself never links MPI. Backends reduce sums and maxima;
// the mean and the argument checks are libamprt's.
//
//===----------------------------------------------------------------------===//

#ifndef AMPRT_COMM_BACKEND_H
#define AMPRT_COMM_BACKEND_H

#include "amprt_comm.h"

#include <cstddef>
#include <cstdint>

extern "C" {

struct amprt_comm_ops {
  const char *name;
  int rank;
  int size;
  /* Whether all_reduce takes AMPRT_REDUCE_MEAN itself. */
  int averages;
  /* In place. Returns 0, or -1 with why in `error`. */
  int (*all_reduce)(void *buffer, int64_t count, amp_dtype dtype,
                    amprt_reduction reduction, char *error, size_t error_size);
  int (*broadcast)(void *buffer, int64_t bytes, int root, char *error,
                   size_t error_size);
  int (*barrier)(char *error, size_t error_size);
  void (*finalize)(void);
};

/* Exported by libamprt_mpi.so (and libamprt_nccl.so): starts MPI (unless
 * the host already did) and returns the world's backend, or NULL with why
 * in `error`. */
typedef const amprt_comm_ops *(*amprt_comm_open_fn)(char *error,
                                                        size_t error_size);
#define AMPRT_COMM_MPI_OPEN "amprt_comm_mpi_open"
#define AMPRT_COMM_NCCL_OPEN "amprt_comm_nccl_open"
}

#endif // AMPRT_COMM_BACKEND_H
