/*===- amprt_gemm.h - libamprt's GEMM and convolution entry points -*- C++
 *-*-===*
 *
 * The declarations of amprt_gemm.def's and amprt_rounding_gemm.def's GEMMs
 * and amprt_conv.def's convolutions as libamprt exports them (prefix
 * amp_rt): what compiled steps call, and what tests call directly.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMPRT_GEMM_H
#define AMPRT_GEMM_H

#include "strided_memref.h"

#include <cstdint>

extern "C" {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, OUTPUT_TYPE,    \
                   OUTPUT_C_TYPE)                                              \
  void _mlir_ciface_amp_rt_##NAME(StridedMemRef<C_TYPE, RANK> *a,              \
                                  StridedMemRef<C_TYPE, RANK> *b,              \
                                  StridedMemRef<OUTPUT_C_TYPE, RANK> *c);
#include "amprt_gemm.def"
#define AMPRT_CONV(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, REVERSED)       \
  void _mlir_ciface_amp_rt_##NAME(                                             \
      StridedMemRef<C_TYPE, RANK> *input, StridedMemRef<C_TYPE, RANK> *filter, \
      StridedMemRef<float, RANK> *output, int64_t stride_h, int64_t stride_w,  \
      int64_t dilation_h, int64_t dilation_w, int64_t pad_top,                 \
      int64_t pad_left, int64_t pad_bottom, int64_t pad_right);
#include "amprt_conv.def"
#define AMPRT_ROUNDING_GEMM(NAME, INPUT_TYPE, SCRATCH_TYPE, SCRATCH_C_TYPE,    \
                            ACCUMULATE)                                        \
  void _mlir_ciface_amp_rt_##NAME(                                             \
      StridedMemRef<float, 2> *a, StridedMemRef<uint16_t, 2> *b,               \
      StridedMemRef<float, 2> *c, StridedMemRef<SCRATCH_C_TYPE, 1> *scratch);
#include "amprt_rounding_gemm.def"
}

#endif // AMPRT_GEMM_H
