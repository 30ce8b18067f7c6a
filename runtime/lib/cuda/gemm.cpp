//===- gemm.cpp - the GEMMs of CUDA artifacts (cuBLASLt) ------------------===//
//
// amp-contractions-to-runtime-calls{prefix=amp_rt_cuda} turns buffer
// matmuls into calls of
//   _mlir_ciface_amp_rt_cuda_[batch_]matmul[_overwrite]_{f32,f16,bf16}(A, B, C)
// with fully dynamic strided memrefs in device memory: C += A x B (beta 1),
// or C = A x B for the _overwrite ones (beta 0: C is not read), with
// f32 C and f32 accumulation (CUBLAS_COMPUTE_32F: no TF32, so the f32
// path matches the CPU's sgemm up to summation order).
//
// cuBLASLt is column-major and our memrefs are row-major, so the call
// computes C^T = B^T A^T: a row-major matrix read column-major is its
// transpose. An operand whose rows are not contiguous but whose columns
// are is read transposed instead; any other layout is first gathered into
// a dense copy, through the host (slow, and rare: neither contiguous).
// The GEMM is queued on the stream and not waited for (the declaration
// the compiler emits is marked amp.stream_ordered). Descriptors and the
// algorithm are chosen once per shape, layout and operand alignment (a
// Plan), not per call.
//
//===----------------------------------------------------------------------===//

#include "cublaslt.h"
#include "device.h"

#include "amprt_cuda.h"
#include "strided_memref.h"

#include <algorithm>
#include <array>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace amprt::cuda;

// The entry points of amprt_gemm.def, declared from the list: a definition
// below with another signature does not compile (test/Runtime checks that
// each one is exported).
extern "C" {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, OUTPUT_TYPE,    \
                   OUTPUT_C_TYPE)                                              \
  void _mlir_ciface_amp_rt_cuda_##NAME(StridedMemRef<C_TYPE, RANK> *a,         \
                                       StridedMemRef<C_TYPE, RANK> *b,         \
                                       StridedMemRef<OUTPUT_C_TYPE, RANK> *c);
#include "amprt_gemm.def"
}

namespace {

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
    checkBlas(cublasLt().create(&instance.handle), "cublasLtCreate");
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

/// How many elements from `base` a strided batch x rows x cols view reaches.
int64_t spanOf(int64_t batch, int64_t rows, int64_t cols,
               const int64_t *strides) {
  return (batch - 1) * strides[0] + (rows - 1) * strides[1] +
         (cols - 1) * strides[2] + 1;
}

/// `count` elements of device memory at `device`, once the stream is idle.
template <typename T>
std::vector<T> readDevice(const T *device, int64_t count) {
  std::vector<T> host(count);
  copyToHost(host.data(), device, sizeof(T) * count);
  synchronize();
  return host;
}

/// A dense row-major device copy of a strided batch x rows x cols tensor,
/// gathered on the host (device memory is not host-readable): a rare
/// layout, neither rows nor columns contiguous.
template <typename T>
T *gatherDense(const T *base, int64_t batch, int64_t rows, int64_t cols,
               const int64_t *strides) {
  std::vector<T> span = readDevice(base, spanOf(batch, rows, cols, strides));
  std::vector<T> dense(batch * rows * cols);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        dense[(b * rows + i) * cols + j] =
            span[b * strides[0] + i * strides[1] + j * strides[2]];
  auto *device = static_cast<T *>(amprt_cuda_alloc(sizeof(T) * dense.size()));
  copyToDevice(device, dense.data(), sizeof(T) * dense.size());
  synchronize(); // `dense` goes away
  return device;
}

/// Writes dense row-major `dense` back into the strided view at `base`.
template <typename T>
void scatterDense(const T *dense, T *base, int64_t batch, int64_t rows,
                  int64_t cols, const int64_t *strides) {
  int64_t count = spanOf(batch, rows, cols, strides);
  std::vector<T> span = readDevice(base, count);
  std::vector<T> values = readDevice(dense, batch * rows * cols);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        span[b * strides[0] + i * strides[1] + j * strides[2]] =
            values[(b * rows + i) * cols + j];
  copyToDevice(base, span.data(), sizeof(T) * count);
  synchronize();
}

size_t elementBytes(cudaDataType type) { return type == CUDA_R_32F ? 4 : 2; }

/// The alignment in bytes that cuBLASLt may assume for every matrix of an
/// operand: the largest power of two, at most 256 (what cuBLASLt assumes
/// unless told), dividing its address and, when batched, its batch stride.
/// Views such as the transformer's q/k/v slices are only 64- or 128-byte
/// aligned; an algorithm chosen for 256 may fail or fault on them.
uint32_t alignment(const Operand &op, cudaDataType type, int64_t batch) {
  uint64_t bits = reinterpret_cast<uintptr_t>(op.data) | 256u;
  if (batch > 1)
    bits |= static_cast<uint64_t>(op.batchStride) * elementBytes(type);
  return static_cast<uint32_t>(bits & (~bits + 1));
}

/// What a GEMM's descriptors and algorithm depend on: the input and output
/// types, the batch, and each operand's shape, leading dimension,
/// transpose, batch stride and alignment.
using PlanKey = std::array<int64_t, 20>;

/// The cuBLASLt descriptors and the algorithm for one PlanKey: made and
/// chosen (one heuristic query) on the first GEMM of that key, reused by
/// every later one; kept for the life of the process.
struct Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t lhs = nullptr, rhs = nullptr, out = nullptr;
  cublasLtMatmulAlgo_t algo;
};

