//===- GemmTest.cpp - libamprt's GEMMs on every layout a step passes ------===//
//
// amp-contractions-to-runtime-calls hands the GEMMs strided views: plain,
// transposed, rows merged from two loops, an operand shared by every batch
// (batch stride 0), extent-1 dimensions with arbitrary strides. Each is
// checked against a double-precision loop over the same views, for f32,
// f16 and bf16 inputs, accumulating into what C holds (and, for the
// _overwrite entry points, replacing it: C starts as NaN there).
//
//===----------------------------------------------------------------------===//

#include "amprt.h"
#include "amprt_gemm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <array>
#include <random>
#include <type_traits>
#include <vector>

namespace {

enum class Input { F32, F16, BF16 };

/// A batch x rows x cols view into `storage` with the given strides.
struct View {
  int64_t sizes[3];
  int64_t strides[3];
  int64_t offset = 0;

  int64_t span() const {
    int64_t last = offset;
    for (int d = 0; d < 3; ++d)
      last += (sizes[d] - 1) * strides[d];
    return last + 1;
  }
  int64_t at(int64_t b, int64_t i, int64_t j) const {
    return offset + b * strides[0] + i * strides[1] + j * strides[2];
  }
};

/// Rounds `value` to what `input` holds, so that the reference sees the
/// same operands.
float representable(float value, Input input) {
  switch (input) {
  case Input::F32:
    return value;
  case Input::F16:
    return amprt_f16_to_f32(amprt_f32_to_f16(value));
  case Input::BF16:
    return amprt_bf16_to_f32(amprt_f32_to_bf16(value));
  }
  return value;
}

struct Operand {
  View view;
  std::vector<float> values;  // the operand as floats (the reference)
  std::vector<uint16_t> bits; // f16/bf16 storage
};

Operand makeOperand(View view, Input input, std::mt19937 &rng) {
  Operand operand{view, std::vector<float>(view.span(), 0.0f), {}};
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float &value : operand.values)
    value = representable(uniform(rng), input);
  for (float value : operand.values)
    operand.bits.push_back(input == Input::F16 ? amprt_f32_to_f16(value)
                                               : amprt_f32_to_bf16(value));
  return operand;
}

template <typename T, int Rank>
StridedMemRef<T, Rank> descriptor(T *data, const View &view) {
  StridedMemRef<T, Rank> ref;
  ref.allocated = ref.aligned = data;
  ref.offset = view.offset;
  for (int d = 0; d < Rank; ++d) {
    ref.sizes[d] = view.sizes[3 - Rank + d];
    ref.strides[d] = view.strides[3 - Rank + d];
  }
  return ref;
}

/// Runs the runtime's GEMM of `input` at `rank` on the views and compares
/// with the reference: C starting from random values that the call adds
/// to (`accumulate`), or from NaN that the _overwrite call must not read.
void checkGemm(Input input, int rank, View a, View b, View c,
               bool accumulate = true) {
  std::mt19937 rng(7);
  Operand lhs = makeOperand(a, input, rng), rhs = makeOperand(b, input, rng);
  Operand out = makeOperand(c, Input::F32, rng);
  std::vector<double> expected(out.values.begin(), out.values.end());
  if (!accumulate) {
    for (int64_t batch = 0; batch < c.sizes[0]; ++batch)
      for (int64_t i = 0; i < c.sizes[1]; ++i)
        for (int64_t j = 0; j < c.sizes[2]; ++j) {
          out.values[c.at(batch, i, j)] = std::nanf("");
          expected[c.at(batch, i, j)] = 0.0;
        }
  }
  int64_t batches = c.sizes[0], m = c.sizes[1], n = c.sizes[2], k = a.sizes[2];
  for (int64_t batch = 0; batch < batches; ++batch)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0.0;
        for (int64_t p = 0; p < k; ++p)
          sum += double(lhs.values[a.at(batch, i, p)]) *
                 double(rhs.values[b.at(batch, p, j)]);
        expected[c.at(batch, i, j)] += sum;
      }

  std::vector<float> result = out.values;
  if (input == Input::F32) {
    if (rank == 3) {
      auto x = descriptor<float, 3>(lhs.values.data(), a);
      auto y = descriptor<float, 3>(rhs.values.data(), b);
      auto z = descriptor<float, 3>(result.data(), c);
      (accumulate ? _mlir_ciface_amp_rt_batch_matmul_f32
                  : _mlir_ciface_amp_rt_batch_matmul_overwrite_f32)(&x, &y,
                                                                    &z);
    } else {
      auto x = descriptor<float, 2>(lhs.values.data(), a);
      auto y = descriptor<float, 2>(rhs.values.data(), b);
      auto z = descriptor<float, 2>(result.data(), c);
      (accumulate ? _mlir_ciface_amp_rt_matmul_f32
                  : _mlir_ciface_amp_rt_matmul_overwrite_f32)(&x, &y, &z);
    }
  } else if (rank == 3) {
    auto x = descriptor<uint16_t, 3>(lhs.bits.data(), a);
    auto y = descriptor<uint16_t, 3>(rhs.bits.data(), b);
    auto z = descriptor<float, 3>(result.data(), c);
    bool f16 = input == Input::F16;
    (accumulate ? (f16 ? _mlir_ciface_amp_rt_batch_matmul_f16
                       : _mlir_ciface_amp_rt_batch_matmul_bf16)
                : (f16 ? _mlir_ciface_amp_rt_batch_matmul_overwrite_f16
                       : _mlir_ciface_amp_rt_batch_matmul_overwrite_bf16))(
        &x, &y, &z);
  } else {
    auto x = descriptor<uint16_t, 2>(lhs.bits.data(), a);
    auto y = descriptor<uint16_t, 2>(rhs.bits.data(), b);
    auto z = descriptor<float, 2>(result.data(), c);
    bool f16 = input == Input::F16;
    (accumulate ? (f16 ? _mlir_ciface_amp_rt_matmul_f16
                       : _mlir_ciface_amp_rt_matmul_bf16)
                : (f16 ? _mlir_ciface_amp_rt_matmul_overwrite_f16
                       : _mlir_ciface_amp_rt_matmul_overwrite_bf16))(&x, &y,
                                                                     &z);
  }
  // The operands are exact in every input type and the products exact in
  // f32, so only f32 summation order differs from the reference: about
  // k * 2^-24 relative to the sum of |products| (< k here).
  double tolerance = 1e-6 * k + 1e-6;
  for (int64_t batch = 0; batch < batches; ++batch)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t at = c.at(batch, i, j);
        ASSERT_NEAR(result[at], expected[at], tolerance)
            << "batch " << batch << " row " << i << " col " << j;
      }
}

