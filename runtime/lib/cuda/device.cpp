//===- device.cpp - context, stream, errors, memory and copies ------------===//

#include "device.h"

#include "amprt_cuda.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

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

namespace {
/// Blocks kept for reuse instead of freed: a step allocates the same
/// buffers, of the same sizes, on every call, so from the second step on
/// it allocates nothing. Every kernel, copy and GEMM runs on the one
/// stream, so a block freed and handed out again is used after the work
/// that used it before (stream order): no synchronization on free. Host
/// code that touches a buffer must have waited for the stream anyway.
class BlockCache {
public:
  void *allocate(uint64_t bytes, bool managed) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = free.find({bytes, managed});
      if (it != free.end() && !it->second.empty()) {
        void *block = it->second.back();
        it->second.pop_back();
        return block;
      }
    }
    makeContextCurrent();
    CUdeviceptr pointer = 0;
    // A zero-byte buffer still needs a distinct, valid address.
    if (managed)
      check(cuMemAllocManaged(&pointer, bytes ? bytes : 1,
                              CU_MEM_ATTACH_GLOBAL),
            "cuMemAllocManaged");
    else
      check(cuMemAlloc(&pointer, bytes ? bytes : 1), "cuMemAlloc");
    void *block = reinterpret_cast<void *>(pointer);
    std::lock_guard<std::mutex> lock(mutex);
    sizes[block] = {bytes, managed};
    return block;
  }

  void release(void *block) {
    if (!block)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(block);
    if (it == sizes.end()) {
      std::fprintf(stderr, "amprt_cuda: freeing %p, which amprt_cuda did not "
                           "allocate\n", block);
      std::abort();
    }
    free[it->second].push_back(block);
  }

private:
  using Key = std::pair<uint64_t, bool>; // bytes, managed
  std::mutex mutex;
  std::map<Key, std::vector<void *>> free;
  std::unordered_map<void *, Key> sizes;
};

BlockCache &blocks() {
  static BlockCache *cache = new BlockCache; // outlives static destructors
  return *cache;
}
} // namespace

void *amprt::cuda::allocate(uint64_t bytes, bool managed) {
  return blocks().allocate(bytes, managed);
}

void amprt::cuda::copyToDevice(void *device, const void *host,
                               uint64_t bytes) {
  check(cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(device), host, bytes,
                          stream()),
        "cuMemcpyHtoDAsync");
}

void amprt::cuda::copyToHost(void *host, const void *device, uint64_t bytes) {
  check(cuMemcpyDtoHAsync(host, reinterpret_cast<CUdeviceptr>(device), bytes,
                          stream()),
        "cuMemcpyDtoHAsync");
}

void amprt::cuda::synchronize() {
  check(cuStreamSynchronize(stream()), "cuStreamSynchronize");
}

extern "C" {
void *amprt_cuda_alloc(uint64_t bytes) {
  return allocate(bytes, /*managed=*/false);
}

void amprt_cuda_free(void *pointer) { blocks().release(pointer); }

void *amprt_cuda_host_alloc(uint64_t bytes) {
  makeContextCurrent();
  void *pointer = nullptr;
  check(cuMemAllocHost(&pointer, bytes ? bytes : 1), "cuMemAllocHost");
  return pointer;
}

void amprt_cuda_host_free(void *pointer) {
  if (pointer)
    check(cuMemFreeHost(pointer), "cuMemFreeHost");
}

void amprt_cuda_copy_to_device(void *device, const void *host,
                               uint64_t bytes) {
  copyToDevice(device, host, bytes);
}

void amprt_cuda_copy_to_host(void *host, const void *device, uint64_t bytes) {
  copyToHost(host, device, bytes);
}

void amprt_cuda_synchronize(void) { synchronize(); }
} // extern "C"
