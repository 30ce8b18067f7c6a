//===- float_convert.h - inline f16/bf16 widening for bulk loops -*- C++
//-*-===//
//
// Branch-free, so that a loop over a buffer vectorizes: the runtime's
// widening of f16/bf16 GEMM operands calls these per element, and libamprt's
// exported amprt_f16_to_f32 / amprt_bf16_to_f32 are these too.
//
//===----------------------------------------------------------------------===//

#ifndef AMPRT_FLOAT_CONVERT_H
#define AMPRT_FLOAT_CONVERT_H

#include <cstdint>
#include <cstring>

namespace amprt {

inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline uint32_t floatToBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// IEEE half to float, exact. The exponent and mantissa moved into a float's
/// place read as 2^-112 times the value (normal and subnormal halves alike:
/// a half subnormal lands on a float subnormal), so one multiplication by
/// 2^112 rebiases; infinities and NaNs keep an all-ones exponent.
inline float halfToFloat(uint16_t half) {
  uint32_t magnitude = static_cast<uint32_t>(half & 0x7FFFu) << 13;
  float value = bitsToFloat(magnitude) * 0x1p112f;
  uint32_t bits = (half & 0x7FFFu) >= 0x7C00u ? (magnitude | 0x7F800000u)
                                              : floatToBits(value);
  return bitsToFloat(bits | (static_cast<uint32_t>(half & 0x8000u) << 16));
}

/// bfloat16 to float, exact: the upper half of a float.
inline float bfloat16ToFloat(uint16_t value) {
  return bitsToFloat(static_cast<uint32_t>(value) << 16);
}

/// float to IEEE half, round to nearest even, without branches so that a
/// loop over a buffer vectorizes. Normal halves round their mantissa in the
/// integer bits (the carry may move into the exponent, up to inf);
/// subnormal halves are the multiples of 2^-24, rounded to an integer
/// count of them by the FPU (adding and subtracting 2^23).
inline uint16_t floatToHalf(float value) {
  // Signed 32-bit arithmetic throughout (the magnitude is below 2^31):
  // what baseline x86-64 (SSE2) has vector compares and conversions for.
  uint32_t bits = floatToBits(value);
  int32_t sign = static_cast<int32_t>((bits >> 16) & 0x8000u);
  int32_t magnitude = static_cast<int32_t>(bits & 0x7FFFFFFFu);
  // Unsigned: for a NaN the sum passes 2^31 (and is not used).
  uint32_t rounded =
      (bits & 0x7FFFFFFFu) + 0xFFFu + ((bits >> 13) & 1u);
  int32_t normal = static_cast<int32_t>(rounded >> 13) -
                   (112 << 10); // exponent 127 -> 15
  // Clamped to 2^-14 so that the conversion to an integer is defined for
  // every input (inf and NaN included); only used below 2^-14.
  float tiny = bitsToFloat(static_cast<uint32_t>(
      magnitude < 0x38800000 ? magnitude : 0x38800000));
  int32_t subnormal =
      static_cast<int32_t>((tiny * 0x1p24f + 0x1p23f) - 0x1p23f);
  int32_t half = magnitude < 0x38800000   ? subnormal
                 : magnitude < 0x477FF000 ? normal  // rounds below 65520
                 : magnitude <= 0x7F800000 ? 0x7C00 // overflows to inf
                                           : 0x7E00; // NaN, quiet
  return static_cast<uint16_t>(sign | half);
}

/// float to bfloat16, round to nearest even; NaN stays a quiet NaN.
inline uint16_t floatToBfloat16(float value) {
  uint32_t bits = floatToBits(value);
  uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
  uint32_t quietNaN = (bits >> 16) | 0x40u;
  return static_cast<uint16_t>((bits & 0x7FFFFFFFu) > 0x7F800000u ? quietNaN
                                                                  : rounded);
}

/// dst[0..count) = widen(src[0], src[stride], ...): one row of an operand
/// into dense f32, the unit-stride case as its own loop so that it
/// vectorizes.
template <typename T, typename Widen>
inline void widenRow(const T *src, int64_t stride, int64_t count, float *dst,
                     Widen widen) {
  if (stride == 1) {
    for (int64_t i = 0; i < count; ++i)
      dst[i] = widen(src[i]);
  } else {
    for (int64_t i = 0; i < count; ++i)
      dst[i] = widen(src[i * stride]);
  }
}

} // namespace amprt

#endif // AMPRT_FLOAT_CONVERT_H