/// Row-major dense strides of batch x rows x cols.
View dense(int64_t batch, int64_t rows, int64_t cols) {
  return View{{batch, rows, cols}, {rows * cols, cols, 1}};
}

/// The transpose of a dense cols x rows matrix, seen as rows x cols.
View transposed(int64_t batch, int64_t rows, int64_t cols) {
  return View{{batch, rows, cols}, {rows * cols, 1, rows}};
}

class GemmTest : public ::testing::TestWithParam<Input> {};

TEST_P(GemmTest, Plain) {
  checkGemm(GetParam(), 2, dense(1, 37, 53), dense(1, 53, 29),
            dense(1, 37, 29));
}

TEST_P(GemmTest, TransposedOperands) {
  checkGemm(GetParam(), 2, transposed(1, 37, 53), transposed(1, 53, 29),
            dense(1, 37, 29));
}

TEST_P(GemmTest, TransposedOutput) {
  checkGemm(GetParam(), 2, dense(1, 16, 24), dense(1, 24, 9),
            transposed(1, 16, 9));
}

TEST_P(GemmTest, SubviewWithOffsetAndLeadingDimension) {
  // q/k/v slices of a fused [rows, 96] projection: leading dimension 96.
  View a{{1, 28, 32}, {0, 96, 1}, 64};
  checkGemm(GetParam(), 2, a, dense(1, 32, 20), dense(1, 28, 20));
}

TEST_P(GemmTest, Batched) {
  checkGemm(GetParam(), 3, dense(4, 7, 12), dense(4, 12, 5), dense(4, 7, 5));
}

TEST_P(GemmTest, BatchedTransposedRhs) {
  checkGemm(GetParam(), 3, dense(3, 28, 32), transposed(3, 32, 28),
            dense(3, 28, 28));
}

TEST_P(GemmTest, SharedOperandWithZeroBatchStride) {
  View shared{{5, 6, 7}, {0, 7, 1}};
  checkGemm(GetParam(), 3, dense(5, 4, 6), shared, dense(5, 4, 7));
}

TEST_P(GemmTest, UnitDimensionsWithArbitraryStrides) {
  // A vector-matrix product: MLIR may give the extent-1 row any stride.
  View a{{1, 1, 40}, {999, 12345, 1}};
  checkGemm(GetParam(), 2, a, dense(1, 40, 33), View{{1, 1, 33}, {0, 7, 1}});
  View column{{1, 40, 1}, {0, 1, 555}};
  checkGemm(GetParam(), 2, dense(1, 6, 40), column, dense(1, 6, 1));
}

TEST_P(GemmTest, GatheredLayoutFallsBack) {
  // Neither dimension has a unit stride (every other element).
  View a{{1, 9, 11}, {0, 22, 2}};
  checkGemm(GetParam(), 2, a, dense(1, 11, 8), dense(1, 9, 8));
}

TEST_P(GemmTest, Empty) {
  checkGemm(GetParam(), 2, dense(1, 0, 8), dense(1, 8, 3), dense(1, 0, 3));
  checkGemm(GetParam(), 2, dense(1, 4, 0), dense(1, 0, 3), dense(1, 4, 3));
}

