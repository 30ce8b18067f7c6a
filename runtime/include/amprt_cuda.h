/*===- amprt_cuda.h - libamprt_cuda: the CUDA side of the runtime -*- C -*-===*
 *
 * libamprt_cuda carries what a CUDA artifact (amp-compile --target=cuda)
 * calls: the mgpu* kernel-launch ABI that MLIR's gpu-to-llvm emits, the
 * GEMMs of its contractions (cuBLASLt: f16/bf16 or f32 inputs, f32
 * accumulation), device memory and the copies in and out of it. It needs
 * the CUDA driver (libcuda.so.1) and cuBLASLt; like libamprt it has no
 * MLIR/LLVM inside.
 *
 * Every buffer a CUDA artifact touches is device memory (cuMemAlloc), which
 * the host cannot read or write: data moves with the copies below. All
 * work runs on one stream and is queued without waiting (kernels, GEMMs,
 * copies, frees); amprt_cuda_synchronize waits for it. Freed buffers are
 * kept and handed out again for the same size (stream-ordered: no
 * synchronization), so a step allocates no memory from its second call on.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMPRT_CUDA_H
#define AMPRT_CUDA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Device memory (cuMemAlloc, or a block of the same size freed before), at
 * least 256-byte aligned; never null: a CUDA failure aborts with its name
 * and message. amprt_cuda_free keeps the block for reuse. */
void *amprt_cuda_alloc(uint64_t bytes);
void amprt_cuda_free(void *pointer);

/* Pinned host memory (cuMemAllocHost), for copies that do not wait. */
void *amprt_cuda_host_alloc(uint64_t bytes);
void amprt_cuda_host_free(void *pointer);

/* Copies queued on the stream, behind the work queued before: `host` must
 * stay as it is until amprt_cuda_synchronize returns. */
void amprt_cuda_copy_to_device(void *device, const void *host, uint64_t bytes);
void amprt_cuda_copy_to_host(void *host, const void *device, uint64_t bytes);
/* Waits for everything queued. */
void amprt_cuda_synchronize(void);

/* CUDA graphs: between amprt_cuda_capture_begin (0, or -1 when no capture
 * can start) and amprt_cuda_capture_end, work on the stream is recorded,
 * not run; the end gives a graph that amprt_cuda_graph_launch queues, or
 * NULL when something in the capture failed (then nothing of it ran: run
 * the work again without capturing). Buffers allocated during a capture
 * stay the graphs' (their addresses are in the graph); host memory copied
 * to the device during a capture is copied as it was then (the step's
 * constants). */
typedef struct amprt_cuda_graph amprt_cuda_graph;
int amprt_cuda_capture_begin(void);
amprt_cuda_graph *amprt_cuda_capture_end(void);
void amprt_cuda_graph_launch(amprt_cuda_graph *graph);
void amprt_cuda_graph_destroy(amprt_cuda_graph *graph);

#ifdef __cplusplus
}
#endif

#endif /* AMPRT_CUDA_H */
