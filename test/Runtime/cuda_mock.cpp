//===- cuda_mock.cpp - the driver API and cuBLASLt, simulated on the CPU --===//
//
// Just enough of libcuda and libcublasLt for libamprt_cuda's host logic to
// run without a GPU, counting what a step asks of the GPU
// (cuda_mock.h). Device memory is memory the host cannot touch: each
// allocation is mapped twice, PROT_NONE at the address handed out and
// read-write at a shadow address that the mock's own copies, fills and
// GEMMs use. A host access to a device page faults; the fault is counted
// as a host touch and the page opened until the next
// amprt_mock_begin_step (managed memory is counted the same way: on a GPU
// every such touch migrates the page). Kernels are counted, not run.
// cublasLtMatmul computes its column-major D = alpha op(A) op(B) + beta C
// from the layouts and attributes it was given: it checks what
// libamprt_cuda asks of cuBLASLt (layouts, transposes, batching), not
// cuBLASLt itself.
//
//===----------------------------------------------------------------------===//

#include "cuda_mock.h"

#include "amprt.h"

#include <cublasLt.h>
#include <cuda.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace {
struct Layout {
  cudaDataType type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch = 1;
  int64_t batchStride = 0;
};
static_assert(sizeof(Layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "");

struct Desc {
  cublasOperation_t transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
};

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

struct Allocation {
  size_t bytes;  // mapped, whole pages
  char *shadow;  // the same pages, read-write
};

std::mutex memoryMutex;
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

/// Where the mock itself reads or writes `pointer`: the shadow of a
/// device address, any other address as it is.
void *shadow(const void *pointer) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto it = find(address);
  if (it == allocations.end())
    return const_cast<void *>(pointer);
  return it->second.shadow + (address - it->first);
}

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

float load(const void *base, cudaDataType type, int64_t index) {
  switch (type) {
  case CUDA_R_32F:
    return static_cast<const float *>(base)[index];
  case CUDA_R_16F:
    return amprt_f16_to_f32(static_cast<const uint16_t *>(base)[index]);
  case CUDA_R_16BF:
    return amprt_bf16_to_f32(static_cast<const uint16_t *>(base)[index]);
  default:
    std::abort();
  }
}

size_t elementSize(cudaDataType type) { return type == CUDA_R_32F ? 4 : 2; }

/// Element (i, j) of op(X) for a column-major layout.
float element(const void *base, const Layout &l, bool transposed, int64_t b,
              int64_t i, int64_t j) {
  int64_t r = transposed ? j : i, c = transposed ? i : j;
  const char *batchBase =
      static_cast<const char *>(base) + b * l.batchStride * elementSize(l.type);
  return load(batchBase, l.type, r + c * l.ld);
}
int modules = 0;
} // namespace

void amprt_mock_begin_step() {
  std::lock_guard<std::mutex> lock(memoryMutex);
  for (uintptr_t page : openedPages)
    mprotect(reinterpret_cast<void *>(page), pageSize, PROT_NONE);
  openedPages.clear();
  counts = {};
}