TEST_P(GemmTest, OverwriteDoesNotReadC) {
  checkGemm(GetParam(), 2, dense(1, 37, 53), dense(1, 53, 29),
            dense(1, 37, 29), /*accumulate=*/false);
  checkGemm(GetParam(), 2, dense(1, 16, 24), dense(1, 24, 9),
            transposed(1, 16, 9), /*accumulate=*/false);
  checkGemm(GetParam(), 3, dense(4, 7, 12), dense(4, 12, 5), dense(4, 7, 5),
            /*accumulate=*/false);
  View gathered{{1, 9, 11}, {0, 22, 2}};
  checkGemm(GetParam(), 2, gathered, dense(1, 11, 8), dense(1, 9, 8),
            /*accumulate=*/false);
  // No k: C is zero.
  checkGemm(GetParam(), 2, dense(1, 4, 0), dense(1, 0, 3), dense(1, 4, 3),
            /*accumulate=*/false);
}

/// The `_to_` GEMM of a 16-bit `input` into 16-bit C (rank 3) against the
/// f32-output overwrite GEMM on the same operands and C layout: C holds
/// the f32 results rounded once (the runtime's own conversion, which
/// matches the compiled casts'), and nothing outside C's view changes.
void checkRoundedOutput(Input input, View a, View b, View c) {
  std::mt19937 rng(11);
  Operand lhs = makeOperand(a, input, rng), rhs = makeOperand(b, input, rng);
  bool f16 = input == Input::F16;
  auto x = descriptor<uint16_t, 3>(lhs.bits.data(), a);
  auto y = descriptor<uint16_t, 3>(rhs.bits.data(), b);
  std::vector<float> wide(c.span(), std::nanf(""));
  auto z = descriptor<float, 3>(wide.data(), c);
  (f16 ? _mlir_ciface_amp_rt_batch_matmul_overwrite_f16
       : _mlir_ciface_amp_rt_batch_matmul_overwrite_bf16)(&x, &y, &z);
  const uint16_t untouched = 0x1234;
  std::vector<uint16_t> narrow(c.span(), untouched);
  auto n = descriptor<uint16_t, 3>(narrow.data(), c);
  (f16 ? _mlir_ciface_amp_rt_batch_matmul_overwrite_f16_to_f16
       : _mlir_ciface_amp_rt_batch_matmul_overwrite_bf16_to_bf16)(&x, &y, &n);
  std::vector<bool> inView(c.span(), false);
  for (int64_t batch = 0; batch < c.sizes[0]; ++batch)
    for (int64_t i = 0; i < c.sizes[1]; ++i)
      for (int64_t j = 0; j < c.sizes[2]; ++j) {
        int64_t at = c.at(batch, i, j);
        inView[at] = true;
        uint16_t rounded = f16 ? amprt_f32_to_f16(wide[at])
                               : amprt_f32_to_bf16(wide[at]);
        ASSERT_EQ(narrow[at], rounded)
            << "batch " << batch << " row " << i << " col " << j;
      }
  for (size_t at = 0; at < narrow.size(); ++at)
    if (!inView[at])
      ASSERT_EQ(narrow[at], untouched) << "element " << at << " outside C";
}

TEST(GemmIntoLowPrecision, RoundsTheF32ResultOnce) {
  for (Input input : {Input::F16, Input::BF16}) {
    SCOPED_TRACE(input == Input::F16 ? "f16" : "bf16");
    checkRoundedOutput(input, dense(1, 37, 53), dense(1, 53, 29),
                       dense(1, 37, 29));
    checkRoundedOutput(input, dense(3, 7, 12), dense(3, 12, 5),
                       dense(3, 7, 5));
    // C transposed, and C with padded rows at an offset.
    checkRoundedOutput(input, dense(1, 16, 24), dense(1, 24, 9),
                       transposed(1, 16, 9));
    checkRoundedOutput(input, dense(2, 6, 8), dense(2, 8, 5),
                       View{{2, 6, 5}, {70, 11, 1}, 3});
  }
}