cublasLtMatrixLayout_t layout(cudaDataType type, const Operand &op,
                              int64_t batch) {
  const CublasLtApi &lt = cublasLt();
  cublasLtMatrixLayout_t result;
  checkBlas(lt.layoutCreate(&result, type, op.rows, op.cols, op.ld),
            "cublasLtMatrixLayoutCreate");
  if (batch > 1) {
    int32_t count = static_cast<int32_t>(batch);
    checkBlas(lt.layoutSetAttribute(result, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                    &count, sizeof(count)),
              "cublasLtMatrixLayoutSetAttribute");
    checkBlas(
        lt.layoutSetAttribute(result,
                              CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                              &op.batchStride, sizeof(op.batchStride)),
        "cublasLtMatrixLayoutSetAttribute");
  }
  return result;
}

const char *typeName(cudaDataType type) {
  return type == CUDA_R_32F ? "f32" : type == CUDA_R_16F ? "f16" : "bf16";
}

/// The plan for D = op(lhs) op(rhs) (+ D) (cuBLASLt's A, B and C = D, of
/// `outputType`: f32, or the inputs' type, rounded once from the f32 sum).
const Plan &planFor(cudaDataType inputType, cudaDataType outputType,
                    int64_t batch, const Operand &lhs, const Operand &rhs,
                    const Operand &out) {
  uint32_t lhsAlign = alignment(lhs, inputType, batch);
  uint32_t rhsAlign = alignment(rhs, inputType, batch);
  uint32_t outAlign = alignment(out, outputType, batch);
  PlanKey key = {inputType,       outputType,     batch, int64_t(lhs.rows),
                 int64_t(lhs.cols), lhs.ld,       lhs.transposed,
                 lhs.batchStride, lhsAlign,       int64_t(rhs.rows),
                 int64_t(rhs.cols), rhs.ld,       rhs.transposed,
                 rhs.batchStride, rhsAlign,       int64_t(out.rows),
                 int64_t(out.cols), out.ld,       out.batchStride,
                 outAlign};
  static std::mutex mutex;
  static std::map<PlanKey, Plan> plans;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = plans.try_emplace(key);
  Plan &plan = it->second;
  if (!inserted)
    return plan;

  const CublasLtApi &lt = cublasLt();
  checkBlas(lt.descCreate(&plan.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
            "cublasLtMatmulDescCreate");
  cublasOperation_t transA = lhs.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t transB = rhs.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  checkBlas(lt.descSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                &transA, sizeof(transA)),
            "cublasLtMatmulDescSetAttribute");
  checkBlas(lt.descSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                &transB, sizeof(transB)),
            "cublasLtMatmulDescSetAttribute");
  plan.lhs = layout(inputType, lhs, batch);
  plan.rhs = layout(inputType, rhs, batch);
  plan.out = layout(outputType, out, batch);

  cublasLtMatmulPreference_t preference;
  checkBlas(lt.preferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
  auto prefer = [&](cublasLtMatmulPreferenceAttributes_t attribute,
                    const auto &value) {
    checkBlas(
        lt.preferenceSetAttribute(preference, attribute, &value, sizeof(value)),
        "cublasLtMatmulPreferenceSetAttribute");
  };
  prefer(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, kWorkspaceBytes);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, lhsAlign);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, rhsAlign);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, outAlign);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, outAlign);
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  cublasStatus_t status = lt.algoGetHeuristic(
      blas().handle, plan.desc, plan.lhs, plan.rhs, plan.out, plan.out,
      preference, 1, &heuristic, &found);
  lt.preferenceDestroy(preference);
  // cuBLASLt says "not supported" when it finds no algorithm.
  if (status != CUBLAS_STATUS_NOT_SUPPORTED)
    checkBlas(status, "cublasLtMatmulAlgoGetHeuristic");
  if (status == CUBLAS_STATUS_NOT_SUPPORTED || found == 0) {
    // In the row-major terms of the compiled step: C[m, n] += A[m, k] B[k, n].
    std::fprintf(
        stderr,
        "amprt_cuda: cuBLASLt (%s) has no algorithm for a %s GEMM into %s "
        "C[%llu x %llu] += A[%llu x %llu] B[%llu x %llu], batch %lld (A %s, "
        "B %s; leading dimensions A %lld, B %lld, C %lld; alignment A %u, "
        "B %u, C %u bytes)\n",
        lt.path.c_str(), typeName(inputType), typeName(outputType),
        (unsigned long long)out.cols,
        (unsigned long long)out.rows,
        (unsigned long long)(rhs.transposed ? rhs.rows : rhs.cols),
        (unsigned long long)(rhs.transposed ? rhs.cols : rhs.rows),
        (unsigned long long)(lhs.transposed ? lhs.rows : lhs.cols),
        (unsigned long long)(lhs.transposed ? lhs.cols : lhs.rows),
        (long long)batch, rhs.transposed ? "column-major" : "row-major",
        lhs.transposed ? "column-major" : "row-major", (long long)rhs.ld,
        (long long)lhs.ld, (long long)out.ld, rhsAlign, lhsAlign, outAlign);
    std::abort();
  }
  plan.algo = heuristic.algo;
  return plan;
}

