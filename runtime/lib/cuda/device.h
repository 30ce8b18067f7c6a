//===- device.h - the one CUDA context and stream of libamprt_cuda -*- C++ -*-//

#ifndef AMPRT_CUDA_DEVICE_H
#define AMPRT_CUDA_DEVICE_H

#include <cuda.h>

#include <cstdint>

namespace amprt::cuda {

/// Aborts with `what`, the error's name and its message unless `result` is
/// CUDA_SUCCESS: the generated host code has no error path to return on.
void check(CUresult result, const char *what);

/// Makes the primary context of the chosen device current (on first use:
/// cuInit, device 0 unless mgpuSetDefaultDevice chose another).
void makeContextCurrent();

/// The stream every kernel, copy and GEMM runs on, in program order.
CUstream stream();

void setDefaultDevice(int device);

/// Device memory (cuMemAlloc), or managed memory (cuMemAllocManaged) when
/// `managed`, from a cache of freed blocks; released with amprt_cuda_free.
void *allocate(uint64_t bytes, bool managed);

/// Copies queued on stream(): the host memory must stay as it is until
/// synchronize().
void copyToDevice(void *device, const void *host, uint64_t bytes);
void copyToHost(void *host, const void *device, uint64_t bytes);
void synchronize();

/// Whether amprt_cuda_capture_begin started a capture not yet ended.
bool capturing();
/// check(), except that during a capture a failure makes the capture fail
/// (amprt_cuda_capture_end then returns no graph) instead of aborting.
/// True on success.
bool checkCaptured(CUresult result, const char *what);
/// During a capture: a pinned copy of `bytes` of host memory, kept with the
/// graph, for a copy the graph replays (or null, the capture failed).
const void *snapshotForCapture(const void *host, size_t bytes);

} // namespace amprt::cuda

#endif // AMPRT_CUDA_DEVICE_H