/// amprt_rounding_gemm.def's GEMM of 16-bit `input` with an f32 A and a
/// scratch of `scratchElements` elements, against a double loop over
/// input(A) x B: A holds values the input type cannot (every eighth near
/// halfway between two of them), so a block read unrounded or rounded otherwise
/// than to nearest even is off by far more than the tolerance. It must
/// also equal, bit for bit, the GEMM on a rounded copy of A (blocks of
/// rows do not change the library's sums), and not write past the
/// scratch.
void checkRoundingGemm(Input input, View a, View b, View c,
                       int64_t scratchElements, bool accumulate) {
  bool f16 = input == Input::F16;
  auto narrow = [&](float value) {
    return f16 ? amprt_f32_to_f16(value) : amprt_f32_to_bf16(value);
  };
  auto widen = [&](uint16_t bits) {
    return f16 ? amprt_f16_to_f32(bits) : amprt_bf16_to_f32(bits);
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> wideA;
  std::vector<uint16_t> copyA, bitsB;
  for (int64_t e = 0; e < a.span(); ++e) {
    float value = uniform(rng);
    if (e % 8 == 3) // about half a unit in the last place above a value
      value = widen(narrow(value)) * (1.0f + (f16 ? 0x1p-11f : 0x1p-8f));
    wideA.push_back(value);
    copyA.push_back(narrow(value));
  }
  for (int64_t e = 0; e < b.span(); ++e)
    bitsB.push_back(narrow(uniform(rng)));
  std::vector<float> result(c.span());
  for (float &value : result)
    value = accumulate ? uniform(rng) : std::nanf("");
  std::vector<float> fromCopy = result;
  std::vector<double> expected(result.begin(), result.end());
  int64_t m = c.sizes[1], n = c.sizes[2], k = a.sizes[2];
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = accumulate ? expected[c.at(0, i, j)] : 0.0;
      for (int64_t p = 0; p < k; ++p)
        sum += double(widen(copyA[a.at(0, i, p)])) *
               double(widen(bitsB[b.at(0, p, j)]));
      expected[c.at(0, i, j)] = sum;
    }
  auto x = descriptor<float, 2>(wideA.data(), a);
  auto y = descriptor<uint16_t, 2>(bitsB.data(), b);
  auto z = descriptor<float, 2>(result.data(), c);
  // The scratch, followed by a guard: bf16 elements, or f32 for f16.
  auto call = [&](auto *scratch, auto guard) {
    std::vector<std::remove_pointer_t<decltype(scratch)>> buffer(
        scratchElements + 64, guard);
    StridedMemRef<std::remove_pointer_t<decltype(scratch)>, 1> ref;
    ref.allocated = ref.aligned = buffer.data();
    ref.offset = 0;
    ref.sizes[0] = scratchElements;
    ref.strides[0] = 1;
    if constexpr (std::is_same_v<decltype(guard), float>)
      (accumulate ? _mlir_ciface_amp_rt_rounding_matmul_f16
                  : _mlir_ciface_amp_rt_rounding_matmul_overwrite_f16)(
          &x, &y, &z, &ref);
    else
      (accumulate ? _mlir_ciface_amp_rt_rounding_matmul_bf16
                  : _mlir_ciface_amp_rt_rounding_matmul_overwrite_bf16)(
          &x, &y, &z, &ref);
    for (size_t e = scratchElements; e < buffer.size(); ++e)
      ASSERT_EQ(buffer[e], guard) << "scratch overrun at " << e;
  };
  if (f16)
    call(static_cast<float *>(nullptr), 1234.5f);
  else
    call(static_cast<uint16_t *>(nullptr), uint16_t(0x5A5A));
  auto copy = descriptor<uint16_t, 2>(copyA.data(), a);
  auto w = descriptor<float, 2>(fromCopy.data(), c);
  if (f16)
    (accumulate ? _mlir_ciface_amp_rt_matmul_f16
                : _mlir_ciface_amp_rt_matmul_overwrite_f16)(&copy, &y, &w);
  else
    (accumulate ? _mlir_ciface_amp_rt_matmul_bf16
                : _mlir_ciface_amp_rt_matmul_overwrite_bf16)(&copy, &y, &w);
  // 16-bit products are exact in f32: only the summation order differs.
  double tolerance = 1e-6 * k + 1e-6;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t at = c.at(0, i, j);
      ASSERT_NEAR(result[at], expected[at], tolerance)
          << "row " << i << " col " << j;
      ASSERT_EQ(result[at], fromCopy[at]) << "row " << i << " col " << j;
    }
}

class RoundingGemm : public ::testing::TestWithParam<Input> {};

TEST_P(RoundingGemm, RoundsAInBlocksOfRows) {
  for (bool accumulate : {true, false}) {
    SCOPED_TRACE(accumulate ? "accumulate" : "overwrite");
    // A first-layer weight gradient: A is the transposed f32 input batch
    // (784 x 64), rounded 64 rows at a time (13 blocks, the last of 16).
    checkRoundingGemm(GetParam(), transposed(1, 784, 64), dense(1, 64, 256),
                      dense(1, 784, 256), 64 * 64, accumulate);
    // A first layer's forward GEMM: the 64 x 784 batch in one block.
    checkRoundingGemm(GetParam(), dense(1, 64, 784), dense(1, 784, 256),
                      dense(1, 64, 256), 64 * 784, accumulate);
    // Blocks of 5 rows, B transposed, C transposed.
    checkRoundingGemm(GetParam(), dense(1, 37, 53), transposed(1, 53, 29),
                      transposed(1, 37, 29), 5 * 53, accumulate);
    // A subview with a leading dimension and an offset; a scratch larger
    // than A.
    checkRoundingGemm(GetParam(), View{{1, 28, 32}, {0, 96, 1}, 64},
                      dense(1, 32, 20), dense(1, 28, 20), 40 * 32, accumulate);
  }
}

TEST_P(RoundingGemm, EmptySum) {
  for (bool accumulate : {true, false})
    checkRoundingGemm(GetParam(), dense(1, 4, 0), dense(1, 0, 3),
                      dense(1, 4, 3), 0, accumulate);
}

std::string inputName(const ::testing::TestParamInfo<Input> &info) {
  switch (info.param) {
  case Input::F32:
    return "f32";
  case Input::F16:
    return "f16";
  case Input::BF16:
    return "bf16";
  }
  return "unknown";
}

