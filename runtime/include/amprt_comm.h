/*===- amprt_comm.h - libamprt's communicator for data parallelism -*- C -*-===*
 *
 * A data-parallel step (amp-compile --data-parallel) reduces its gradients
 * over the ranks of this process's communicator. The communicator is one
 * per process, chosen once before the first step:
 *
 *   none  one process: rank 0 of 1, every reduction returns its input;
 *         what a step gets when nobody calls amprt_comm_init.
 *   mpi   the MPI world (libamprt_mpi.so, loaded on demand, so that a
 *         single-process run needs no MPI library).
 *   nccl  NCCL over the GPUs of CUDA artifacts, one per rank (the rank's
 *         local rank modulo the GPUs it sees), bootstrapped over MPI
 *         (libamprt_nccl.so; NCCL and the driver loaded with dlopen).
 *   auto  mpi when the process was started by mpirun (Open MPI's, MPICH's
 *         or a PMIx launcher's environment), none otherwise.
 *
 * Every rank must run the same steps in the same order: a collective that
 * one rank skips blocks the others.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMPRT_COMM_H
#define AMPRT_COMM_H

#include "amp_artifact.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values of the amp dialect's `amp.all_reduce` reductions. */
typedef enum amprt_reduction {
  AMPRT_REDUCE_SUM = 0,
  AMPRT_REDUCE_MEAN = 1, /* f32: the sum divided by the ranks; f16/bf16:
                            the sum of each value divided by the ranks
                            (a sum of N values near f16's limit would
                            overflow) */
  AMPRT_REDUCE_MAX = 2,
} amprt_reduction;

/* Chooses the communicator ("none", "mpi", "nccl" or "auto"). Once per process,
 * before the first data-parallel step. Returns 0, or -1 with why in `error`
 * (an unknown backend, libamprt_mpi.so or MPI missing, a second call); the
 * communicator is then unchanged. */
int amprt_comm_init(const char *backend, char *error, size_t error_size);

/* Ends the communicator (MPI_Finalize when libamprt started MPI); the
 * process is then a single rank again. Collective: every rank calls it. */
void amprt_comm_finalize(void);

/* "none", "mpi" or "nccl". */
const char *amprt_comm_backend(void);
int amprt_comm_rank(void);
int amprt_comm_size(void);

/* Reduces `count` elements of `dtype` in `buffer` in place over all ranks;
 * every rank receives the result. f32, f16 and bf16 take every reduction
 * (16-bit sums add in f32 and round per partial sum with MPI; NCCL's own
 * arithmetic otherwise), i32 sum and max, i1
 * (one byte each, 0 or 1) max. Collective. Returns 0, or -1 with why in
 * `error`. */
int amprt_comm_all_reduce(void *buffer, int64_t count, amp_dtype dtype,
                          amprt_reduction reduction, char *error,
                          size_t error_size);

/* Copies `bytes` of rank `root`'s `buffer` into every rank's. Collective. */
int amprt_comm_broadcast(void *buffer, int64_t bytes, int root, char *error,
                         size_t error_size);

/* Returns when every rank has called it. Collective. */
int amprt_comm_barrier(char *error, size_t error_size);

/* What compiled steps asked of the communicator since it was chosen: the
 * all-reduce calls and the bytes they reduced (each rank's payload; a ring
 * all-reduce sends about 2 (size - 1) / size times that per rank). */
int64_t amprt_comm_step_calls(void);
int64_t amprt_comm_step_bytes(void);

#ifdef __cplusplus
}
#endif

#endif /* AMPRT_COMM_H */
