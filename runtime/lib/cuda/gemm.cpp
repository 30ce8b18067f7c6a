//===- gemm.cpp - the GEMMs of CUDA artifacts (cuBLASLt) ------------------===//
//
// amp-contractions-to-runtime-calls{prefix=amp_rt_cuda} turns buffer
// matmuls into calls of
//   _mlir_ciface_amp_rt_cuda_[batch_]matmul_{f32,f16,bf16}(A, B, C)
// with fully dynamic strided memrefs in managed memory: C += A x B with
// f32 C and f32 accumulation (CUBLAS_COMPUTE_32F: no TF32, so the f32
// path matches the CPU's sgemm up to summation order).
//
// cuBLASLt is column-major and our memrefs are row-major, so the call
// computes C^T = B^T A^T: a row-major matrix read column-major is its
// transpose. An operand whose rows are not contiguous but whose columns
// are is read transposed instead; any other layout is first gathered into
// a dense copy (managed memory is host-readable once the stream is idle).
// The GEMM is queued on the stream and not waited for (the declaration
// the compiler emits is marked amp.stream_ordered).
//
//===----------------------------------------------------------------------===//

#include "device.h"

#include "amprt_cuda.h"
#include "strided_memref.h"

#include <cublasLt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace amprt::cuda;

// The entry points of amprt_gemm.def, declared from the list: a definition
// below with another signature does not compile (test/Runtime checks that
// each one is exported).
extern "C" {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK)                             \
  void _mlir_ciface_amp_rt_cuda_##NAME(StridedMemRef<C_TYPE, RANK> *a,         \
                                       StridedMemRef<C_TYPE, RANK> *b,         \
                                       StridedMemRef<float, RANK> *c);
#include "amprt_gemm.def"
}

namespace {

void checkBlas(cublasStatus_t status, const char *what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return;
  std::fprintf(stderr, "amprt_cuda: %s failed: %s\n", what,
               cublasLtGetStatusString(status));
  std::abort();
}

constexpr size_t kWorkspaceBytes = 32u << 20;

struct Blas {
  cublasLtHandle_t handle = nullptr;
  void *workspace = nullptr;
};

Blas &blas() {
  static Blas instance;
  static std::once_flag created;
  std::call_once(created, [] {
    makeContextCurrent();
    checkBlas(cublasLtCreate(&instance.handle), "cublasLtCreate");
    CUdeviceptr workspace;
    check(cuMemAlloc(&workspace, kWorkspaceBytes), "cuMemAlloc (workspace)");
    instance.workspace = reinterpret_cast<void *>(workspace);
  });
  return instance;
}

/// One operand as cuBLASLt reads it: column-major rows x cols with a
/// leading dimension, possibly transposed, batched with a stride.
struct Operand {
  const void *data;
  uint64_t rows, cols;
  int64_t ld;
  bool transposed;
  int64_t batchStride;
};

/// The memref's matrix X (r x c, row-major strides s0, s1) as the
/// column-major operand whose op gives X^T; false when neither its rows
/// nor its columns are contiguous.
bool asTransposedOperand(const void *base, int64_t r, int64_t c, int64_t s0,
                         int64_t s1, int64_t batchStride, Operand &out) {
  if (s1 == 1 || c == 1) { // rows contiguous: column-major c x r is X^T
    out = {base,  uint64_t(c), uint64_t(r), std::max<int64_t>({s0, c, 1}),
           false, batchStride};
    return true;
  }
  if (s0 == 1 || r == 1) { // columns contiguous: column-major r x c is X
    out = {base, uint64_t(r), uint64_t(c), std::max<int64_t>({s1, r, 1}),
           true, batchStride};
    return true;
  }
  return false;
}

/// A dense row-major copy of a strided batch x rows x cols tensor.
template <typename T>
T *gatherDense(const T *base, int64_t batch, int64_t rows, int64_t cols,
               const int64_t *strides) {
  check(cuStreamSynchronize(stream()), "cuStreamSynchronize");
  auto *dense =
      static_cast<T *>(amprt_cuda_alloc(sizeof(T) * batch * rows * cols));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        dense[(b * rows + i) * cols + j] =
            base[b * strides[0] + i * strides[1] + j * strides[2]];
  return dense;
}

cublasLtMatrixLayout_t layout(cudaDataType type, const Operand &op,
                              int64_t batch) {
  cublasLtMatrixLayout_t result;
  checkBlas(cublasLtMatrixLayoutCreate(&result, type, op.rows, op.cols, op.ld),
            "cublasLtMatrixLayoutCreate");
  if (batch > 1) {
    int32_t count = static_cast<int32_t>(batch);
    checkBlas(
        cublasLtMatrixLayoutSetAttribute(
            result, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)),
        "cublasLtMatrixLayoutSetAttribute");
    checkBlas(cublasLtMatrixLayoutSetAttribute(
                  result, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                  &op.batchStride, sizeof(op.batchStride)),
              "cublasLtMatrixLayoutSetAttribute");
  }
  return result;
}