INSTANTIATE_TEST_SUITE_P(Inputs, GemmTest,
                         ::testing::Values(Input::F32, Input::F16, Input::BF16),
                         inputName);
INSTANTIATE_TEST_SUITE_P(Inputs, RoundingGemm,
                         ::testing::Values(Input::F16, Input::BF16), inputName);

TEST(Threads, SetAndRead) {
  int before = amprt_num_threads();
  amprt_set_num_threads(1);
  EXPECT_EQ(amprt_num_threads(), 1);
  amprt_set_num_threads(0); // ignored
  EXPECT_EQ(amprt_num_threads(), 1);
  amprt_set_num_threads(before);
  EXPECT_EQ(amprt_num_threads(), before);
}

TEST(Conversions, HalfWideningIsExactOnEveryValue) {
  // Every f16 bit pattern against the definition: sign, exponent, mantissa.
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    uint32_t exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
    double magnitude = exponent == 0 ? std::ldexp(double(mantissa), -24)
                                     : std::ldexp(double(mantissa | 0x400),
                                                  int(exponent) - 25);
    float value = amprt_f16_to_f32(static_cast<uint16_t>(bits));
    if (exponent == 0x1F) {
      ASSERT_EQ(std::isnan(value), mantissa != 0) << bits;
      if (!mantissa)
        ASSERT_TRUE(std::isinf(value)) << bits;
    } else {
      ASSERT_EQ(double(value), (bits & 0x8000) ? -magnitude : magnitude)
          << bits;
    }
    ASSERT_EQ(std::signbit(value), bool(bits & 0x8000)) << bits;
  }
}

} // namespace

namespace {

/// output += conv(input, filter) through the runtime against a double loop,
/// `count` values uniform in [-1, 1], each exactly representable in `type`.
std::vector<float> representableValues(std::mt19937 &rng, size_t count,
                                       Input type) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float &value : values)
    value = representable(uniform(rng), type);
  return values;
}

/// NHWC input, F x KH x KW x C filter, dense layouts; the input padded
/// by `padLow` zeros above and to the left and `padHigh` below and to the
/// right (the runtime's, not a copy). Without `accumulate` the output
/// starts as NaNs, which the call must never read. With an `outputGap`
/// the output's pixels lie f + outputGap floats apart, and the gaps must
/// keep their values. With `reversed` the `_reversed` entry point reads
/// the filter's taps in reverse order in H and W (a data gradient).
void checkConvolution(Input input, int64_t n, int64_t h, int64_t w, int64_t c,
                      int64_t f, int64_t kh, int64_t kw, int64_t stride,
                      int64_t dilation, int64_t padLow = 0,
                      int64_t padHigh = 0, bool accumulate = true,
                      int64_t outputGap = 0, bool reversed = false) {
  int64_t oh = (h + padLow + padHigh - dilation * (kh - 1) - 1) / stride + 1;
  int64_t ow = (w + padLow + padHigh - dilation * (kw - 1) - 1) / stride + 1;
  std::mt19937 rng(11);
  auto fill = [&](size_t count, Input type) {
    return representableValues(rng, count, type);
  };
  std::vector<float> x = fill(n * h * w * c, input),
                     k = fill(f * kh * kw * c, input);
  int64_t pixel = f + outputGap;
  std::vector<float> y = fill(n * oh * ow * pixel, Input::F32);
  std::vector<double> expected(y.begin(), y.end());
  for (size_t e = 0; e < y.size(); ++e)
    if (!accumulate && int64_t(e) % pixel < f) {
      y[e] = std::nanf("");
      expected[e] = 0.0;
    }
  double worstSum = 0.0;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t o = 0; o < f; ++o) {
          double sum = 0.0, magnitude = 0.0;
          for (int64_t p = 0; p < kh; ++p)
            for (int64_t q = 0; q < kw; ++q)
              for (int64_t ch = 0; ch < c; ++ch) {
                int64_t row = i * stride + p * dilation - padLow;
                int64_t column = j * stride + q * dilation - padLow;
                if (row < 0 || row >= h || column < 0 || column >= w)
                  continue; // a zero of the padding
                int64_t tapH = reversed ? kh - 1 - p : p;
                int64_t tapW = reversed ? kw - 1 - q : q;
                double term = double(x[((b * h + row) * w + column) * c + ch]) *
                              double(k[((o * kh + tapH) * kw + tapW) * c + ch]);
                sum += term;
                magnitude += std::fabs(term);
              }
          expected[((b * oh + i) * ow + j) * pixel + o] += sum;
          worstSum = std::max(worstSum, magnitude);
        }
  auto ref4 = [](auto *data, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
    StridedMemRef<std::remove_pointer_t<decltype(data)>, 4> ref;
    ref.allocated = ref.aligned = data;
    ref.offset = 0;
    int64_t sizes[4] = {d0, d1, d2, d3};
    int64_t stride = 1;
    for (int d = 3; d >= 0; --d) {
      ref.sizes[d] = sizes[d];
      ref.strides[d] = stride;
      stride *= sizes[d];
    }
    return ref;
  };
  auto out = ref4(y.data(), n, oh, ow, f);
  out.strides[0] = oh * ow * pixel;
  out.strides[1] = ow * pixel;
  out.strides[2] = pixel;
  if (input == Input::F32) {
    auto in = ref4(x.data(), n, h, w, c);
    auto filter = ref4(k.data(), f, kh, kw, c);
    auto *convolve =
        reversed ? (accumulate
                        ? _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_reversed_f32
                        : _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_reversed_overwrite_f32)
                 : (accumulate ? _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_f32
                               : _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_overwrite_f32);
    convolve(&in, &filter, &out, stride, stride, dilation, dilation, padLow,
             padLow, padHigh, padHigh);
  } else {
    std::vector<uint16_t> xb, kb;
    for (float v : x)
      xb.push_back(input == Input::F16 ? amprt_f32_to_f16(v)
                                       : amprt_f32_to_bf16(v));
    for (float v : k)
      kb.push_back(input == Input::F16 ? amprt_f32_to_f16(v)
                                       : amprt_f32_to_bf16(v));
    auto in = ref4(xb.data(), n, h, w, c);
    auto filter = ref4(kb.data(), f, kh, kw, c);
    auto *convolve =
        input == Input::F16
            ? (reversed
                   ? (accumulate
                          ? _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_reversed_f16
                          : _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_reversed_overwrite_f16)
                   : (accumulate
                          ? _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_f16
                          : _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_overwrite_f16))
            : (reversed
                   ? (accumulate
                          ? _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_reversed_bf16
                          : _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_reversed_overwrite_bf16)
                   : (accumulate
                          ? _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_bf16
                          : _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_overwrite_bf16));
    convolve(&in, &filter, &out, stride, stride, dilation, dilation, padLow,
             padLow, padHigh, padHigh);
  }
  // f32 accumulation: error up to ~terms * 2^-24 of the sum of |terms|
  // (blocked summation is far better; this bound is what may be assumed).
  double tolerance = 1e-7 * double(kh * kw * c) * worstSum / 16 + 1e-6;
  for (size_t e = 0; e < y.size(); ++e)
    ASSERT_NEAR(y[e], expected[e], tolerance) << "element " << e;
}

