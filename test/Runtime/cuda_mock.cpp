//===- cuda_mock.cpp - the CUDA driver API, simulated on the CPU ----------===//
//
// Just enough of libcuda for libamprt_cuda's host logic to run without a
// GPU, counting what a step asks of the GPU (cuda_mock.h). Device memory
// is memory the host cannot touch: each allocation is mapped twice,
// PROT_NONE at the address handed out and read-write at a shadow address
// that the mock's own copies, fills and GEMMs (cublaslt_mock.cpp) use. A
// host access to a device page faults; the fault is counted as a host
// touch and the page opened until the next amprt_mock_begin_step (managed
// memory is counted the same way: on a GPU every such touch migrates the
// page). Kernels are counted, not run.
//
//===----------------------------------------------------------------------===//

#include "cuda_mock.h"

#include <cuda.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <mutex>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace {
//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

struct Allocation {
  size_t bytes;  // mapped, whole pages
  char *shadow;  // the same pages, read-write
};

std::mutex memoryMutex;
std::set<const void *> pinnedBlocks; // cuMemAllocHost
std::map<uintptr_t, Allocation> allocations; // by device address
std::vector<uintptr_t> openedPages;          // host-touched this step
amprt_mock_counts counts;
size_t pageSize = 4096;

/// The allocation holding `address`, or allocations.end().
std::map<uintptr_t, Allocation>::iterator find(uintptr_t address) {
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return allocations.end();
  --it;
  return address < it->first + it->second.bytes ? it : allocations.end();
}

} // namespace

void *amprt_mock_shadow(const void *pointer) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto it = find(address);
  if (it == allocations.end())
    return const_cast<void *>(pointer);
  return it->second.shadow + (address - it->first);
}

namespace {
void *shadow(const void *pointer) { return amprt_mock_shadow(pointer); }

bool isDevice(const void *pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  return find(reinterpret_cast<uintptr_t>(pointer)) != allocations.end();
}

struct sigaction previousHandler;

/// A host access to a device page: counted, and the page opened so the
/// access can go on. The fault is synchronous and the faulting code holds
/// none of the mock's locks (the mock touches only shadows).
void onFault(int signal, siginfo_t *info, void *context) {
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  auto it = find(address);
  if (it != allocations.end()) {
    uintptr_t page = address & ~(uintptr_t(pageSize) - 1);
    if (mprotect(reinterpret_cast<void *>(page), pageSize,
                 PROT_READ | PROT_WRITE) == 0) {
      ++counts.hostTouches;
      openedPages.push_back(page);
      return;
    }
  }
  // Not ours: what would have happened without the mock.
  sigaction(SIGSEGV, &previousHandler, nullptr);
  if (previousHandler.sa_flags & SA_SIGINFO && previousHandler.sa_sigaction)
    previousHandler.sa_sigaction(signal, info, context);
}

void installFaultHandler() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    pageSize = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    struct sigaction action = {};
    action.sa_sigaction = onFault;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previousHandler);
  });
}

CUresult allocate(CUdeviceptr *pointer, size_t bytes) {
  installFaultHandler();
  size_t mapped = (bytes + pageSize - 1) / pageSize * pageSize;
  if (!mapped)
    mapped = pageSize;
  int fd = memfd_create("amprt-mock-device", 0);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(mapped)) != 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *device = mmap(nullptr, mapped, PROT_NONE, MAP_SHARED, fd, 0);
  void *copy = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (device == MAP_FAILED || copy == MAP_FAILED)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(memoryMutex);
  allocations[reinterpret_cast<uintptr_t>(device)] = {mapped,
                                                      static_cast<char *>(copy)};
  ++counts.allocs;
  *pointer = reinterpret_cast<CUdeviceptr>(device);
  return CUDA_SUCCESS;
}

int modules = 0;

/// A stream capture: the work recorded instead of run. Graphs replay it.
struct MockGraph {
  std::vector<std::function<void()>> work;
  bool invalid = false; // something not capturable was asked
};
MockGraph *recording = nullptr;

bool isPinned(const void *pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  return pinnedBlocks.count(pointer) != 0;
}

/// Runs `work` now, or records it while the stream is captured.
CUresult runOrRecord(std::function<void()> work) {
  if (recording)
    recording->work.push_back(std::move(work));
  else
    work();
  return CUDA_SUCCESS;
}
} // namespace

bool amprt_mock_record(std::function<void()> work) {
  if (!recording)
    return false;
  recording->work.push_back(std::move(work));
  return true;
}

void amprt_mock_begin_step() {
  std::lock_guard<std::mutex> lock(memoryMutex);
  for (uintptr_t page : openedPages)
    mprotect(reinterpret_cast<void *>(page), pageSize, PROT_NONE);
  openedPages.clear();
  counts = {};
}

amprt_mock_counts amprt_mock_step_counts() { return counts; }

amprt_mock_counts &amprt_mock_counters() { return counts; }

