//===- cuda_runtime_test.cpp - libamprt_cuda's host logic, on the CPU -----===//
//
// Runs libamprt_cuda's GEMMs and mgpu* entry points against cuda_mock.cpp
// (the driver API and cuBLASLt simulated on the CPU): every memref layout
// the GEMMs accept (row-major, transposed views, other strides, offsets,
// batches, a broadcast batch, a column-major output) must produce
// C += A x B, and the module cache must return one module per binary.
// The GEMM's cuBLASLt plans: chosen once per shape, layout and operand
// alignment, for the alignment the operands really have. The `_to_` GEMMs
// give the f32 GEMM's result rounded once to their f16/bf16 output.
//
//===----------------------------------------------------------------------===//

#include "cuda_mock.h"

#include "amprt.h"
#include "amprt_cuda.h"
#include "strided_memref.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

extern "C" {
void _mlir_ciface_amp_rt_cuda_matmul_f32(StridedMemRef<float, 2> *,
                                         StridedMemRef<float, 2> *,
                                         StridedMemRef<float, 2> *);
void _mlir_ciface_amp_rt_cuda_batch_matmul_f16(StridedMemRef<uint16_t, 3> *,
                                               StridedMemRef<uint16_t, 3> *,
                                               StridedMemRef<float, 3> *);
void _mlir_ciface_amp_rt_cuda_matmul_bf16(StridedMemRef<uint16_t, 2> *,
                                          StridedMemRef<uint16_t, 2> *,
                                          StridedMemRef<float, 2> *);
void _mlir_ciface_amp_rt_cuda_matmul_overwrite_f32(StridedMemRef<float, 2> *,
                                                   StridedMemRef<float, 2> *,
                                                   StridedMemRef<float, 2> *);
void _mlir_ciface_amp_rt_cuda_batch_matmul_overwrite_f16(
    StridedMemRef<uint16_t, 3> *, StridedMemRef<uint16_t, 3> *,
    StridedMemRef<float, 3> *);
void _mlir_ciface_amp_rt_cuda_batch_matmul_overwrite_f16_to_f16(
    StridedMemRef<uint16_t, 3> *, StridedMemRef<uint16_t, 3> *,
    StridedMemRef<uint16_t, 3> *);
void _mlir_ciface_amp_rt_cuda_matmul_overwrite_bf16(StridedMemRef<uint16_t, 2> *,
                                                    StridedMemRef<uint16_t, 2> *,
                                                    StridedMemRef<float, 2> *);
void _mlir_ciface_amp_rt_cuda_matmul_overwrite_bf16_to_bf16(
    StridedMemRef<uint16_t, 2> *, StridedMemRef<uint16_t, 2> *,
    StridedMemRef<uint16_t, 2> *);
void *mgpuModuleLoad(void *data, int64_t size);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *pointer, void *stream);
}