amprt_mock_counts amprt_mock_step_counts() { return counts; }

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
  counts.h2d += toDevice && !fromDevice;
  counts.d2h += fromDevice && !toDevice;
  std::memmove(shadow(to), shadow(from), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream) {
  auto *words = static_cast<uint32_t *>(shadow(reinterpret_cast<void *>(dst)));
  std::fill(words, words + count, value);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream) {
  auto *halves =
      static_cast<uint16_t *>(shadow(reinterpret_cast<void *>(dst)));
  std::fill(halves, halves + count, value);
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

// cuBLASLt.
cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle) {
  *handle = reinterpret_cast<cublasLtHandle_t>(0x3);
  return CUBLAS_STATUS_SUCCESS;
}
const char *cublasLtGetStatusString(cublasStatus_t) { return "mock"; }
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc,
                                        cublasComputeType_t compute,
                                        cudaDataType scale) {
  if (compute != CUBLAS_COMPUTE_32F || scale != CUDA_R_32F)
    return CUBLAS_STATUS_NOT_SUPPORTED; // the runtime must ask for f32
  *desc = reinterpret_cast<cublasLtMatmulDesc_t>(new Desc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc,
                                              cublasLtMatmulDescAttributes_t a,
                                              const void *value, size_t) {
  auto *d = reinterpret_cast<Desc *>(desc);
  if (a == CUBLASLT_MATMUL_DESC_TRANSA)
    std::memcpy(&d->transA, value, sizeof(d->transA));
  else if (a == CUBLASLT_MATMUL_DESC_TRANSB)
    std::memcpy(&d->transB, value, sizeof(d->transB));
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  delete reinterpret_cast<Desc *>(desc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout,
                                          cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  if (ld < static_cast<int64_t>(rows ? rows : 1))
    return CUBLAS_STATUS_INVALID_VALUE; // as cuBLASLt: ld >= rows
  auto *l = new cublasLtMatrixLayoutOpaque_t{};
  *reinterpret_cast<Layout *>(l) = Layout{type, rows, cols, ld};
  *layout = l;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t
cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout,
                                 cublasLtMatrixLayoutAttribute_t a,
                                 const void *value, size_t) {
  auto *l = reinterpret_cast<Layout *>(layout);
  if (a == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT)
    std::memcpy(&l->batch, value, sizeof(l->batch));
  else if (a == CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET)
    std::memcpy(&l->batchStride, value, sizeof(l->batchStride));
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  delete layout;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t
cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *preference) {
  *preference = new cublasLtMatmulPreferenceOpaque_t{};
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t
cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t,
                                     cublasLtMatmulPreferenceAttributes_t,
                                     const void *, size_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t
cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t preference) {
  delete preference;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
    cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
    cublasLtMatmulPreference_t, int, cublasLtMatmulHeuristicResult_t *result,
    int *count) {
  std::memset(result, 0, sizeof(*result));
  *count = 1;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t desc,
                              const void *alpha, const void *a,
                              cublasLtMatrixLayout_t aLayout, const void *b,
                              cublasLtMatrixLayout_t bLayout, const void *beta,
                              const void *c, cublasLtMatrixLayout_t cLayout,
                              void *d, cublasLtMatrixLayout_t dLayout,
                              const cublasLtMatmulAlgo_t *, void *, size_t,
                              cudaStream_t) {
  const Desc &op = *reinterpret_cast<Desc *>(desc);
  const Layout &la = *reinterpret_cast<Layout *>(aLayout);
  const Layout &lb = *reinterpret_cast<Layout *>(bLayout);
  const Layout &lc = *reinterpret_cast<Layout *>(cLayout);
  const Layout &ld = *reinterpret_cast<Layout *>(dLayout);
  bool ta = op.transA == CUBLAS_OP_T, tb = op.transB == CUBLAS_OP_T;
  uint64_t m = ta ? la.cols : la.rows, k = ta ? la.rows : la.cols;
  uint64_t kb = tb ? lb.cols : lb.rows, n = tb ? lb.rows : lb.cols;
  if (k != kb || lc.rows != m || lc.cols != n || la.batch != lb.batch ||
      la.batch != lc.batch || c != d || ld.ld != lc.ld)
    return CUBLAS_STATUS_INVALID_VALUE;
  ++counts.gemms;
  a = shadow(a);
  b = shadow(b);
  d = shadow(d);
  float alphaValue = *static_cast<const float *>(alpha);
  float betaValue = *static_cast<const float *>(beta);
  for (int64_t bi = 0; bi < la.batch; ++bi)
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (uint64_t p = 0; p < k; ++p)
          sum += element(a, la, ta, bi, i, p) * element(b, lb, tb, bi, p, j);
        float *out =
            static_cast<float *>(d) + bi * lc.batchStride + i + j * lc.ld;
        *out = alphaValue * sum + betaValue * *out;
      }
  return CUBLAS_STATUS_SUCCESS;
}
} // extern "C"
