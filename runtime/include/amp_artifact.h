/*===- amp_artifact.h - the C ABI of an amp-compile artifact -------*- C -*-===*
 *
 * An artifact is a shared object made by amp-compile. It exports
 * `amp_artifact_abi_version()` and `amp_artifact_functions()`: a table that
 * describes each compiled function (its arguments and results, with their
 * roles in the training-graph contract) and a uniform entry point taking
 * one buffer per argument and then one per result.
 *
 * Bump AMP_ARTIFACT_ABI_VERSION whenever these structs or the calling
 * convention change; libamprt refuses artifacts of another version.
 *
 * amp-compile appends a trailer to the shared object (the dynamic loader
 * ignores bytes past the ELF's segments): the CRC-32 (zlib's) of every byte
 * before the trailer, and that byte count, both little-endian, then the
 * 8 bytes of AMP_ARTIFACT_TRAILER_MAGIC. libamprt checks it before dlopen,
 * so a damaged artifact is refused rather than run.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_ARTIFACT_H
#define AMP_ARTIFACT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AMP_ARTIFACT_ABI_VERSION 6

#define AMP_ARTIFACT_TRAILER_MAGIC "AMPCRC01"

typedef struct amp_artifact_trailer {
  uint32_t crc32;      /* of bytes [0, size) */
  uint32_t reserved;   /* 0 */
  uint64_t size;       /* bytes before the trailer */
  char magic[8];       /* AMP_ARTIFACT_TRAILER_MAGIC, without its NUL */
} amp_artifact_trailer;

typedef enum amp_dtype {
  AMP_F32 = 0,
  AMP_F16 = 1,
  AMP_BF16 = 2,
  AMP_I32 = 3,
  AMP_I1 = 4, /* one byte per element */
  AMP_F64 = 5,
  AMP_I64 = 6,
} amp_dtype;

typedef enum amp_role {
  AMP_ROLE_DATA = 0,         /* an input that is neither param nor state */
  AMP_ROLE_PARAM = 1,        /* amp.param: an f32 master weight */
  AMP_ROLE_STATE = 2,        /* amp.state: optimizer state */
  AMP_ROLE_SCALE = 3,        /* amp.scaler = "scale" */
  AMP_ROLE_GROWTH = 4,       /* amp.scaler = "growth_tracker" */
  AMP_ROLE_HYSTERESIS = 5,   /* amp.scaler = "hysteresis" */
  AMP_ROLE_WORKING_COPY = 6, /* amp.working_copy_of = target */
  AMP_ROLE_LOSS = 7,         /* result: amp.loss */
  AMP_ROLE_UPDATE = 8,       /* result: amp.update_of = target */
  AMP_ROLE_FOUND_INF = 9,    /* result: amp.found_inf */
  AMP_ROLE_OUTPUT = 10,      /* any other result */
} amp_role;

typedef struct amp_tensor_info {
  amp_dtype dtype;
  amp_role role;
  /* The argument a working copy or an update refers to; -1 otherwise. */
  int32_t target;
  int32_t rank;
  const int64_t *shape;
  /* The argument's `amp.name`, else "arg<N>" (results: "result<N>"); never
   * null. Names are unique within a function's arguments and made of
   * [A-Za-z0-9_.:/-]. Version 3 added it. */
  const char *name;
  /* Results only: 1 for an update computed in its target argument's own
   * buffer (amp-compile --update-in-place): `call` writes the new value
   * into input buffer `target` and ignores this result's buffer; 0 for
   * every other tensor. Version 5 added it. */
  int32_t in_place;
} amp_tensor_info;

typedef struct amp_function_info {
  const char *name;
  int32_t num_args;
  const amp_tensor_info *args;
  int32_t num_results;
  const amp_tensor_info *results;
  /* amp.initial_scale / amp.initial_hysteresis, or 0 when absent. */
  float initial_scale;
  int32_t initial_hysteresis;
  /* Runs the function: `buffers` holds num_args input buffers, then
   * num_results output buffers, each dense and row-major with the shape
   * and dtype above, then, when workspace_bytes > 0, a workspace of that
   * many bytes. Inputs are only read, except the target of an `in_place`
   * result, which ends holding that result (the buffer passed for the
   * result itself is ignored and may be NULL). Output buffers must not
   * overlap input buffers: a result may be written before the last read of
   * an input. Returns 0. */
  int32_t (*call)(void **buffers);
  /* The bytes of memory (device memory for a device artifact) the function
   * uses for its intermediates (amp-plan-step-memory), which the caller
   * allocates once and passes to every call, 256-byte aligned. 0 when the
   * function allocates its own. Version 4 added it (at first for device
   * artifacts only). */
  uint64_t workspace_bytes;
  /* NULL, or what prepares a new workspace: it writes the constants the
   * function reads from there (a device artifact's constant tables, copied
   * to the device once instead of on every call). The caller runs it once on
   * each workspace before the first call with it (a device artifact queues
   * it like `call`) and keeps the workspace's bytes as the calls leave
   * them: a call writes only bytes other than the constants'. Version 6
   * added it. */
  int32_t (*init_workspace)(void *workspace);
} amp_function_info;

/* Exported by every artifact. */
int32_t amp_artifact_abi_version(void);
const amp_function_info *amp_artifact_functions(int32_t *count);

/* Exported by an artifact whose code runs on a device (amp-compile
 * --target=cuda). Its buffers live in device memory, which the host cannot
 * read or write: the runtime allocates every buffer it passes to `call`
 * with amp_artifact_alloc and moves data only with the copies below. All
 * of it is queued in order on the artifact's one stream: `call` returns
 * with its work queued, a copy returns at once (the host memory must stay
 * as it is until amp_artifact_synchronize), and amp_artifact_synchronize
 * waits for everything queued. amp_artifact_host_alloc gives pinned host
 * memory, from which copies run asynchronously. Version 2 added alloc and
 * free; version 4 the rest (before it, buffers were managed memory and
 * `call` waited). */
void *amp_artifact_alloc(uint64_t bytes);
void amp_artifact_free(void *pointer);
void *amp_artifact_host_alloc(uint64_t bytes);
void amp_artifact_host_free(void *pointer);
void amp_artifact_copy_to_device(void *device, const void *host,
                                 uint64_t bytes);
void amp_artifact_copy_to_host(void *host, const void *device, uint64_t bytes);
void amp_artifact_synchronize(void);

/* Also exported by a device artifact (version 4): CUDA graphs. Between
 * capture_begin (0, or nonzero when no capture can start) and capture_end,
 * what `call` queues is recorded instead of run; capture_end returns a
 * graph that graph_launch queues as a whole (the same work on the same
 * buffers), or NULL when the work cannot be captured (then none of it ran:
 * call again without capturing). */
int32_t amp_artifact_capture_begin(void);
void *amp_artifact_capture_end(void);
void amp_artifact_graph_launch(void *graph);
void amp_artifact_graph_destroy(void *graph);

#ifdef __cplusplus
}
#endif

#endif /* AMP_ARTIFACT_H */
