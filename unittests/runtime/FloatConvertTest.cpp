//===- FloatConvertTest.cpp - libamprt's f32 -> f16/bf16 rounding ---------===//
//
// The branch-free narrowing (runtime/lib/float_convert.h) checked by what
// round-to-nearest-even means, on a sample of every float's bit pattern
// (every 257th, and the boundaries): the result is the representable value
// nearest to the input in exact (double) arithmetic, a tie goes to the
// even mantissa, beyond the largest finite value (plus half an ulp) is
// inf, and NaN stays NaN.
//
//===----------------------------------------------------------------------===//

#include "float_convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

using amprt::bitsToFloat;

double halfValue(uint16_t bits) { return amprt::halfToFloat(bits); }
double bfloat16Value(uint16_t bits) { return amprt::bfloat16ToFloat(bits); }

/// Checks that `result` is `value` rounded to nearest even among the
/// format's values `decode` gives, for a finite `value`.
template <typename Decode>
void expectNearestEven(float value, uint16_t result, Decode decode,
                       uint16_t infinity) {
  uint16_t magnitude = result & 0x7FFF;
  double exact = std::fabs(static_cast<double>(value));
  ASSERT_EQ(result >> 15, std::signbit(value) ? 1 : 0) << value;
  if (magnitude == infinity) {
    // Overflow: at least halfway past the largest finite value.
    double largest = decode(infinity - 1), ulp = largest - decode(infinity - 2);
    ASSERT_GE(exact, largest + ulp / 2) << value;
    return;
  }
  ASSERT_LT(magnitude, infinity) << value;
  double chosen = decode(magnitude);
  double below = magnitude ? decode(magnitude - 1) : -decode(1);
  double above = decode(magnitude + 1);
  double error = std::fabs(exact - chosen);
  ASSERT_LE(error, std::fabs(exact - below)) << value;
  ASSERT_LE(error, std::fabs(exact - above)) << value;
  if (error == std::fabs(exact - below) || error == std::fabs(exact - above))
    ASSERT_EQ(magnitude & 1, 0) << "tie not to even: " << value;
}

/// `narrow` checked on every 257th bit pattern: NaN stays NaN, inf stays
/// inf, every finite value rounds to nearest even.
template <typename Narrow, typename Decode>
void checkSampledPatterns(Narrow narrow, Decode decode, uint16_t infinity) {
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 257) {
    float value = bitsToFloat(static_cast<uint32_t>(bits));
    uint16_t result = narrow(value);
    if (std::isnan(value))
      ASSERT_TRUE(std::isnan(decode(result))) << bits;
    else if (std::isinf(value))
      ASSERT_EQ(result & 0x7FFF, infinity) << bits;
    else
      expectNearestEven(value, result, decode, infinity);
  }
}

TEST(FloatConvert, HalfRoundsToNearestEven) {
  checkSampledPatterns(amprt::floatToHalf, halfValue, 0x7C00);
  // The boundaries: the largest finite half, halfway to inf, the smallest
  // subnormal and half of it (a tie to even zero).
  EXPECT_EQ(amprt::floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(amprt::floatToHalf(65519.996f), 0x7BFF);
  EXPECT_EQ(amprt::floatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(amprt::floatToHalf(0x1p-24f), 0x0001);
  EXPECT_EQ(amprt::floatToHalf(0x1p-25f), 0x0000);
  EXPECT_EQ(amprt::floatToHalf(-0x1.8p-24f), 0x8002);
}

TEST(FloatConvert, Bfloat16RoundsToNearestEven) {
  checkSampledPatterns(amprt::floatToBfloat16, bfloat16Value, 0x7F80);
  EXPECT_EQ(amprt::floatToBfloat16(0x1.01p0f), 0x3F80); // tie to even
  EXPECT_EQ(amprt::floatToBfloat16(0x1.03p0f), 0x3F82); // tie to even
}

} // namespace
