//===- mgpu.cpp - the mgpu* ABI that MLIR's gpu-to-llvm emits -------------===//
//
// Debian's MLIR ships no CUDA runtime wrappers; these are ours, on the
// driver API, with the signatures MLIR 22.1.8's lowering calls (docs/toolchain.md).
// Differences from upstream's wrappers, on purpose:
//  - every "created" stream is the one shared stream, so kernels, copies
//    and cuBLASLt GEMMs stay in program order;
//  - the lowered code loads the kernel module before each launch and
//    unloads it after; loads are cached (keyed by the embedded binary, whose
//    bytes are compared so a reused address cannot alias another artifact)
//    and unloads are no-ops, so a launch costs a launch.
//
//===----------------------------------------------------------------------===//

#include "device.h"

#include "amprt_cuda.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace amprt::cuda;

namespace {
struct LoadedModule {
  const void *data;
  std::vector<char> bytes;
  CUmodule module;
};
std::mutex modulesMutex;
std::vector<std::unique_ptr<LoadedModule>> modules;

CUmodule loadCached(const void *data, size_t size) {
  std::lock_guard<std::mutex> lock(modulesMutex);
  for (const auto &loaded : modules)
    if (loaded->data == data && loaded->bytes.size() == size &&
        std::memcmp(loaded->bytes.data(), data, size) == 0)
      return loaded->module;
  makeContextCurrent();
  auto loaded = std::make_unique<LoadedModule>();
  loaded->data = data;
  loaded->bytes.assign(static_cast<const char *>(data),
                       static_cast<const char *>(data) + size);
  check(cuModuleLoadData(&loaded->module, data),
        "cuModuleLoadData (is the kernel built for this GPU?)");
  modules.push_back(std::move(loaded));
  return modules.back()->module;
}
} // namespace

extern "C" {

void *mgpuModuleLoad(void *data, int64_t size) {
  return loadCached(data, static_cast<size_t>(size));
}

void *mgpuModuleLoadJIT(void *ptx, int32_t /*optLevel*/) {
  return loadCached(ptx, std::strlen(static_cast<const char *>(ptx)) + 1);
}

void mgpuModuleUnload(void * /*module*/) {}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CUfunction function;
  check(cuModuleGetFunction(&function, static_cast<CUmodule>(module), name),
        "cuModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(void *function, int64_t gridX, int64_t gridY,
                      int64_t gridZ, int64_t blockX, int64_t blockY,
                      int64_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, int64_t /*paramCount*/) {
  makeContextCurrent();
  checkCaptured(cuLaunchKernel(static_cast<CUfunction>(function), gridX, gridY, gridZ,
                       blockX, blockY, blockZ, sharedBytes,
                       static_cast<CUstream>(stream), params, extra),
        "cuLaunchKernel");
}

void *mgpuStreamCreate() { return stream(); }
void mgpuStreamDestroy(void * /*stream*/) {}
void mgpuStreamSynchronize(void *s) {
  checkCaptured(cuStreamSynchronize(static_cast<CUstream>(s)), "cuStreamSynchronize");
}

void *mgpuEventCreate() {
  makeContextCurrent();
  CUevent event;
  check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}
void mgpuEventDestroy(void *event) {
  check(cuEventDestroy(static_cast<CUevent>(event)), "cuEventDestroy");
}
void mgpuEventRecord(void *event, void *s) {
  checkCaptured(cuEventRecord(static_cast<CUevent>(event), static_cast<CUstream>(s)),
        "cuEventRecord");
}
void mgpuStreamWaitEvent(void *s, void *event) {
  checkCaptured(cuStreamWaitEvent(static_cast<CUstream>(s), static_cast<CUevent>(event),
                          0),
        "cuStreamWaitEvent");
}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool hostShared) {
  return allocate(bytes, /*managed=*/hostShared);
}

void mgpuMemFree(void *pointer, void * /*stream*/) { amprt_cuda_free(pointer); }

/// Whether `pointer` is host memory the driver does not know (pageable).
static bool isPageableHost(const void *pointer) {
  unsigned type = 0;
  return cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                               reinterpret_cast<CUdeviceptr>(pointer)) !=
         CUDA_SUCCESS;
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *s) {
  // Every buffer of a step is device memory: host memory it copies from is
  // a constant, which a graph copies from a pinned snapshot (it cannot copy
  // from pageable memory).
  const void *from = src;
  if (capturing() && isPageableHost(src) &&
      !(from = snapshotForCapture(src, bytes)))
    return;
  checkCaptured(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                              reinterpret_cast<CUdeviceptr>(from), bytes,
                              static_cast<CUstream>(s)),
                "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *s) {
  checkCaptured(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         static_cast<CUstream>(s)),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *s) {
  checkCaptured(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         static_cast<CUstream>(s)),
        "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) { setDefaultDevice(device); }

} // extern "C"
