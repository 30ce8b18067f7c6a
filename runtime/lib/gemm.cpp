//===- gemm.cpp - the GEMMs compiled steps call (oneDNN, OpenBLAS) --------===//
//
// amp-contractions-to-runtime-calls turns every contraction into a call of
//   _mlir_ciface_amp_rt_[batch_]matmul[_overwrite]_{f32,f16,bf16}(A, B, C)
// with fully dynamic strided memref descriptors: C += A x B, or C = A x B
// for the _overwrite ones (the GEMM replaces a zero fill), accumulated in
// f32; the `_overwrite_<t>_to_<t>` ones round that result once into an
// f16/bf16 C (what a cast after the GEMM would give; the CUDA path's
// GEMMs into low precision, emulated). The operands are views of the
// step's buffers: a transposed operand
// comes with swapped strides, an operand shared by every batch with a zero
// batch stride.
//
// f32 and bf16 run on oneDNN's matmul in their own precision (bf16 on the
// CPU's AVX512-BF16 dot products where it has them), reading the views in
// place. Debian's oneDNN 2.6 has no f16 matmul on the CPU, nor a bf16 one
// on CPUs without AVX-512, so those operands are widened to f32 first
// (exact). A primitive is created once per shape
// and layout and kept for the life of the process. Whatever oneDNN refuses
// runs on dense f32 copies through OpenBLAS's sgemm.
//
// The rounding GEMMs (amprt_rounding_gemm.def) take an f32 A in place of
// an f16/bf16 copy of it and round it a block of rows at a time into the
// scratch buffer the step passes.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"
#include "amprt_gemm.h" // the entry points: a definition below with another
                        // signature does not compile
#include "float_convert.h"
#include "onednn.h"

#include <cblas.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

extern "C" {
// libgomp's, the OpenMP runtime Debian's oneDNN is built with.
void omp_set_num_threads(int threads);
int omp_get_max_threads(void);
}

namespace {

using amprt::cpuEngine;
using dnnl::memory;

/// One GEMM operand as `batch` matrices of rows x cols, strides in elements.
struct Matrix {
  const void *data;
  int64_t batch, rows, cols;
  int64_t batchStride, rowStride, colStride;