namespace {
int failures = 0;

void expect(bool ok, const char *what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

/// Values that are exact in f16 and bf16: small multiples of 1/8.
float value(int i) { return static_cast<float>((i * 7) % 17 - 8) / 8.0f; }

template <typename T, int R>
StridedMemRef<T, R> view(std::vector<T> &storage, int64_t offset,
                         std::initializer_list<int64_t> sizes,
                         std::initializer_list<int64_t> strides) {
  StridedMemRef<T, R> m{storage.data(), storage.data(), offset, {}, {}};
  std::copy(sizes.begin(), sizes.end(), m.sizes);
  std::copy(strides.begin(), strides.end(), m.strides);
  return m;
}

template <typename T, int R>
double at(const StridedMemRef<T, R> &m, float (*widen)(T), int64_t b, int64_t i,
          int64_t j) {
  int64_t index = m.offset + (R == 3 ? b * m.strides[0] : 0) +
                  i * m.strides[R - 2] + j * m.strides[R - 1];
  return widen(m.aligned[index]);
}

float same(float x) { return x; }

/// Checks C (after) = C (before) + A x B for every batch.
template <typename T, int R>
bool matches(const StridedMemRef<T, R> &a, const StridedMemRef<T, R> &b,
             const StridedMemRef<float, R> &before,
             const StridedMemRef<float, R> &after, float (*widen)(T)) {
  int64_t batches = R == 3 ? after.sizes[0] : 1;
  int64_t m = after.sizes[R - 2], n = after.sizes[R - 1], k = a.sizes[R - 1];
  for (int64_t bi = 0; bi < batches; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double expected = at(before, same, bi, i, j);
        for (int64_t p = 0; p < k; ++p)
          expected += at(a, widen, bi, i, p) * at(b, widen, bi, p, j);
        // Written so that NaN fails.
        if (!(std::fabs(at(after, same, bi, i, j) - expected) <=
              1e-5 * (1 + std::fabs(expected))))
          return false;
      }
  return true;
}

template <typename T>
std::vector<T> filled(size_t count, T (*narrow)(float), int seed) {
  std::vector<T> values(count);
  for (size_t e = 0; e < count; ++e)
    values[e] = narrow(value(static_cast<int>(e) + seed));
  return values;
}

float keep(float x) { return x; }

void f32Layouts() {
  // A 3x5, B 5x4, C 3x4, in every layout the GEMM distinguishes.
  struct Case {
    const char *name;
    int64_t aOffset, aRow, aCol, bOffset, bRow, bCol, cRow, cCol;
  } cases[] = {
      {"f32 row-major", 0, 5, 1, 0, 4, 1, 4, 1},
      {"f32 A transposed view (column-contiguous)", 0, 1, 3, 0, 4, 1, 4, 1},
      {"f32 B with padded rows and an offset", 2, 5, 1, 3, 6, 1, 4, 1},
      {"f32 B strided both ways (gathered)", 0, 5, 1, 0, 8, 2, 4, 1},
      {"f32 C column-contiguous (gathered and scattered)", 0, 5, 1, 0, 4, 1, 1,
       3},
  };
  for (const Case &c : cases) {
    std::vector<float> aData = filled<float>(64, keep, 1);
    std::vector<float> bData = filled<float>(64, keep, 2);
    std::vector<float> cData = filled<float>(64, keep, 3);
    auto a = view<float, 2>(aData, c.aOffset, {3, 5}, {c.aRow, c.aCol});
    auto b = view<float, 2>(bData, c.bOffset, {5, 4}, {c.bRow, c.bCol});
    auto out = view<float, 2>(cData, 0, {3, 4}, {c.cRow, c.cCol});
    std::vector<float> beforeData = cData;
    auto before = view<float, 2>(beforeData, 0, {3, 4}, {c.cRow, c.cCol});
    _mlir_ciface_amp_rt_cuda_matmul_f32(&a, &b, &out);
    expect(matches(a, b, before, out, same), c.name);
  }
}

void lowPrecision() {
  // Batched f16: batch 2 of (4x3) x (3x5); then B broadcast (batch stride 0).
  for (int64_t bBatchStride : {15, 0}) {
    std::vector<uint16_t> aData = filled<uint16_t>(24, amprt_f32_to_f16, 4);
    std::vector<uint16_t> bData = filled<uint16_t>(30, amprt_f32_to_f16, 5);
    std::vector<float> cData = filled<float>(40, keep, 6);
    auto a = view<uint16_t, 3>(aData, 0, {2, 4, 3}, {12, 3, 1});
    auto b = view<uint16_t, 3>(bData, 0, {2, 3, 5}, {bBatchStride, 5, 1});
    auto out = view<float, 3>(cData, 0, {2, 4, 5}, {20, 5, 1});
    std::vector<float> beforeData = cData;
    auto before = view<float, 3>(beforeData, 0, {2, 4, 5}, {20, 5, 1});
    _mlir_ciface_amp_rt_cuda_batch_matmul_f16(&a, &b, &out);
    expect(matches(a, b, before, out, amprt_f16_to_f32),
           bBatchStride ? "f16 batched" : "f16 batched, B broadcast");
  }
  std::vector<uint16_t> aData = filled<uint16_t>(16, amprt_f32_to_bf16, 7);
  std::vector<uint16_t> bData = filled<uint16_t>(16, amprt_f32_to_bf16, 8);
  std::vector<float> cData(16, 0.5f);
  auto a = view<uint16_t, 2>(aData, 0, {2, 4}, {4, 1});
  auto b = view<uint16_t, 2>(bData, 0, {4, 3}, {1, 4}); // transposed view
  auto out = view<float, 2>(cData, 0, {2, 3}, {3, 1});
  std::vector<float> beforeData = cData;
  auto before = view<float, 2>(beforeData, 0, {2, 3}, {3, 1});
  _mlir_ciface_amp_rt_cuda_matmul_bf16(&a, &b, &out);
  expect(matches(a, b, before, out, amprt_bf16_to_f32),
         "bf16, B transposed view");
}

/// Floats on a 256-byte boundary, as device allocations are.
struct AlignedFloats {
  std::unique_ptr<float, decltype(&std::free)> storage;
  explicit AlignedFloats(size_t count)
      : storage(static_cast<float *>(std::aligned_alloc(256, 4 * count)),
                &std::free) {
    for (size_t e = 0; e < count; ++e)
      storage.get()[e] = value(static_cast<int>(e));
  }
  StridedMemRef<float, 2> matrix(int64_t offset, int64_t rows, int64_t cols) {
    return {storage.get(), storage.get(), offset, {rows, cols}, {cols, 1}};
  }
};

/// C (3x4) += A (3x5) B (5x4) at the given element offsets into buffers
/// aligned to 256 bytes; whether C came out right.
bool alignedGemm(int64_t aOffset, int64_t bOffset, int64_t cOffset) {
  AlignedFloats aData(128), bData(128), cData(128);
  auto a = aData.matrix(aOffset, 3, 5), b = bData.matrix(bOffset, 5, 4);
  auto out = cData.matrix(cOffset, 3, 4);
  std::vector<float> beforeData(cData.storage.get(),
                                cData.storage.get() + 128);
  auto before = view<float, 2>(beforeData, cOffset, {3, 4}, {4, 1});
  _mlir_ciface_amp_rt_cuda_matmul_f32(&a, &b, &out);
  return matches(a, b, before, out, same);
}

void plans() {
  // The transformer's q/k/v slices are 64- and 128-byte aligned: the mock,
  // as cuBLASLt, fails a GEMM whose operands are less aligned than the
  // algorithm chosen for them assumes (256 bytes unless told).
  expect(alignedGemm(16, 32, 0),
         "operands aligned to 64 and 128 bytes only (q/k/v slices)");
  expect(alignedGemm(1, 3, 2), "operands aligned to 4 and 8 bytes only");

  // One heuristic query per shape, layout and alignment, not per call.
  int64_t heuristics = amprt_mock_step_counts().heuristics;
  int64_t gemms = amprt_mock_step_counts().gemms;
  bool right = true;
  for (int repeat = 0; repeat < 3; ++repeat)
    right &= alignedGemm(16, 32, 0); // planned above, new buffers each time
  expect(right && amprt_mock_step_counts().heuristics == heuristics &&
             amprt_mock_step_counts().gemms == gemms + 3,
         "a planned GEMM again: no heuristic query, three GEMMs");
  right = alignedGemm(16, 32, 8); // C 32-byte aligned: a new plan
  expect(right && amprt_mock_step_counts().heuristics == heuristics + 1,
         "the same shape, C less aligned: one new heuristic query");
}

void modules() {
  // MLIR's lowering loads the module before every launch: the runtime
  // loads each binary once, and never confuses two binaries at one address.
  char binary[16] = "kernels v1";
  void *first = mgpuModuleLoad(binary, sizeof(binary));
  void *again = mgpuModuleLoad(binary, sizeof(binary));
  std::memcpy(binary, "kernels v2", 11);
  void *other = mgpuModuleLoad(binary, sizeof(binary));
  expect(first == again && other != first,
         "module cache: one module per binary, keyed by its bytes");
}

void deviceMemory() {
  // Device memory is PROT_NONE to the host on the simulated driver: data
  // goes in and out by copies only, and a freed block is handed out again
  // for the same size without a new allocation.
  amprt_mock_begin_step();
  std::vector<float> in(16), out(16, 0.0f);
  for (int e = 0; e < 16; ++e)
    in[e] = value(e);
  auto *device = static_cast<float *>(amprt_cuda_alloc(sizeof(float) * 16));
  amprt_cuda_copy_to_device(device, in.data(), sizeof(float) * 16);
  amprt_cuda_copy_to_host(out.data(), device, sizeof(float) * 16);
  amprt_cuda_synchronize();
  amprt_cuda_free(device);
  void *again = amprt_cuda_alloc(sizeof(float) * 16);
  amprt_mock_counts c = amprt_mock_step_counts();
  expect(out == in && again == device && c.allocs == 1 && c.h2d == 1 &&
             c.d2h == 1 && c.syncs == 1 && c.hostTouches == 0,
         "device memory: copied in and out, not touched by the host, its "
         "block reused");
  amprt_cuda_free(again);
}
} // namespace

void overwrite() {
  // C = A x B (beta 0): NaN in C before does not reach the result, in place
  // and when C is gathered and scattered back (column-contiguous C).
  for (bool columnMajorC : {false, true}) {
    std::vector<float> aData = filled<float>(64, keep, 1);
    std::vector<float> bData = filled<float>(64, keep, 2);
    std::vector<float> cData(64, std::nanf("")), zeros(64, 0.0f);
    auto a = view<float, 2>(aData, 0, {3, 5}, {5, 1});
    auto b = view<float, 2>(bData, 0, {5, 4}, {4, 1});
    int64_t row = columnMajorC ? 1 : 4, col = columnMajorC ? 3 : 1;
    auto out = view<float, 2>(cData, 0, {3, 4}, {row, col});
    auto before = view<float, 2>(zeros, 0, {3, 4}, {row, col});
    _mlir_ciface_amp_rt_cuda_matmul_overwrite_f32(&a, &b, &out);
    expect(matches(a, b, before, out, same),
           columnMajorC ? "f32 overwrite, C column-contiguous"
                        : "f32 overwrite ignores NaN in C");
  }
  std::vector<uint16_t> aData = filled<uint16_t>(64, amprt_f32_to_f16, 4);
  std::vector<uint16_t> bData = filled<uint16_t>(64, amprt_f32_to_f16, 5);
  std::vector<float> cData(64, std::nanf("")), zeros(64, 0.0f);
  auto a = view<uint16_t, 3>(aData, 0, {2, 4, 3}, {12, 3, 1});
  auto b = view<uint16_t, 3>(bData, 0, {2, 3, 5}, {15, 5, 1});
  auto out = view<float, 3>(cData, 0, {2, 4, 5}, {20, 5, 1});
  auto before = view<float, 3>(zeros, 0, {2, 4, 5}, {20, 5, 1});
  _mlir_ciface_amp_rt_cuda_batch_matmul_overwrite_f16(&a, &b, &out);
  expect(matches(a, b, before, out, amprt_f16_to_f32),
         "batched f16 overwrite ignores NaN in C");
}

/// Whether `rounded` holds every element of `product` (same strides) as
/// `narrow` rounds it, bit for bit.
bool roundedFrom(const std::vector<float> &product,
                 const std::vector<uint16_t> &rounded,
                 uint16_t (*narrow)(float), size_t count) {
  for (size_t e = 0; e < count; ++e)
    if (rounded[e] != narrow(product[e]))
      return false;
  return true;
}

void lowPrecisionOutputs() {
  // Values with more bits than an f16 product keeps: the rounding shows.
  auto inexact = [](int i) { return static_cast<float>(i % 23) * 0.173f - 1.9f; };
  std::vector<uint16_t> aData(24), bData(30);
  for (size_t e = 0; e < aData.size(); ++e)
    aData[e] = amprt_f32_to_f16(inexact(static_cast<int>(e)));
  for (size_t e = 0; e < bData.size(); ++e)
    bData[e] = amprt_f32_to_f16(inexact(static_cast<int>(e) + 7));
  std::vector<float> product(40, std::nanf(""));
  std::vector<uint16_t> rounded(40, 0x7E00); // NaN before: not read
  auto a = view<uint16_t, 3>(aData, 0, {2, 4, 3}, {12, 3, 1});
  auto b = view<uint16_t, 3>(bData, 0, {2, 3, 5}, {15, 5, 1});
  auto wide = view<float, 3>(product, 0, {2, 4, 5}, {20, 5, 1});
  auto narrow = view<uint16_t, 3>(rounded, 0, {2, 4, 5}, {20, 5, 1});
  _mlir_ciface_amp_rt_cuda_batch_matmul_overwrite_f16(&a, &b, &wide);
  _mlir_ciface_amp_rt_cuda_batch_matmul_overwrite_f16_to_f16(&a, &b, &narrow);
  expect(roundedFrom(product, rounded, amprt_f32_to_f16, 40),
         "batched f16 GEMM into f16: the f32 result rounded once");

  // bf16 with a column-major C: gathered and scattered as 16-bit values.
  std::vector<uint16_t> a2(15), b2(20);
  for (size_t e = 0; e < a2.size(); ++e)
    a2[e] = amprt_f32_to_bf16(inexact(static_cast<int>(e) + 3));
  for (size_t e = 0; e < b2.size(); ++e)
    b2[e] = amprt_f32_to_bf16(inexact(static_cast<int>(e) + 11));
  std::vector<float> product2(12, std::nanf(""));
  std::vector<uint16_t> rounded2(12, 0x7FC0);
  auto a2v = view<uint16_t, 2>(a2, 0, {3, 5}, {5, 1});
  auto b2v = view<uint16_t, 2>(b2, 0, {5, 4}, {4, 1});
  auto wide2 = view<float, 2>(product2, 0, {3, 4}, {1, 3});
  auto narrow2 = view<uint16_t, 2>(rounded2, 0, {3, 4}, {1, 3});
  _mlir_ciface_amp_rt_cuda_matmul_overwrite_bf16(&a2v, &b2v, &wide2);
  _mlir_ciface_amp_rt_cuda_matmul_overwrite_bf16_to_bf16(&a2v, &b2v, &narrow2);
  expect(roundedFrom(product2, rounded2, amprt_f32_to_bf16, 12),
         "bf16 GEMM into bf16, C column-contiguous: rounded once");
}

void graphs() {
  // C = A x B captured once, then replayed on new values of A: a graph
  // records the work on its buffers, not their values at capture time.
  auto *a = static_cast<float *>(amprt_cuda_alloc(4 * 15));
  auto *b = static_cast<float *>(amprt_cuda_alloc(4 * 20));
  auto *c = static_cast<float *>(amprt_cuda_alloc(4 * 12));
  std::vector<float> aHost = filled<float>(15, keep, 1);
  std::vector<float> bHost = filled<float>(20, keep, 2);
  amprt_cuda_copy_to_device(a, aHost.data(), 4 * 15);
  amprt_cuda_copy_to_device(b, bHost.data(), 4 * 20);
  amprt_cuda_synchronize();
  StridedMemRef<float, 2> av{a, a, 0, {3, 5}, {5, 1}};
  StridedMemRef<float, 2> bv{b, b, 0, {5, 4}, {4, 1}};
  StridedMemRef<float, 2> cv{c, c, 0, {3, 4}, {4, 1}};

  amprt_mock_begin_step();
  bool began = amprt_cuda_capture_begin() == 0;
  // A step's temporary, allocated and freed inside the capture.
  void *temporary = amprt_cuda_alloc(256);
  amprt_cuda_free(temporary);
  _mlir_ciface_amp_rt_cuda_matmul_overwrite_f32(&av, &bv, &cv);
  amprt_cuda_graph *graph = amprt_cuda_capture_end();
  bool nothingRan = amprt_mock_step_counts().gemms == 0;

  aHost = filled<float>(15, keep, 7); // new values, same buffer
  amprt_cuda_copy_to_device(a, aHost.data(), 4 * 15);
  amprt_cuda_graph_launch(graph);
  std::vector<float> cHost(12, std::nanf(""));
  amprt_cuda_copy_to_host(cHost.data(), c, 4 * 12);
  amprt_cuda_synchronize();
  std::vector<float> zeros(12, 0.0f);
  auto aRef = view<float, 2>(aHost, 0, {3, 5}, {5, 1});
  auto bRef = view<float, 2>(bHost, 0, {5, 4}, {4, 1});
  auto before = view<float, 2>(zeros, 0, {3, 4}, {4, 1});
  auto after = view<float, 2>(cHost, 0, {3, 4}, {4, 1});
  amprt_mock_counts counts = amprt_mock_step_counts();
  expect(began && graph && nothingRan &&
             matches(aRef, bRef, before, after, same) &&
             counts.graphLaunches == 1 && counts.gemms == 0,
         "graph: captured without running, replayed on the buffers' new "
         "values");
  // The temporary's address is in the graph: an allocation outside a
  // capture gets another block, one inside a capture may share it.
  void *outside = amprt_cuda_alloc(256);
  expect(outside != temporary,
         "graph: its blocks are not handed out outside captures");
  amprt_cuda_free(outside);

  // A capture that waits for the stream fails without aborting, and
  // nothing of it ran.
  amprt_mock_begin_step();
  bool beganAgain = amprt_cuda_capture_begin() == 0;
  _mlir_ciface_amp_rt_cuda_matmul_overwrite_f32(&av, &bv, &cv);
  amprt_cuda_synchronize();
  amprt_cuda_graph *failed = amprt_cuda_capture_end();
  bool ranNothing = amprt_mock_step_counts().gemms == 0;
  bool beganNext = amprt_cuda_capture_begin() == 0;
  amprt_cuda_graph *next = amprt_cuda_capture_end();
  expect(beganAgain && !failed && ranNothing && beganNext && next,
         "graph: a capture that waits gives no graph, and the next works");
  amprt_cuda_graph_destroy(next);
  amprt_cuda_graph_destroy(graph);
  amprt_cuda_free(a);
  amprt_cuda_free(b);
  amprt_cuda_free(c);
}

int main() {
  f32Layouts();
  overwrite();
  lowPrecision();
  lowPrecisionOutputs();
  plans();
  modules();
  deviceMemory();
  graphs();
  return failures ? 1 : 0;
}