/// The grouped convolution (NGCHW input, GFCHW filter, NGFHW output, dense
/// layouts, as torch-mlir's grouped and depthwise convolutions reach it)
/// against a double-precision reference.
void checkGroupedConvolution(Input input, int64_t n, int64_t g, int64_t c,
                             int64_t f, int64_t h, int64_t w, int64_t k,
                             int64_t stride, bool accumulate = true,
                             bool reversed = false) {
  int64_t oh = (h - k) / stride + 1, ow = (w - k) / stride + 1;
  std::mt19937 rng(5);
  auto fill = [&](size_t count, Input type) {
    return representableValues(rng, count, type);
  };
  std::vector<float> x = fill(n * g * c * h * w, input),
                     weights = fill(g * f * c * k * k, input),
                     y = fill(n * g * f * oh * ow, Input::F32);
  std::vector<double> expected(y.begin(), y.end());
  if (!accumulate) {
    std::fill(y.begin(), y.end(), std::nanf(""));
    std::fill(expected.begin(), expected.end(), 0.0);
  }
  for (int64_t b = 0; b < n; ++b)
    for (int64_t gi = 0; gi < g; ++gi)
      for (int64_t o = 0; o < f; ++o)
        for (int64_t i = 0; i < oh; ++i)
          for (int64_t j = 0; j < ow; ++j) {
            double sum = 0.0;
            for (int64_t ch = 0; ch < c; ++ch)
              for (int64_t p = 0; p < k; ++p)
                for (int64_t q = 0; q < k; ++q)
                  sum += double(x[(((b * g + gi) * c + ch) * h + i * stride +
                                   p) *
                                      w +
                                  j * stride + q]) *
                         double(weights[(((gi * f + o) * c + ch) * k +
                                         (reversed ? k - 1 - p : p)) *
                                            k +
                                        (reversed ? k - 1 - q : q)]);
            expected[(((b * g + gi) * f + o) * oh + i) * ow + j] += sum;
          }
  auto ref5 = [](auto *data, std::array<int64_t, 5> sizes) {
    StridedMemRef<std::remove_pointer_t<decltype(data)>, 5> ref;
    ref.allocated = ref.aligned = data;
    ref.offset = 0;
    int64_t stride = 1;
    for (int d = 4; d >= 0; --d) {
      ref.sizes[d] = sizes[d];
      ref.strides[d] = stride;
      stride *= sizes[d];
    }
    return ref;
  };
  auto out = ref5(y.data(), {n, g, f, oh, ow});
  if (input == Input::F32) {
    auto in = ref5(x.data(), {n, g, c, h, w});
    auto filter = ref5(weights.data(), {g, f, c, k, k});
    (reversed ? (accumulate
                     ? _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_reversed_f32
                     : _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_reversed_overwrite_f32)
              : (accumulate ? _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_f32
                            : _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_overwrite_f32))(
        &in, &filter, &out, stride, stride, 1, 1, 0, 0, 0, 0);
  } else {
    std::vector<uint16_t> xb, kb;
    for (float v : x)
      xb.push_back(amprt_f32_to_bf16(v));
    for (float v : weights)
      kb.push_back(amprt_f32_to_bf16(v));
    auto in = ref5(xb.data(), {n, g, c, h, w});
    auto filter = ref5(kb.data(), {g, f, c, k, k});
    (reversed ? (accumulate
                     ? _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_reversed_bf16
                     : _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_reversed_overwrite_bf16)
              : (accumulate ? _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_bf16
                            : _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_overwrite_bf16))(
        &in, &filter, &out, stride, stride, 1, 1, 0, 0, 0, 0);
  }
  // Inputs exactly representable, f32 accumulation of c * k * k terms of
  // magnitude <= 1.
  double tolerance = 1e-6 * double(c * k * k);
  for (size_t e = 0; e < y.size(); ++e)
    ASSERT_NEAR(y[e], expected[e], tolerance) << "element " << e;
}

