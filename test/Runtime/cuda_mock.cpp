//===- cuda_mock.cpp - the driver API and cuBLASLt, simulated on the CPU --===//
//
// Just enough of libcuda and libcublasLt for libamprt_cuda's host logic to
// run without a GPU: memory is malloc, streams and contexts are tokens,
// modules are counted, and cublasLtMatmul computes its column-major
// D = alpha op(A) op(B) + beta C on the CPU from the layouts and
// attributes it was given. It checks what libamprt_cuda asks of cuBLASLt
// (layouts, transposes, batching), not cuBLASLt itself.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"

#include <cublasLt.h>
#include <cuda.h>

#include <cstdlib>
#include <cstring>

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
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  *pointer = reinterpret_cast<CUdeviceptr>(std::malloc(bytes));
  return CUDA_SUCCESS;
}
CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned) {
  return cuMemAlloc(pointer, bytes);
}
CUresult cuMemFree(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void *>(pointer));
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadData(CUmodule *module, const void *) {
  *module = reinterpret_cast<CUmodule>(static_cast<intptr_t>(++modules));
  return CUDA_SUCCESS;
}
// Kernels cannot run here: what launches or copies on a device says so.
CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, CUstream, void **,
                        void **) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuEventCreate(CUevent *, unsigned) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuEventDestroy(CUevent) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuEventRecord(CUevent, CUstream) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuMemcpyAsync(CUdeviceptr, CUdeviceptr, size_t, CUstream) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuMemsetD32Async(CUdeviceptr, unsigned, size_t, CUstream) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuMemsetD16Async(CUdeviceptr, unsigned short, size_t, CUstream) {
  return CUDA_ERROR_NOT_SUPPORTED;
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