/// C[batch, m, n] += A[batch, m, k] x B[batch, k, n] (strides per memref).
template <typename T>
void batchMatmul(StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b,
                 StridedMemRef<float, 3> *c, cudaDataType inputType) {
  int64_t batch = c->sizes[0], m = c->sizes[1], n = c->sizes[2];
  int64_t k = a->sizes[2];
  if (batch == 0 || m == 0 || n == 0)
    return;
  const T *aBase = a->aligned + a->offset, *bBase = b->aligned + b->offset;
  float *cBase = c->aligned + c->offset;
  T *aDense = nullptr, *bDense = nullptr;
  float *cDense = nullptr;

  // cuBLASLt's "A" is B^T (n x k) and its "B" is A^T (k x m).
  Operand lhs, rhs;
  if (!asTransposedOperand(bBase, k, n, b->strides[1], b->strides[2],
                           b->strides[0], lhs)) {
    bDense = gatherDense(bBase, batch, k, n, b->strides);
    asTransposedOperand(bDense, k, n, n, 1, k * n, lhs);
  }
  if (!asTransposedOperand(aBase, m, k, a->strides[1], a->strides[2],
                           a->strides[0], rhs)) {
    aDense = gatherDense(aBase, batch, m, k, a->strides);
    asTransposedOperand(aDense, m, k, k, 1, m * k, rhs);
  }
  // C^T is written in place when C's rows are contiguous.
  Operand out;
  bool cInPlace = c->strides[2] == 1 || n == 1;
  if (cInPlace) {
    out = {cBase,       uint64_t(n),
           uint64_t(m), std::max<int64_t>({c->strides[1], n, 1}),
           false,       c->strides[0]};
  } else {
    cDense = gatherDense(cBase, batch, m, n, c->strides);
    out = {cDense, uint64_t(n), uint64_t(m), n, false, m * n};
  }

  Blas &lt = blas();
  cublasLtMatmulDesc_t desc;
  checkBlas(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
            "cublasLtMatmulDescCreate");
  cublasOperation_t transA = lhs.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t transB = rhs.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  checkBlas(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                           &transA, sizeof(transA)),
            "cublasLtMatmulDescSetAttribute");
  checkBlas(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                           &transB, sizeof(transB)),
            "cublasLtMatmulDescSetAttribute");
  cublasLtMatrixLayout_t lhsLayout = layout(inputType, lhs, batch);
  cublasLtMatrixLayout_t rhsLayout = layout(inputType, rhs, batch);
  cublasLtMatrixLayout_t outLayout = layout(CUDA_R_32F, out, batch);

  cublasLtMatmulPreference_t preference;
  checkBlas(cublasLtMatmulPreferenceCreate(&preference),
            "cublasLtMatmulPreferenceCreate");
  checkBlas(cublasLtMatmulPreferenceSetAttribute(
                preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                &kWorkspaceBytes, sizeof(kWorkspaceBytes)),
            "cublasLtMatmulPreferenceSetAttribute");
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  checkBlas(cublasLtMatmulAlgoGetHeuristic(lt.handle, desc, lhsLayout,
                                           rhsLayout, outLayout, outLayout,
                                           preference, 1, &heuristic, &found),
            "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) {
    std::fprintf(stderr,
                 "amprt_cuda: cuBLASLt has no algorithm for a %lldx%lldx%lld "
                 "GEMM (batch %lld)\n",
                 (long long)m, (long long)n, (long long)k, (long long)batch);
    std::abort();
  }
  float alpha = 1.0f, beta = 1.0f; // accumulate, as linalg.matmul does
  checkBlas(cublasLtMatmul(lt.handle, desc, &alpha, lhs.data, lhsLayout,
                           rhs.data, rhsLayout, &beta, out.data, outLayout,
                           const_cast<void *>(out.data), outLayout,
                           &heuristic.algo, lt.workspace, kWorkspaceBytes,
                           stream()),
            "cublasLtMatmul");
  // The GEMM is queued, not waited for: the compiled step waits for its
  // stream before host code touches C (amp-async-gpu-work).

  cublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatrixLayoutDestroy(lhsLayout);
  cublasLtMatrixLayoutDestroy(rhsLayout);
  cublasLtMatrixLayoutDestroy(outLayout);
  cublasLtMatmulDescDestroy(desc);
  if (cDense) {
    // C is scattered back by the host.
    check(cuStreamSynchronize(stream()), "cuStreamSynchronize");
    for (int64_t bi = 0; bi < batch; ++bi)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          cBase[bi * c->strides[0] + i * c->strides[1] + j * c->strides[2]] =
              cDense[(bi * m + i) * n + j];
  }
  amprt_cuda_free(aDense);
  amprt_cuda_free(bDense);
  amprt_cuda_free(cDense);
}