TEST(GroupedConvolutionTest, GroupsF32) {
  checkGroupedConvolution(Input::F32, 2, 4, 3, 5, 9, 9, 3, 1);
}
TEST(GroupedConvolutionTest, DepthwiseStridedF32) {
  checkGroupedConvolution(Input::F32, 2, 16, 1, 1, 11, 11, 3, 2);
}
TEST(GroupedConvolutionTest, DepthwiseOverwritesF32) {
  checkGroupedConvolution(Input::F32, 2, 16, 1, 1, 11, 11, 3, 2,
                          /*accumulate=*/false);
}
TEST(GroupedConvolutionTest, GroupsBF16) {
  checkGroupedConvolution(Input::BF16, 2, 2, 8, 4, 10, 10, 3, 1);
}
TEST(GroupedConvolutionTest, ReversedGroupsF32) {
  checkGroupedConvolution(Input::F32, 2, 4, 3, 5, 9, 9, 3, 1);
  checkGroupedConvolution(Input::F32, 2, 4, 3, 5, 9, 9, 3, 1,
                          /*accumulate=*/false, /*reversed=*/true);
}
TEST(GroupedConvolutionTest, ReversedDepthwiseF32) {
  // A depthwise data gradient (stride 1), overwriting and accumulating.
  checkGroupedConvolution(Input::F32, 2, 16, 1, 1, 11, 11, 3, 1,
                          /*accumulate=*/false, /*reversed=*/true);
  checkGroupedConvolution(Input::F32, 2, 16, 1, 1, 11, 11, 3, 1,
                          /*accumulate=*/true, /*reversed=*/true);
}
TEST(GroupedConvolutionTest, ReversedGroupsBF16) {
  checkGroupedConvolution(Input::BF16, 2, 2, 8, 4, 10, 10, 3, 1,
                          /*accumulate=*/false, /*reversed=*/true);
}

class ConvolutionTest : public ::testing::TestWithParam<Input> {};