  /// Whether one matrix serves every batch (a zero batch stride).
  bool broadcast() const { return batch > 1 && batchStride == 0; }
};

template <typename T, int Rank>
Matrix viewOf(StridedMemRef<T, Rank> *ref) {
  Matrix m;
  m.data = ref->aligned + ref->offset;
  m.batch = Rank == 3 ? ref->sizes[0] : 1;
  m.batchStride = Rank == 3 ? ref->strides[0] : 0;
  m.rows = ref->sizes[Rank - 2];
  m.cols = ref->sizes[Rank - 1];
  m.rowStride = ref->strides[Rank - 2];
  m.colStride = ref->strides[Rank - 1];
  // The stride of an extent-1 dimension is arbitrary in MLIR; give it the
  // dense value so that libraries recognise a plain (or transposed) layout.
  if (m.rows == 1 && m.cols == 1) {
    m.rowStride = m.colStride = 1;
  } else if (m.rows == 1) {
    m.rowStride = m.cols * m.colStride;
  } else if (m.cols == 1) {
    m.colStride = m.rows * m.rowStride;
  }
  if (m.batch == 1)
    m.batchStride = std::max(m.rows * m.rowStride, m.cols * m.colStride);
  return m;
}

/// oneDNN's description of `m`; a broadcast operand is one matrix (oneDNN
/// broadcasts batch dimensions of extent 1).
memory::desc describe(const Matrix &m, memory::data_type type, bool batched) {
  if (!batched)
    return memory::desc({m.rows, m.cols}, type, {m.rowStride, m.colStride});
  int64_t span = std::max(m.rows * m.rowStride, m.cols * m.colStride);
  bool broadcast = m.broadcast();
  return memory::desc(
      {broadcast ? 1 : m.batch, m.rows, m.cols}, type,
      {broadcast ? span : m.batchStride, m.rowStride, m.colStride});
}

/// A matmul primitive made for one shape and layout, with the descriptions
/// of its operands; `primitive` is empty where oneDNN has no implementation.
struct MatmulPlan {
  dnnl::matmul primitive;
  memory::desc a, b, c;
  bool supported = false;
};

/// The plan for C (+)= A x B on these views, A and B of `type`, C of
/// `outputType` (f32, or bf16 rounded by oneDNN from its f32 sum), created
/// on first use.
const MatmulPlan &lookupPlan(const Matrix &a, const Matrix &b, const Matrix &c,
                             memory::data_type type, bool accumulate,
                             memory::data_type outputType) {
  static std::mutex mutex;
  static std::map<std::vector<int64_t>, std::unique_ptr<MatmulPlan>> plans;
  bool batched = c.batch > 1;
  std::vector<int64_t> key = {static_cast<int64_t>(type), batched, accumulate,
                              static_cast<int64_t>(outputType)};
  for (const Matrix *m : {&a, &b, &c})
    key.insert(key.end(), {m->broadcast(), m->batch, m->rows, m->cols,
                           m->batchStride, m->rowStride, m->colStride});
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<MatmulPlan> &plan = plans[key];
  if (plan)
    return *plan;
  plan = std::make_unique<MatmulPlan>();
  try {
    plan->a = describe(a, type, batched);
    plan->b = describe(b, type, batched);
    plan->c = describe(c, outputType, batched);
    // C += A x B: the sum post-op adds what C holds.
    dnnl::primitive_attr attributes;
    if (accumulate) {
      dnnl::post_ops sum;
      sum.append_sum(1.0f);
      attributes.set_post_ops(sum);
    }
    dnnl::matmul::desc desc(plan->a, plan->b, plan->c);
    dnnl::matmul::primitive_desc pd(desc, attributes, cpuEngine());
    plan->primitive = dnnl::matmul(pd);
    plan->supported = true;
  } catch (const dnnl::error &) {
    plan->supported = false;
  }
  return *plan;
}

/// Runs C (+)= A x B on oneDNN; false where oneDNN cannot.
bool oneDNNMatmul(const Matrix &a, const Matrix &b, const Matrix &c,
                  memory::data_type type, bool accumulate,
                  memory::data_type outputType = memory::data_type::f32) {
  const MatmulPlan &plan = lookupPlan(a, b, c, type, accumulate, outputType);
  if (!plan.supported)
    return false;
  try {
    dnnl::engine &engine = cpuEngine();
    dnnl::stream &stream = amprt::cpuStream();
    memory ma(plan.a, engine, const_cast<void *>(a.data));
    memory mb(plan.b, engine, const_cast<void *>(b.data));
    memory mc(plan.c, engine, const_cast<void *>(c.data));
    plan.primitive.execute(
        stream,
        {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    stream.wait();
    return true;
  } catch (const dnnl::error &) {
    return false;
  }
}

float widenF32(float value) { return value; }

/// Copies batch `batch` of `m` into a dense row-major f32 buffer.
template <typename T, typename Widen>
void widenDense(const Matrix &m, int64_t batch, float *out, Widen widen) {
  const T *base = static_cast<const T *>(m.data) + batch * m.batchStride;
  for (int64_t i = 0; i < m.rows; ++i)
    amprt::widenRow(base + i * m.rowStride, m.colStride, m.cols,
                    out + i * m.cols, widen);
}

/// C (+)= A x B on dense f32 copies with OpenBLAS: the path for what
/// oneDNN refuses.
template <typename T, typename Widen>
void denseSgemm(const Matrix &a, const Matrix &b, const Matrix &c,
                Widen widen, bool accumulate) {
  int64_t m = c.rows, n = c.cols, k = a.cols;
  if (m == 0 || n == 0)
    return;
  std::vector<float> scratch(static_cast<size_t>(m * k + k * n + m * n));
  float *denseA = scratch.data(), *denseB = denseA + m * k,
        *product = denseB + k * n;
  for (int64_t batch = 0; batch < c.batch; ++batch) {
    widenDense<T>(a, batch, denseA, widen);
    widenDense<T>(b, batch, denseB, widen);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m),
                static_cast<int>(n), static_cast<int>(k), 1.0f, denseA,
                static_cast<int>(k), denseB, static_cast<int>(n), 0.0f, product,
                static_cast<int>(n));
    float *out = const_cast<float *>(static_cast<const float *>(c.data)) +
                 batch * c.batchStride;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float &element = out[i * c.rowStride + j * c.colStride];
        element = accumulate ? element + product[i * n + j] : product[i * n + j];
      }
  }
}

