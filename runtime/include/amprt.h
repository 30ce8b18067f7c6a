/*===- amprt.h - libamprt: load amp artifacts and train with them --*- C -*-===*
 *
 * The runtime has no MLIR or LLVM dependency: a machine that runs a model
 * needs the artifact, libamprt and the C library.
 *
 * A session owns every buffer of a training step: parameters, optimizer
 * state, loss-scaler state, working copies and results. Each step reads the
 * caller's data buffers, runs the step, and makes each `amp.update_of`
 * result the next step's argument: written into the argument's buffer when
 * the update is `in_place` (amp-compile's default), else computed in a
 * result buffer that then swaps with it (ping-pong, no copies).
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMPRT_H
#define AMPRT_H

#include "amp_artifact.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amprt_artifact amprt_artifact;
typedef struct amprt_session amprt_session;

/* Loads an artifact. On failure returns NULL and writes why to `error`
 * (a missing file, a truncated or damaged file, a shared object that is
 * not an artifact, or an artifact built for another ABI version). */
amprt_artifact *amprt_load(const char *path, char *error, size_t error_size);

/* Checks, without loading it, that `path` is a complete 64-bit ELF shared
 * object (every header table and loaded segment inside the file): what
 * amprt_load checks before dlopen. Returns 0, or -1 with why in `error`. */
int amprt_check_artifact_file(const char *path, char *error,
                              size_t error_size);
void amprt_unload(amprt_artifact *artifact);

int32_t amprt_num_functions(const amprt_artifact *artifact);
const amp_function_info *amprt_function(const amprt_artifact *artifact,
                                        int32_t index);
/* The function called `name`, or NULL. */
const amp_function_info *amprt_find(const amprt_artifact *artifact,
                                    const char *name);
/* The index of `function`'s argument called `name` (amp_tensor_info.name),
 * or -1. */
int32_t amprt_find_argument(const amp_function_info *function,
                            const char *name);
/* 1 when `artifact` is a device artifact (amp-compile --target=cuda): its
 * buffers are GPU device memory, which the host cannot read. */
int amprt_artifact_on_device(const amprt_artifact *artifact);

/* The training step: the function with an amp.loss result, or NULL. */
const amp_function_info *amprt_training_step(const amprt_artifact *artifact);

/* Calls `function` of `artifact` on the caller's buffers (num_args inputs,
 * then num_results outputs, as amp_function_info.call takes them). Inputs
 * are only read, and every result comes back in its buffer, an `in_place`
 * update too (the function runs on a copy of its input). For a device
 * artifact (one that exports amp_artifact_alloc) the inputs are copied
 * into its memory, the results back, and the call waits for them; for a
 * host artifact this is function->call(buffers), with a workspace
 * allocated for the call when the function has one. Returns what the call
 * returns (0), or -1 when that workspace cannot be allocated. */
int amprt_call(const amprt_artifact *artifact,
               const amp_function_info *function, void **buffers);

size_t amprt_dtype_size(amp_dtype dtype);
int64_t amprt_num_elements(const amp_tensor_info *tensor);

/* Threads of the libraries the step's contractions run on (oneDNN's OpenMP
 * and OpenBLAS): all cores unless OMP_NUM_THREADS says otherwise, or `threads`
 * from now on (values below 1 are ignored). */
void amprt_set_num_threads(int threads);
int amprt_num_threads(void);

/* Runs body(context, begin, end) over disjoint chunks covering [0, count)
 * on the same threads (one chunk each), and returns when all are done. On
 * one thread, inside another parallel region, or for count < 2 it is one
 * call body(context, 0, count), and so with AMPRT_PARALLEL_LOOPS=off.
 * Compiled steps call it for their large parallel loop nests
 * (amp-parallel-chunks-to-runtime). */
void amprt_parallel_for(void (*body)(void *context, int64_t begin,
                                     int64_t end),
                        void *context, int64_t count);

/* IEEE half and bfloat16 conversions, round to nearest even. */
uint16_t amprt_f32_to_f16(float value);
float amprt_f16_to_f32(uint16_t value);
uint16_t amprt_f32_to_bf16(float value);
float amprt_bf16_to_f32(uint16_t value);

/* Creates a session for the training step of `artifact`: parameters drawn
 * from U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = shape[0] (biases,
 * whose shape[0] is 1, start at zero), optimizer state at zero, the loss
 * scale at amp.initial_scale, working copies cast from their params. The
 * same seed gives the same bits. */
amprt_session *amprt_session_create(const amprt_artifact *artifact,
                                    uint64_t seed, char *error,
                                    size_t error_size);
void amprt_session_destroy(amprt_session *session);

const amp_function_info *amprt_session_step_info(const amprt_session *session);

/* Runs one step. `data` holds one buffer per AMP_ROLE_DATA argument, in
 * argument order. For a device artifact the step is one copy of the batch
 * in (through pinned memory), the call, one copy of the loss, overflow flag
 * and loss-scaler state out, and one wait; the params and state stay on
 * the device, and from the second step on the call is a CUDA graph
 * replayed (unless AMPRT_CUDA_GRAPHS is off or 0). Returns 0. */
int amprt_session_step(amprt_session *session, const void *const *data);

/* Counts a step the caller skipped without running it (a batch with
 * non-finite data): the counters advance, nothing else changes. */
void amprt_session_skip(amprt_session *session);

/* The last step's loss (first element), whether it overflowed (and was
 * skipped), and the counters. */
float amprt_session_loss(const amprt_session *session);
int amprt_session_found_inf(const amprt_session *session);
/* The current loss scale (1 when the step has no dynamic scale). */
float amprt_session_scale(const amprt_session *session);
int64_t amprt_session_steps(const amprt_session *session);
int64_t amprt_session_skipped(const amprt_session *session);

/* The current buffer of argument `index` (params, state, scaler state),
 * host memory the caller may read and write until the next step or load.
 * For a device artifact it is a host copy, fetched from the device on this
 * call and copied back up before the next step. A param's working copy
 * (AMP_ROLE_WORKING_COPY) is cast from it again before the next step or
 * save, whatever the caller wrote. */
void *amprt_session_argument(amprt_session *session, int32_t index);

/* FNV-1a over the bytes of every argument of `role` (e.g. all params),
 * in argument order: a cheap check that two runs hold the same bits. */
uint64_t amprt_session_digest(const amprt_session *session, amp_role role);

/* Checkpoints: every non-data argument and the counters, with a CRC-32
 * over all of it. Saving writes `path`.tmp in the same directory, syncs
 * it, renames it over `path` and syncs the directory: a failed or
 * interrupted save leaves an existing checkpoint untouched. Loading
 * checks the checksum, that the checkpoint was written for a step of the
 * same signature, the counters (0 <= skipped <= steps) and that nothing
 * follows the last argument. Return 0, or -1 with the reason in `error`;
 * a failed load leaves the session unchanged. */
int amprt_session_save(const amprt_session *session, const char *path,
                       char *error, size_t error_size);
int amprt_session_load(amprt_session *session, const char *path, char *error,
                       size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* AMPRT_H */
