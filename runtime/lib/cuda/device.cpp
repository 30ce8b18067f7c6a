//===- device.cpp - context, stream, errors, memory and copies ------------===//

#include "device.h"

#include "amprt_cuda.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
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
///
/// A captured step (a CUDA graph) keeps the addresses of the blocks it used
/// and reuses them on every replay, long after the host code freed them:
/// blocks handed out during a capture belong to the graphs from then on
/// and are handed out again only to captures (graphs replay one after the
/// other on the one stream, so they may share them), until no graph is
/// left.
class BlockCache {
public:
  void *allocate(uint64_t bytes, bool managed) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      Key key{bytes, managed};
      for (auto *pool : capturing ? std::vector<Pool *>{&graphFree, &free}
                                  : std::vector<Pool *>{&free}) {
        auto it = pool->find(key);
        if (it != pool->end() && !it->second.empty()) {
          void *block = it->second.back();
          it->second.pop_back();
          if (capturing)
            graphOwned.insert(block);
          return block;
        }
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
    if (capturing)
      graphOwned.insert(block);
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
    (graphOwned.count(block) ? graphFree : free)[it->second].push_back(block);
  }

  void setCapturing(bool on) {
    std::lock_guard<std::mutex> lock(mutex);
    capturing = on;
  }

  /// One more graph holds blocks / one less; with none left, the graphs'
  /// free blocks go back to everyone.
  void retainGraph() {
    std::lock_guard<std::mutex> lock(mutex);
    ++graphs;
  }
  void releaseGraph() {
    std::lock_guard<std::mutex> lock(mutex);
    if (--graphs > 0 || capturing)
      return;
    for (auto &[key, list] : graphFree) {
      for (void *block : list)
        graphOwned.erase(block);
      free[key].insert(free[key].end(), list.begin(), list.end());
    }
    graphFree.clear();
  }

private:
  using Key = std::pair<uint64_t, bool>; // bytes, managed
  using Pool = std::map<Key, std::vector<void *>>;
  std::mutex mutex;
  Pool free, graphFree;
  std::unordered_map<void *, Key> sizes;
  std::unordered_set<void *> graphOwned;
  bool capturing = false;
  int graphs = 0;
};

BlockCache &blocks() {
  static BlockCache *cache = new BlockCache; // outlives static destructors
  return *cache;
}

/// The capture in progress: whether one is, and whether a call in it
/// failed (the capture is then thrown away and the step runs eagerly).
struct Capture {
  bool active = false;
  bool failed = false;
  // Pinned snapshots of the host memory copied from during the capture
  // (a step's constants): a graph cannot copy from pageable memory.
  std::vector<void *> snapshots;
};
Capture capture;
} // namespace

struct amprt_cuda_graph {
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  std::vector<void *> snapshots;
};

bool amprt::cuda::capturing() { return capture.active; }

bool amprt::cuda::checkCaptured(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  if (!capture.active)
    check(result, what);
  capture.failed = true;
  return false;
}

const void *amprt::cuda::snapshotForCapture(const void *host, size_t bytes) {
  void *pinned = nullptr;
  if (!checkCaptured(cuMemAllocHost(&pinned, bytes ? bytes : 1),
                     "cuMemAllocHost"))
    return nullptr;
  std::memcpy(pinned, host, bytes);
  capture.snapshots.push_back(pinned);
  return pinned;
}

void *amprt::cuda::allocate(uint64_t bytes, bool managed) {
  return blocks().allocate(bytes, managed);
}

void amprt::cuda::copyToDevice(void *device, const void *host,
                               uint64_t bytes) {
  checkCaptured(cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(device), host, bytes,
                          stream()),
        "cuMemcpyHtoDAsync");
}

void amprt::cuda::copyToHost(void *host, const void *device, uint64_t bytes) {
  checkCaptured(cuMemcpyDtoHAsync(host, reinterpret_cast<CUdeviceptr>(device), bytes,
                          stream()),
        "cuMemcpyDtoHAsync");
}

void amprt::cuda::synchronize() {
  // Not in a capture: it fails the capture instead of aborting.
  checkCaptured(cuStreamSynchronize(stream()), "cuStreamSynchronize");
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

int amprt_cuda_capture_begin(void) {
  if (capture.active)
    return -1;
  if (cuStreamBeginCapture(stream(), CU_STREAM_CAPTURE_MODE_RELAXED) !=
      CUDA_SUCCESS)
    return -1;
  capture = Capture();
  capture.active = true;
  blocks().setCapturing(true);
  return 0;
}

amprt_cuda_graph *amprt_cuda_capture_end(void) {
  CUgraph graph = nullptr;
  CUresult ended = cuStreamEndCapture(stream(), &graph);
  blocks().setCapturing(false);
  capture.active = false;
  auto *captured = new amprt_cuda_graph;
  captured->graph = graph;
  captured->snapshots = std::move(capture.snapshots);
  blocks().retainGraph();
  if (ended != CUDA_SUCCESS || capture.failed || !graph ||
      cuGraphInstantiate(&captured->exec, graph, 0) !=
          CUDA_SUCCESS) {
    amprt_cuda_graph_destroy(captured);
    return nullptr;
  }
  return captured;
}

void amprt_cuda_graph_launch(amprt_cuda_graph *graph) {
  check(cuGraphLaunch(graph->exec, stream()), "cuGraphLaunch");
}

void amprt_cuda_graph_destroy(amprt_cuda_graph *graph) {
  if (!graph)
    return;
  // A replay still queued reads the snapshots and blocks.
  synchronize();
  if (graph->exec)
    cuGraphExecDestroy(graph->exec);
  if (graph->graph)
    cuGraphDestroy(graph->graph);
  for (void *pinned : graph->snapshots)
    cuMemFreeHost(pinned);
  delete graph;
  blocks().releaseGraph();
}
} // extern "C"