/// Widens every batch of an f16 or bf16 operand (`convert`) into `storage`
/// and returns the dense f32 view of it.
Matrix widen16Operand(const Matrix &m, std::vector<float> &storage,
                      float (*convert)(uint16_t)) {
  int64_t batches = m.broadcast() ? 1 : m.batch;
  storage.resize(static_cast<size_t>(batches * m.rows * m.cols));
  for (int64_t batch = 0; batch < batches; ++batch)
    widenDense<uint16_t>(m, batch, storage.data() + batch * m.rows * m.cols,
                         convert);
  Matrix dense = m;
  dense.data = storage.data();
  dense.rowStride = m.cols;
  dense.colStride = 1;
  dense.batchStride = m.broadcast() ? 0 : m.rows * m.cols;
  return dense;
}

void gemm_f32(const Matrix &a, const Matrix &b, const Matrix &c,
              bool accumulate) {
  if (c.rows == 0 || c.cols == 0 || c.batch == 0)
    return;
  if (!oneDNNMatmul(a, b, c, memory::data_type::f32, accumulate))
    denseSgemm<float>(a, b, c, widenF32, accumulate);
}

/// C (+)= A x B on f32 copies of 16-bit operands.
void gemmWidened(const Matrix &a, const Matrix &b, const Matrix &c,
                 float (*convert)(uint16_t), bool accumulate) {
  thread_local std::vector<float> wideA, wideB;
  gemm_f32(widen16Operand(a, wideA, convert),
           widen16Operand(b, wideB, convert), c, accumulate);
}

void gemm_bf16(const Matrix &a, const Matrix &b, const Matrix &c,
               bool accumulate) {
  if (c.rows == 0 || c.cols == 0 || c.batch == 0)
    return;
  // Without AVX-512 oneDNN 2.6 has no bf16 matmul: f32 copies then, on
  // oneDNN's f32 kernels and threads (OpenBLAS's own threads would compete
  // with them and with the step's parallel loops for the cores).
  if (!oneDNNMatmul(a, b, c, memory::data_type::bf16, accumulate))
    gemmWidened(a, b, c, amprt::bfloat16ToFloat, accumulate);
}

void gemm_f16(const Matrix &a, const Matrix &b, const Matrix &c,
              bool accumulate) {
  if (c.rows == 0 || c.cols == 0 || c.batch == 0)
    return;
  gemmWidened(a, b, c, amprt::halfToFloat, accumulate);
}

/// C = A x B rounded once into C's 16-bit elements (`Narrow`): the f32
/// product of `gemm` in a dense scratch buffer kept per thread, then
/// narrowed into C's strides.
template <uint16_t (*Narrow)(float), typename Gemm>
void gemmNarrowed(const Matrix &a, const Matrix &b, const Matrix &c,
                  Gemm gemm) {
  thread_local std::vector<float> scratch;
  scratch.resize(static_cast<size_t>(c.batch * c.rows * c.cols));
  Matrix dense = c;
  dense.data = scratch.data();
  dense.rowStride = c.cols;
  dense.colStride = 1;
  dense.batchStride = c.rows * c.cols;
  gemm(a, b, dense, /*accumulate=*/false);
  for (int64_t batch = 0; batch < c.batch; ++batch) {
    auto *out = const_cast<uint16_t *>(static_cast<const uint16_t *>(c.data)) +
                batch * c.batchStride;
    const float *product = scratch.data() + batch * c.rows * c.cols;
    for (int64_t i = 0; i < c.rows; ++i) {
      uint16_t *row = out + i * c.rowStride;
      const float *from = product + i * c.cols;
      if (c.colStride == 1) { // its own loop: it vectorizes
        for (int64_t j = 0; j < c.cols; ++j)
          row[j] = Narrow(from[j]);
      } else {
        for (int64_t j = 0; j < c.cols; ++j)
          row[j * c.colStride] = Narrow(from[j]);
      }
    }
  }
}