extern "C" {
// Driver API.
CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(0x1);
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuStreamCreate(CUstream *stream, unsigned) {
  *stream = reinterpret_cast<CUstream>(0x2);
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream) {
  if (recording) { // as CUDA: not in a capture, which it invalidates
    recording->invalid = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  ++counts.syncs;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  ++counts.syncs;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  return allocate(pointer, bytes);
}
CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned) {
  return allocate(pointer, bytes);
}
CUresult cuMemFree(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto it = allocations.find(static_cast<uintptr_t>(pointer));
  if (it == allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  munmap(reinterpret_cast<void *>(it->first), it->second.bytes);
  munmap(it->second.shadow, it->second.bytes);
  allocations.erase(it);
  ++counts.frees;
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadData(CUmodule *module, const void *) {
  *module = reinterpret_cast<CUmodule>(static_cast<intptr_t>(++modules));
  return CUDA_SUCCESS;
}
// Kernels are counted, not run: their outputs keep what was there.
CUresult cuModuleGetFunction(CUfunction *function, CUmodule, const char *) {
  *function = reinterpret_cast<CUfunction>(0x4);
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, CUstream, void **,
                        void **) {
  // Recorded into a graph, a kernel is not counted again when replayed.
  if (!amprt_mock_record([] {}))
    ++counts.launches;
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *event, unsigned) {
  *event = reinterpret_cast<CUevent>(0x5);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
CUresult cuEventSynchronize(CUevent) {
  ++counts.syncs;
  return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned) { return CUDA_SUCCESS; }
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream) {
  void *to = reinterpret_cast<void *>(dst);
  const void *from = reinterpret_cast<const void *>(src);
  bool toDevice = isDevice(to), fromDevice = isDevice(from);
  // As CUDA: a graph cannot copy from or to pageable host memory.
  if (recording && ((!toDevice && !isPinned(to)) ||
                    (!fromDevice && !isPinned(from)))) {
    recording->invalid = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  return runOrRecord([=] {
    counts.h2d += toDevice && !fromDevice;
    counts.d2h += fromDevice && !toDevice;
    std::memmove(shadow(to), shadow(from), bytes);
  });
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes,
                           CUstream) {
  // Addresses the mock did not hand out are used as they are: the runtime
  // test's GEMM operands stand in for device memory in host vectors.
  void *to = reinterpret_cast<void *>(dst);
  if (isDevice(src))
    return CUDA_ERROR_INVALID_VALUE;
  return runOrRecord([=] {
    ++counts.h2d;
    std::memmove(shadow(to), src, bytes);
  });
}
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes,
                           CUstream) {
  const void *from = reinterpret_cast<const void *>(src);
  if (isDevice(dst))
    return CUDA_ERROR_INVALID_VALUE;
  return runOrRecord([=] {
    ++counts.d2h;
    std::memmove(dst, shadow(from), bytes);
  });
}
// Pinned host memory is host memory: the host may touch it.
CUresult cuMemAllocHost(void **pointer, size_t bytes) {
  *pointer = std::malloc(bytes);
  if (!*pointer)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(memoryMutex);
  pinnedBlocks.insert(*pointer);
  ++counts.allocs;
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void *pointer) {
  {
    std::lock_guard<std::mutex> lock(memoryMutex);
    pinnedBlocks.erase(pointer);
  }
  std::free(pointer);
  ++counts.frees;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream) {
  auto *words = static_cast<uint32_t *>(shadow(reinterpret_cast<void *>(dst)));
  return runOrRecord([=] { std::fill(words, words + count, value); });
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream) {
  auto *halves =
      static_cast<uint16_t *>(shadow(reinterpret_cast<void *>(dst)));
  return runOrRecord([=] { std::fill(halves, halves + count, value); });
}
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                               CUdeviceptr pointer) {
  auto *address = reinterpret_cast<const void *>(pointer);
  if (attribute != CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
    return CUDA_ERROR_INVALID_VALUE;
  if (isDevice(address))
    *static_cast<unsigned *>(data) = CU_MEMORYTYPE_DEVICE;
  else if (isPinned(address))
    *static_cast<unsigned *>(data) = CU_MEMORYTYPE_HOST;
  else // pageable memory is unknown to the driver
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

// Stream capture and graphs: a graph is the work recorded, replayed in
// order by cuGraphLaunch (kernels and GEMMs are not counted again; copies
// are, as they move data each time).
CUresult cuStreamBeginCapture(CUstream, CUstreamCaptureMode) {
  if (recording)
    return CUDA_ERROR_ILLEGAL_STATE;
  recording = new MockGraph;
  return CUDA_SUCCESS;
}
CUresult cuStreamEndCapture(CUstream, CUgraph *graph) {
  MockGraph *recorded = recording;
  recording = nullptr;
  if (!recorded)
    return CUDA_ERROR_ILLEGAL_STATE;
  if (recorded->invalid) {
    delete recorded;
    *graph = nullptr;
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  *graph = reinterpret_cast<CUgraph>(recorded);
  return CUDA_SUCCESS;
}
CUresult cuGraphInstantiate(CUgraphExec *exec, CUgraph graph,
                            unsigned long long) {
  *exec = reinterpret_cast<CUgraphExec>(graph);
  return CUDA_SUCCESS;
}
CUresult cuGraphLaunch(CUgraphExec exec, CUstream) {
  if (recording)
    return CUDA_ERROR_ILLEGAL_STATE;
  ++counts.graphLaunches;
  for (const auto &work : reinterpret_cast<MockGraph *>(exec)->work)
    work();
  return CUDA_SUCCESS;
}
CUresult cuGraphExecDestroy(CUgraphExec) { return CUDA_SUCCESS; }
CUresult cuGraphDestroy(CUgraph graph) {
  delete reinterpret_cast<MockGraph *>(graph);
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult, const char **name) {
  *name = "CUDA_ERROR_MOCK";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult, const char **message) {
  *message = "mock";
  return CUDA_SUCCESS;
}

} // extern "C"
