//===- cublaslt_mock.cpp - cuBLASLt, simulated on the CPU -----------------===//
//
// Built as a libcublasLt.so.13 (lib/cuda-mock/) that the mock
// libamprt_cuda depends on, so the runtime's dlopen("libcublasLt.so.13")
// finds it among the loaded libraries. cublasLtMatmul computes its
// column-major D = alpha op(A) op(B) + beta C from the layouts and
// attributes it was given, on the driver mock's shadows of device memory:
// it checks what libamprt_cuda asks of cuBLASLt, not cuBLASLt itself.
// As cuBLASLt, an algorithm is chosen for the operand alignments the
// preference promises (256 bytes unless told), and a GEMM whose pointers
// are less aligned than its algorithm assumes fails.
// $AMPRT_MOCK_CUBLASLT_NO_ALGORITHM makes every heuristic query find none.
//
//===----------------------------------------------------------------------===//

#include "cuda_mock.h"

#include "amprt.h"

#include <cublasLt.h>

#include <cstdint>
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

/// The minimum alignments of A, B, C and D, in bytes: what a preference
/// promises and what an algorithm chosen under it assumes.
struct Alignments {
  uint32_t bytes[4] = {256, 256, 256, 256};
};
static_assert(sizeof(Alignments) <= sizeof(cublasLtMatmulPreferenceOpaque_t),
              "");
static_assert(sizeof(Alignments) <= sizeof(cublasLtMatmulAlgo_t), "");

bool alignedTo(const void *pointer, uint32_t bytes) {
  return reinterpret_cast<uintptr_t>(pointer) % bytes == 0;
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

/// Stores `value` as `type`, rounded to nearest even as cuBLASLt's output
/// conversion does.
void store(void *base, cudaDataType type, int64_t index, float value) {
  switch (type) {
  case CUDA_R_32F:
    static_cast<float *>(base)[index] = value;
    return;
  case CUDA_R_16F:
    static_cast<uint16_t *>(base)[index] = amprt_f32_to_f16(value);
    return;
  case CUDA_R_16BF:
    static_cast<uint16_t *>(base)[index] = amprt_f32_to_bf16(value);
    return;
  default:
    std::abort();
  }
}

/// Element (i, j) of op(X) for a column-major layout.
float element(const void *base, const Layout &l, bool transposed, int64_t b,
              int64_t i, int64_t j) {
  int64_t r = transposed ? j : i, c = transposed ? i : j;
  const char *batchBase =
      static_cast<const char *>(base) + b * l.batchStride * elementSize(l.type);
  return load(batchBase, l.type, r + c * l.ld);
}
} // namespace

extern "C" {
cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle) {
  *handle = reinterpret_cast<cublasLtHandle_t>(0x3);
  return CUBLAS_STATUS_SUCCESS;
}
size_t cublasLtGetVersion(void) { return 130000; }
const char *cublasLtGetStatusString(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  default:
    return "CUBLAS_STATUS_(other)";
  }
}
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
cublasStatus_t
cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *preference) {
  *preference = new cublasLtMatmulPreferenceOpaque_t{};
  *reinterpret_cast<Alignments *>(*preference) = Alignments{};
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t
cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t preference,
                                     cublasLtMatmulPreferenceAttributes_t a,
                                     const void *value, size_t size) {
  auto &alignments = *reinterpret_cast<Alignments *>(preference);
  int operand = a == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES   ? 0
                : a == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES ? 1
                : a == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES ? 2
                : a == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES ? 3
                                                                  : -1;
  if (operand < 0)
    return CUBLAS_STATUS_SUCCESS;
  uint32_t bytes;
  if (size != sizeof(bytes))
    return CUBLAS_STATUS_INVALID_VALUE; // as cuBLASLt: a uint32_t
  std::memcpy(&bytes, value, sizeof(bytes));
  alignments.bytes[operand] = bytes;
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
    cublasLtMatmulPreference_t preference, int,
    cublasLtMatmulHeuristicResult_t *result, int *count) {
  ++amprt_mock_counters().heuristics;
  std::memset(result, 0, sizeof(*result));
  if (std::getenv("AMPRT_MOCK_CUBLASLT_NO_ALGORITHM")) {
    *count = 0;
    return CUBLAS_STATUS_NOT_SUPPORTED; // what cuBLASLt returns then
  }
  // The algorithm assumes what the preference promised.
  std::memcpy(&result->algo, preference, sizeof(Alignments));
  *count = 1;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t desc,
                              const void *alpha, const void *a,
                              cublasLtMatrixLayout_t aLayout, const void *b,
                              cublasLtMatrixLayout_t bLayout, const void *beta,
                              const void *c, cublasLtMatrixLayout_t cLayout,
                              void *d, cublasLtMatrixLayout_t dLayout,
                              const cublasLtMatmulAlgo_t *algo, void *, size_t,
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
      la.batch != lc.batch || c != d || ld.ld != lc.ld || ld.type != lc.type)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (!algo)
    return CUBLAS_STATUS_INVALID_VALUE; // the runtime always passes one
  // On a GPU, an operand less aligned than the algorithm assumes is a
  // misaligned-address fault or an error.
  Alignments assumed;
  std::memcpy(&assumed, algo, sizeof(assumed));
  if (!alignedTo(a, assumed.bytes[0]) || !alignedTo(b, assumed.bytes[1]) ||
      !alignedTo(c, assumed.bytes[2]) || !alignedTo(d, assumed.bytes[3]))
    return CUBLAS_STATUS_INVALID_VALUE;
  a = amprt_mock_shadow(a);
  b = amprt_mock_shadow(b);
  d = amprt_mock_shadow(d);
  float alphaValue = *static_cast<const float *>(alpha);
  float betaValue = *static_cast<const float *>(beta);
  // Values, not the descriptors: a graph replays the GEMM as captured.
  Layout ca = la, cb = lb, cc = lc;
  auto gemm = [=] {
    for (int64_t bi = 0; bi < ca.batch; ++bi)
      for (uint64_t i = 0; i < m; ++i)
        for (uint64_t j = 0; j < n; ++j) {
          float sum = 0;
          for (uint64_t p = 0; p < k; ++p)
            sum +=
                element(a, ca, ta, bi, i, p) * element(b, cb, tb, bi, p, j);
          // D in C's type: f32, or f16/bf16 rounded once from the sum.
          int64_t out = bi * cc.batchStride + i + j * cc.ld;
          // As cuBLAS: with beta 0, C is not read (NaN in it stays out).
          store(d, cc.type, out,
                betaValue == 0
                    ? alphaValue * sum
                    : alphaValue * sum + betaValue * load(d, cc.type, out));
        }
  };
  // Recorded into a graph, a GEMM is not counted again when replayed.
  if (!amprt_mock_record(gemm)) {
    ++amprt_mock_counters().gemms;
    gemm();
  }
  return CUBLAS_STATUS_SUCCESS;
}
} // extern "C"