// The entry points by input and output type: f32 C as above; an f16 or
// bf16 C (the `_to_` GEMMs, which overwrite) holds the f32 sum rounded to
// nearest even.
void gemm_f32_to_f32(const Matrix &a, const Matrix &b, const Matrix &c,
                     bool accumulate) {
  gemm_f32(a, b, c, accumulate);
}
void gemm_f16_to_f32(const Matrix &a, const Matrix &b, const Matrix &c,
                     bool accumulate) {
  gemm_f16(a, b, c, accumulate);
}
void gemm_bf16_to_f32(const Matrix &a, const Matrix &b, const Matrix &c,
                      bool accumulate) {
  gemm_bf16(a, b, c, accumulate);
}
void gemm_f16_to_f16(const Matrix &a, const Matrix &b, const Matrix &c, bool) {
  if (c.rows == 0 || c.cols == 0 || c.batch == 0)
    return;
  gemmNarrowed<amprt::floatToHalf>(a, b, c, gemm_f16);
}
void gemm_bf16_to_bf16(const Matrix &a, const Matrix &b, const Matrix &c,
                       bool) {
  if (c.rows == 0 || c.cols == 0 || c.batch == 0)
    return;
  // oneDNN writes bf16 itself (its conversion rounds to nearest even).
  if (!oneDNNMatmul(a, b, c, memory::data_type::bf16, /*accumulate=*/false,
                    memory::data_type::bf16))
    gemmNarrowed<amprt::floatToBfloat16>(a, b, c, gemm_bf16);
}

/// Rows [row0, row0 + rows) of `m`, in place (elements of `elementSize`
/// bytes).
Matrix rowsOf(const Matrix &m, int64_t row0, int64_t rows, size_t elementSize) {
  Matrix block = m;
  block.data = static_cast<const char *>(m.data) +
               row0 * m.rowStride * static_cast<int64_t>(elementSize);
  block.rows = rows;
  return block;
}

/// `count` f32 values `stride` apart rounded to bf16 or through f16 back
/// to f32, as `arith.truncf` rounds (to nearest even, subnormals kept):
/// the same loops built for AVX-512 too, picked when the CPU has it, since
/// a block is rounded on every GEMM that reads it, not once as the copy
/// was.
template <typename T>
T roundValue(float value) {
  if constexpr (std::is_same_v<T, uint16_t>)
    return amprt::floatToBfloat16(value);
  else
    return amprt::halfToFloat(amprt::floatToHalf(value));
}
template <typename T>
void roundValues(const float *from, int64_t stride, int64_t count, T *to) {
  if (stride == 1) { // its own loop: it vectorizes
    for (int64_t i = 0; i < count; ++i)
      to[i] = roundValue<T>(from[i]);
  } else {
    for (int64_t i = 0; i < count; ++i)
      to[i] = roundValue<T>(from[i * stride]);
  }
}
template <typename T>
__attribute__((target("avx512f"))) void
roundValuesAVX512(const float *from, int64_t stride, int64_t count, T *to) {
  roundValues(from, stride, count, to);
}
template <typename T>
void roundLine(const float *from, int64_t stride, int64_t count, T *to) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512)
    roundValuesAVX512(from, stride, count, to);
  else
    roundValues(from, stride, count, to);
}

/// The same rows of f32 `m` rounded into dense `out` (bf16, or f16 values
/// widened back to f32), laid out as `m` is when `asLaidOut` (column after
/// column when only its rows are contiguous, as in a transposed input
/// batch, so that the copy reads and writes in order), row-major
/// otherwise.
template <typename T>
Matrix roundRows(const Matrix &m, int64_t row0, int64_t rows, T *out,
                 bool asLaidOut) {
  const float *base =
      static_cast<const float *>(rowsOf(m, row0, rows, sizeof(float)).data);
  int64_t cols = m.cols;
  Matrix block{out, 1, rows, cols, rows * cols, cols, 1};
  if (asLaidOut && m.rowStride == 1 && m.colStride != 1 && rows > 1) {
    block.rowStride = 1;
    block.colStride = rows;
    for (int64_t j = 0; j < cols; ++j)
      roundLine(base + j * m.colStride, 1, rows, out + j * rows);
    return block;
  }
  for (int64_t i = 0; i < rows; ++i)
    roundLine(base + i * m.rowStride, m.colStride, cols, out + i * cols);
  return block;
}

