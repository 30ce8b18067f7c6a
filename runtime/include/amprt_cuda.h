/*===- amprt_cuda.h - libamprt_cuda: the CUDA side of the runtime -*- C -*-===*
 *
 * libamprt_cuda carries what a CUDA artifact (amp-compile --target=cuda)
 * calls: the mgpu* kernel-launch ABI that MLIR's gpu-to-llvm emits, the
 * GEMMs of its contractions (cuBLASLt: f16/bf16 or f32 inputs, f32
 * accumulation) and managed memory. It needs the CUDA driver (libcuda.so.1)
 * and cuBLASLt; like libamprt it has no MLIR/LLVM inside.
 *
 * Every buffer a CUDA artifact touches is managed memory (reachable from
 * the host and the GPU). All work runs on one stream and is queued without
 * waiting (kernels, GEMMs, frees): the compiled step waits for the stream
 * before its host code touches memory and before it returns, so a caller
 * may read any buffer once the step has returned. Freed buffers are kept and handed out again for the
 * same size (stream-ordered: no synchronization), so a step allocates no
 * memory from its second call on.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMPRT_CUDA_H
#define AMPRT_CUDA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Managed memory (cuMemAllocManaged, or a block of the same size freed
 * before), at least 256-byte aligned; never null: a CUDA failure aborts with
 * its name and message. amprt_cuda_free keeps the block for reuse. */
void *amprt_cuda_alloc(uint64_t bytes);
void amprt_cuda_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* AMPRT_CUDA_H */