/// C[batch, m, n] (+)= A[batch, m, k] x B[batch, k, n] (strides per
/// memref), C of `outputType` (element U).
template <typename T, typename U>
void batchMatmul(StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b,
                 StridedMemRef<U, 3> *c, cudaDataType inputType,
                 cudaDataType outputType, bool accumulate) {
  int64_t batch = c->sizes[0], m = c->sizes[1], n = c->sizes[2];
  int64_t k = a->sizes[2];
  if (batch == 0 || m == 0 || n == 0)
    return;
  const T *aBase = a->aligned + a->offset, *bBase = b->aligned + b->offset;
  U *cBase = c->aligned + c->offset;
  T *aDense = nullptr, *bDense = nullptr;
  U *cDense = nullptr;

  // cuBLASLt's "A" is B^T (n x k) and its "B" is A^T (k x m).
  Operand lhs, rhs;
  if (capturing()) {
    // A gather through the host waits for the stream, which a graph
    // cannot: the capture fails and the step runs without one.
    bool gathers = !asTransposedOperand(bBase, k, n, b->strides[1],
                                        b->strides[2], b->strides[0], lhs) ||
                   !asTransposedOperand(aBase, m, k, a->strides[1],
                                        a->strides[2], a->strides[0], rhs) ||
                   !(c->strides[2] == 1 || n == 1);
    if (gathers) {
      checkCaptured(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                    "a GEMM operand gathered through the host");
      return;
    }
  }
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

  const Plan &plan = planFor(inputType, outputType, batch, lhs, rhs, out);
  Blas &handle = blas();
  // beta 1 accumulates, as linalg.matmul does; with beta 0 cuBLASLt does
  // not read C (garbage, even NaN, in it does not matter).
  float alpha = 1.0f, beta = accumulate ? 1.0f : 0.0f;
  checkBlas(cublasLt().matmul(handle.handle, plan.desc, &alpha, lhs.data,
                              plan.lhs, rhs.data, plan.rhs, &beta, out.data,
                              plan.out, const_cast<void *>(out.data), plan.out,
                              &plan.algo, handle.workspace, kWorkspaceBytes,
                              stream()),
            "cublasLtMatmul");
  // The GEMM is queued, not waited for: the compiled step waits for its
  // stream before host code touches C (amp-async-gpu-work).
  if (cDense) // C is scattered back by the host
    scatterDense(cDense, cBase, batch, m, n, c->strides);
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

template <typename T, typename U>
void matmul(StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b,
            StridedMemRef<U, 2> *c, cudaDataType inputType,
            cudaDataType outputType, bool accumulate) {
  StridedMemRef<T, 3> a3 = asBatch(a), b3 = asBatch(b);
  StridedMemRef<U, 3> c3 = asBatch(c);
  batchMatmul(&a3, &b3, &c3, inputType, outputType, accumulate);
}
template <typename T, typename U>
void matmul(StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b,
            StridedMemRef<U, 3> *c, cudaDataType inputType,
            cudaDataType outputType, bool accumulate) {
  batchMatmul(a, b, c, inputType, outputType, accumulate);
}

constexpr cudaDataType cudaTypeOf_f32 = CUDA_R_32F;
constexpr cudaDataType cudaTypeOf_f16 = CUDA_R_16F;
constexpr cudaDataType cudaTypeOf_bf16 = CUDA_R_16BF;

} // namespace

extern "C" {

// Every entry point of amprt_gemm.def, on cuBLASLt.
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, OUTPUT_TYPE,    \
                   OUTPUT_C_TYPE)                                              \
  void _mlir_ciface_amp_rt_cuda_##NAME(StridedMemRef<C_TYPE, RANK> *a,         \
                                       StridedMemRef<C_TYPE, RANK> *b,         \
                                       StridedMemRef<OUTPUT_C_TYPE, RANK> *c) { \
    matmul(a, b, c, cudaTypeOf_##INPUT_TYPE, cudaTypeOf_##OUTPUT_TYPE,         \
           ACCUMULATE);                                                        \
  }
#include "amprt_gemm.def"

} // extern "C"