/// Calls `multiply(row0, rows, block)` for blocks of rows of C (and A), as
/// many rows as the scratch holds at K = `a`'s columns each: the loop of
/// the rounding GEMMs (amprt_rounding_gemm.def).
template <typename T, typename Multiply>
void forEachRowBlock(const Matrix &a, const Matrix &c, bool accumulate,
                     StridedMemRef<T, 1> *scratch, Multiply multiply) {
  int64_t m = c.rows, n = c.cols, k = a.cols;
  if (m == 0 || n == 0)
    return;
  if (k == 0) { // an empty sum
    if (!accumulate)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          const_cast<float *>(static_cast<const float *>(
              c.data))[i * c.rowStride + j * c.colStride] = 0.0f;
    return;
  }
  int64_t rowsPerBlock = std::min(m, scratch->sizes[0] / k);
  if (rowsPerBlock < 1) {
    std::fprintf(stderr,
                 "libamprt: a rounding GEMM's scratch of %lld elements holds "
                 "no row of K = %lld (the compiler sizes it)\n",
                 static_cast<long long>(scratch->sizes[0]),
                 static_cast<long long>(k));
    std::abort();
  }
  for (int64_t row0 = 0; row0 < m; row0 += rowsPerBlock)
    multiply(row0, std::min(rowsPerBlock, m - row0),
             scratch->aligned + scratch->offset);
}

/// C (+)= bf16(A) x B: each block of A rounded into bf16 scratch (laid out
/// as A, as the copy would be) and multiplied on the bf16 GEMM, B read in
/// place.
void roundingGemm_bf16(const Matrix &a, const Matrix &b, const Matrix &c,
                       bool accumulate, StridedMemRef<uint16_t, 1> *scratch) {
  forEachRowBlock(a, c, accumulate, scratch,
                  [&](int64_t row0, int64_t rows, uint16_t *block) {
                    gemm_bf16(roundRows(a, row0, rows, block,
                                        /*asLaidOut=*/true),
                              b, rowsOf(c, row0, rows, sizeof(float)),
                              accumulate);
                  });
}

/// C (+)= f16(A) x B: as gemm_f16 on a copy, on f32 (B widened once, each
/// block of A rounded through f16 into dense f32 scratch, as gemm_f16
/// widens a copy).
void roundingGemm_f16(const Matrix &a, const Matrix &b, const Matrix &c,
                      bool accumulate, StridedMemRef<float, 1> *scratch) {
  thread_local std::vector<float> wideB;
  Matrix denseB = widen16Operand(b, wideB, amprt::halfToFloat);
  forEachRowBlock(
      a, c, accumulate, scratch, [&](int64_t row0, int64_t rows, float *block) {
        gemm_f32(roundRows(a, row0, rows, block,
                           /*asLaidOut=*/false),
                 denseB, rowsOf(c, row0, rows, sizeof(float)), accumulate);
      });
}

} // namespace

extern "C" {

// Every entry point of amprt_rounding_gemm.def.
#define AMPRT_ROUNDING_GEMM(NAME, INPUT_TYPE, SCRATCH_TYPE, SCRATCH_C_TYPE,    \
                            ACCUMULATE)                                        \
  void _mlir_ciface_amp_rt_##NAME(                                             \
      StridedMemRef<float, 2> *a, StridedMemRef<uint16_t, 2> *b,               \
      StridedMemRef<float, 2> *c, StridedMemRef<SCRATCH_C_TYPE, 1> *scratch) { \
    roundingGemm_##INPUT_TYPE(viewOf(a), viewOf(b), viewOf(c), ACCUMULATE,     \
                              scratch);                                        \
  }
#include "amprt_rounding_gemm.def"

// Every entry point of amprt_gemm.def: gemm_<INPUT_TYPE> on its views,
// into C of OUTPUT_TYPE.
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, OUTPUT_TYPE,    \
                   OUTPUT_C_TYPE)                                              \
  void _mlir_ciface_amp_rt_##NAME(StridedMemRef<C_TYPE, RANK> *a,              \
                                  StridedMemRef<C_TYPE, RANK> *b,              \
                                  StridedMemRef<OUTPUT_C_TYPE, RANK> *c) {     \
    gemm_##INPUT_TYPE##_to_##OUTPUT_TYPE(viewOf(a), viewOf(b), viewOf(c),      \
                                         ACCUMULATE);                          \
  }
#include "amprt_gemm.def"

void amprt_set_num_threads(int threads) {
  if (threads < 1)
    return;
  omp_set_num_threads(threads);
  openblas_set_num_threads(threads);
}

int amprt_num_threads(void) { return omp_get_max_threads(); }

} // extern "C"
