//===- device.cpp - context, stream, errors and managed memory ------------===//

#include "device.h"

#include "amprt_cuda.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace amprt::cuda {
namespace {
int defaultDevice = 0;
std::once_flag initialized;
CUcontext context = nullptr;
CUstream sharedStream = nullptr;
} // namespace

void check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = "unknown", *message = "unknown";
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &message);
  std::fprintf(stderr, "amprt_cuda: %s failed: %s (%s)\n", what, name, message);
  std::abort();
}

void setDefaultDevice(int device) { defaultDevice = device; }

void makeContextCurrent() {
  std::call_once(initialized, [] {
    check(cuInit(0), "cuInit (is there a GPU and its driver?)");
    CUdevice device;
    check(cuDeviceGet(&device, defaultDevice), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&context, device),
          "cuDevicePrimaryCtxRetain");
  });
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

CUstream stream() {
  makeContextCurrent();
  static std::once_flag created;
  std::call_once(created, [] {
    check(cuStreamCreate(&sharedStream, CU_STREAM_NON_BLOCKING),
          "cuStreamCreate");
  });
  return sharedStream;
}

} // namespace amprt::cuda

using namespace amprt::cuda;

extern "C" void *amprt_cuda_alloc(uint64_t bytes) {
  makeContextCurrent();
  CUdeviceptr pointer = 0;
  // A zero-byte buffer still needs a distinct, valid address.
  check(cuMemAllocManaged(&pointer, bytes ? bytes : 1, CU_MEM_ATTACH_GLOBAL),
        "cuMemAllocManaged");
  return reinterpret_cast<void *>(pointer);
}

extern "C" void amprt_cuda_free(void *pointer) {
  if (!pointer)
    return;
  makeContextCurrent();
  // Work still queued may read the buffer.
  check(cuStreamSynchronize(stream()), "cuStreamSynchronize");
  check(cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)), "cuMemFree");
}