/// A 2-D memref as a batch of one.
template <typename T>
StridedMemRef<T, 3> asBatch(const StridedMemRef<T, 2> *x) {
  return {x->allocated,
          x->aligned,
          x->offset,
          {1, x->sizes[0], x->sizes[1]},
          {x->sizes[0] * x->strides[0], x->strides[0], x->strides[1]}};
}

template <typename T>
void plainMatmul(StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b,
                 StridedMemRef<float, 2> *c, cudaDataType inputType) {
  StridedMemRef<T, 3> a3 = asBatch(a), b3 = asBatch(b);
  StridedMemRef<float, 3> c3 = asBatch(c);
  batchMatmul(&a3, &b3, &c3, inputType);
}

} // namespace

extern "C" {

void _mlir_ciface_amp_rt_cuda_batch_matmul_f32(StridedMemRef<float, 3> *a,
                                               StridedMemRef<float, 3> *b,
                                               StridedMemRef<float, 3> *c) {
  batchMatmul(a, b, c, CUDA_R_32F);
}
void _mlir_ciface_amp_rt_cuda_batch_matmul_f16(StridedMemRef<uint16_t, 3> *a,
                                               StridedMemRef<uint16_t, 3> *b,
                                               StridedMemRef<float, 3> *c) {
  batchMatmul(a, b, c, CUDA_R_16F);
}
void _mlir_ciface_amp_rt_cuda_batch_matmul_bf16(StridedMemRef<uint16_t, 3> *a,
                                                StridedMemRef<uint16_t, 3> *b,
                                                StridedMemRef<float, 3> *c) {
  batchMatmul(a, b, c, CUDA_R_16BF);
}
void _mlir_ciface_amp_rt_cuda_matmul_f32(StridedMemRef<float, 2> *a,
                                         StridedMemRef<float, 2> *b,
                                         StridedMemRef<float, 2> *c) {
  plainMatmul(a, b, c, CUDA_R_32F);
}
void _mlir_ciface_amp_rt_cuda_matmul_f16(StridedMemRef<uint16_t, 2> *a,
                                         StridedMemRef<uint16_t, 2> *b,
                                         StridedMemRef<float, 2> *c) {
  plainMatmul(a, b, c, CUDA_R_16F);
}
void _mlir_ciface_amp_rt_cuda_matmul_bf16(StridedMemRef<uint16_t, 2> *a,
                                          StridedMemRef<uint16_t, 2> *b,
                                          StridedMemRef<float, 2> *c) {
  plainMatmul(a, b, c, CUDA_R_16BF);
}

} // extern "C"
