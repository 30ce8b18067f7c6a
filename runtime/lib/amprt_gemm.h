/*===- amprt_gemm.h - libamprt's GEMM entry points ---------------*- C++ -*-===*
 *
 * The declarations of the GEMMs of amprt_gemm.def as libamprt exports them
 * (prefix amp_rt): what compiled steps call, and what tests call directly.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMPRT_GEMM_H
#define AMPRT_GEMM_H

#include "strided_memref.h"

#include <cstdint>

extern "C" {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK)                             \
  void _mlir_ciface_amp_rt_##NAME(StridedMemRef<C_TYPE, RANK> *a,              \
                                  StridedMemRef<C_TYPE, RANK> *b,              \
                                  StridedMemRef<float, RANK> *c);
#include "amprt_gemm.def"
}

#endif // AMPRT_GEMM_H