TEST_P(ConvolutionTest, Forward3x3) {
  checkConvolution(GetParam(), 4, 10, 10, 8, 16, 3, 3, 1, 1);
}
TEST_P(ConvolutionTest, SingleInputChannel) {
  checkConvolution(GetParam(), 4, 30, 30, 1, 8, 3, 3, 1, 1);
}
TEST_P(ConvolutionTest, Strided) {
  checkConvolution(GetParam(), 2, 11, 11, 3, 5, 3, 3, 2, 1);
}
TEST_P(ConvolutionTest, Dilated) {
  checkConvolution(GetParam(), 2, 12, 12, 4, 6, 3, 3, 1, 2);
}
TEST_P(ConvolutionTest, Padded) {
  checkConvolution(GetParam(), 2, 8, 8, 16, 16, 3, 3, 1, 1, 1, 1);
}
TEST_P(ConvolutionTest, PaddedSingleOutput) {
  // ResNet's last stage at 32x32 images: one output per image, eight of
  // the nine taps in the padding.
  checkConvolution(GetParam(), 4, 1, 1, 32, 16, 3, 3, 1, 1, 1, 1);
}
TEST_P(ConvolutionTest, PaddedStridedPastLastWindow) {
  // 6 + 1 + 1 rows, stride 2, a 3-row window: the last padded row is read
  // by no window (linalg allows that; oneDNN needs it cut).
  checkConvolution(GetParam(), 2, 6, 6, 8, 8, 3, 3, 2, 1, 1, 1);
}
TEST_P(ConvolutionTest, StridedPastLastWindow) {
  // No padding, and the input's last row and column read by no window.
  checkConvolution(GetParam(), 2, 8, 8, 4, 4, 3, 3, 2, 1);
}
TEST_P(ConvolutionTest, DilatedWithUnevenPadding) {
  // A data gradient's form: padding k - 1 around a dilated input.
  checkConvolution(GetParam(), 2, 5, 5, 8, 4, 3, 3, 1, 2, 2, 3);
}
TEST_P(ConvolutionTest, WeightGradientOnSingleOutput) {
  // The weight gradient of PaddedSingleOutput: 1x1 maps padded to 3x3, so
  // eight of the nine outputs see only padding and keep their values.
  checkConvolution(GetParam(), 8, 1, 1, 32, 16, 1, 1, 1, 1, 1, 1);
}
TEST_P(ConvolutionTest, PaddingOnlyRowsAndTapsStridedDilated) {
  // 2x2 maps in 3 rows of padding each side, stride 2, dilation 2: the
  // first and last outputs and taps reach only padding.
  checkConvolution(GetParam(), 2, 2, 2, 8, 4, 3, 3, 2, 2, 3, 3);
}
TEST_P(ConvolutionTest, NothingButPadding) {
  // Stride 3 over a 1x1 map padded by 2: every window misses the map, so
  // the output keeps its values.
  checkConvolution(GetParam(), 2, 1, 1, 4, 4, 1, 1, 3, 1, 2, 2);
}
TEST_P(ConvolutionTest, OverwritesPaddedStrided) {
  checkConvolution(GetParam(), 2, 6, 6, 8, 8, 3, 3, 2, 1, 1, 1,
                   /*accumulate=*/false);
}
TEST_P(ConvolutionTest, OverwritesOutputsThatSeeOnlyPadding) {
  // The outputs cut off because they see only padding still get zeros.
  checkConvolution(GetParam(), 8, 1, 1, 32, 16, 1, 1, 1, 1, 1, 1,
                   /*accumulate=*/false);
}
TEST_P(ConvolutionTest, OverwritesStridedOutputThatSeesOnlyPadding) {
  // Zeros for the outputs cut off, written through the output's strides.
  checkConvolution(GetParam(), 2, 1, 1, 8, 4, 1, 1, 1, 1, 1, 1,
                   /*accumulate=*/false, /*outputGap=*/3);
}
TEST_P(ConvolutionTest, OverwritesWithNothingButPadding) {
  checkConvolution(GetParam(), 2, 1, 1, 4, 4, 1, 1, 3, 1, 2, 2,
                   /*accumulate=*/false);
}
TEST_P(ConvolutionTest, ReversedDataGradient) {
  // A 3x3 padding-1 layer's data gradient: padding 1 = (3 - 1) - 1, both
  // into zeros and accumulating.
  checkConvolution(GetParam(), 2, 8, 8, 16, 8, 3, 3, 1, 1, 1, 1,
                   /*accumulate=*/false, 0, /*reversed=*/true);
  checkConvolution(GetParam(), 2, 8, 8, 16, 8, 3, 3, 1, 1, 1, 1,
                   /*accumulate=*/true, 0, /*reversed=*/true);
}
TEST_P(ConvolutionTest, ReversedUnpaddedNonSquare) {
  // A valid (unpadded) layer's data gradient is padded by k - 1: here the
  // caller pads 2 rows and 1 column, uneven filters, a strided output.
  checkConvolution(GetParam(), 2, 6, 7, 8, 4, 3, 2, 1, 1, 2, 1,
                   /*accumulate=*/false, /*outputGap=*/2, /*reversed=*/true);
}
TEST_P(ConvolutionTest, ReversedDilatedUnevenPadding) {
  checkConvolution(GetParam(), 2, 5, 5, 8, 4, 3, 3, 1, 2, 2, 3,
                   /*accumulate=*/true, 0, /*reversed=*/true);
}
TEST_P(ConvolutionTest, ReversedSingleOutput) {
  // 1x1 maps padded by 1: eight of nine taps are cut off before oneDNN.
  checkConvolution(GetParam(), 4, 1, 1, 32, 16, 3, 3, 1, 1, 1, 1,
                   /*accumulate=*/false, 0, /*reversed=*/true);
}
TEST_P(ConvolutionTest, ReversedStrided) {
  // Stride 2 has no backward-data form: the taps are copied in order and
  // convolved forward.
  checkConvolution(GetParam(), 2, 9, 9, 4, 8, 3, 3, 2, 1, 1, 1,
                   /*accumulate=*/true, 0, /*reversed=*/true);
}
TEST_P(ConvolutionTest, ReversedPaddingWiderThanFilter) {
  // Padding 3 above a 2-tap filter: the outputs that see only padding are
  // cut off first (zeros from the runtime), the rest is backward data.
  checkConvolution(GetParam(), 2, 4, 4, 4, 8, 2, 2, 1, 1, 3, 2,
                   /*accumulate=*/false, 0, /*reversed=*/true);
}
TEST_P(ConvolutionTest, WeightGradientShape) {
  // A weight gradient as a convolution: the batch is the channel and the
  // kernel spans the whole image.
  checkConvolution(GetParam(), 1, 30, 30, 64, 8, 28, 28, 1, 1);
}

INSTANTIATE_TEST_SUITE_P(Inputs, ConvolutionTest,
                         ::testing::Values(Input::F32, Input::F16, Input::BF16),
                         inputName);

} // namespace
