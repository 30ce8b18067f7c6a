//===- gemm.cpp - the GEMMs compiled steps call (OpenBLAS sgemm) ----------===//
//
// amp-contractions-to-runtime-calls turns buffer matmuls into calls of
//   _mlir_ciface_amp_rt_[batch_]matmul_{f32,f16,bf16}(A, B, C)
// with fully dynamic strided memref descriptors: C += A x B, accumulated in
// f32. f16/bf16 inputs are widened to f32 first; their products are exact
// in f32, so the result is "low-precision inputs, f32 accumulation".
//
//===----------------------------------------------------------------------===//

#include "amprt.h"
#include "strided_memref.h"

#include <cblas.h>

#include <cstdint>
#include <vector>

// The entry points of amprt_gemm.def, declared from the list: a definition
// below with another signature does not compile (test/Runtime checks that
// each one is exported).
extern "C" {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK)                             \
  void _mlir_ciface_amp_rt_##NAME(StridedMemRef<C_TYPE, RANK> *a,              \
                                  StridedMemRef<C_TYPE, RANK> *b,              \
                                  StridedMemRef<float, RANK> *c);
#include "amprt_gemm.def"
}

namespace {

float widen(float value) { return value; }

/// Copies a strided rows x cols matrix into a dense row-major f32 buffer.
template <typename T, typename Widen>
void gather(const T *base, int64_t rows, int64_t cols, int64_t rowStride,
            int64_t colStride, float *out, Widen widenFn) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      out[i * cols + j] = widenFn(base[i * rowStride + j * colStride]);
}

/// C[m x n] += A[m x k] * B[k x n] for one batch, any strides.
template <typename T, typename Widen>
void matmul(const T *a, const int64_t *aStrides, const T *b,
            const int64_t *bStrides, float *c, const int64_t *cStrides,
            int64_t m, int64_t n, int64_t k, Widen widenFn,
            std::vector<float> &scratch) {
  if (m == 0 || n == 0)
    return;
  scratch.resize(static_cast<size_t>(m * k + k * n));
  float *denseA = scratch.data();
  float *denseB = denseA + m * k;
  gather(a, m, k, aStrides[0], aStrides[1], denseA, widenFn);
  gather(b, k, n, bStrides[0], bStrides[1], denseB, widenFn);
  if (cStrides[1] == 1 && cStrides[0] >= n) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m),
                static_cast<int>(n), static_cast<int>(k), 1.0f, denseA,
                static_cast<int>(k), denseB, static_cast<int>(n), 1.0f, c,
                static_cast<int>(cStrides[0]));
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int64_t p = 0; p < k; ++p)
        sum += denseA[i * k + p] * denseB[p * n + j];
      c[i * cStrides[0] + j * cStrides[1]] += sum;
    }
}

template <typename T, typename Widen>
void batchMatmul(StridedMemRef<T, 3> *a, StridedMemRef<T, 3> *b,
                 StridedMemRef<float, 3> *c, Widen widenFn) {
  std::vector<float> scratch;
  int64_t batches = c->sizes[0], m = c->sizes[1], n = c->sizes[2],
          k = a->sizes[2];
  for (int64_t batch = 0; batch < batches; ++batch)
    matmul(a->aligned + a->offset + batch * a->strides[0], a->strides + 1,
           b->aligned + b->offset + batch * b->strides[0], b->strides + 1,
           c->aligned + c->offset + batch * c->strides[0], c->strides + 1, m, n,
           k, widenFn, scratch);
}

template <typename T, typename Widen>
void plainMatmul(StridedMemRef<T, 2> *a, StridedMemRef<T, 2> *b,
                 StridedMemRef<float, 2> *c, Widen widenFn) {
  std::vector<float> scratch;
  matmul(a->aligned + a->offset, a->strides, b->aligned + b->offset, b->strides,
         c->aligned + c->offset, c->strides, c->sizes[0], c->sizes[1],
         a->sizes[1], widenFn, scratch);
}

} // namespace

extern "C" {

void _mlir_ciface_amp_rt_batch_matmul_f32(StridedMemRef<float, 3> *a,
                                          StridedMemRef<float, 3> *b,
                                          StridedMemRef<float, 3> *c) {
  batchMatmul(a, b, c, widen);
}
void _mlir_ciface_amp_rt_batch_matmul_f16(StridedMemRef<uint16_t, 3> *a,
                                          StridedMemRef<uint16_t, 3> *b,
                                          StridedMemRef<float, 3> *c) {
  batchMatmul(a, b, c, amprt_f16_to_f32);
}
void _mlir_ciface_amp_rt_batch_matmul_bf16(StridedMemRef<uint16_t, 3> *a,
                                           StridedMemRef<uint16_t, 3> *b,
                                           StridedMemRef<float, 3> *c) {
  batchMatmul(a, b, c, amprt_bf16_to_f32);
}
void _mlir_ciface_amp_rt_matmul_f32(StridedMemRef<float, 2> *a,
                                    StridedMemRef<float, 2> *b,
                                    StridedMemRef<float, 2> *c) {
  plainMatmul(a, b, c, widen);
}
void _mlir_ciface_amp_rt_matmul_f16(StridedMemRef<uint16_t, 2> *a,
                                    StridedMemRef<uint16_t, 2> *b,
                                    StridedMemRef<float, 2> *c) {
  plainMatmul(a, b, c, amprt_f16_to_f32);
}
void _mlir_ciface_amp_rt_matmul_bf16(StridedMemRef<uint16_t, 2> *a,
                                     StridedMemRef<uint16_t, 2> *b,
                                     StridedMemRef<float, 2> *c) {
  plainMatmul(a, b, c, amprt_bf16_to_f32);
}

} // extern "C"
