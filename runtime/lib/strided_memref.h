//===- strided_memref.h - MLIR's ranked memref descriptor -------*- C++ -*-===//
//
// What a `_mlir_ciface_` function receives for a ranked memref argument
// (MLIR's C interface): the runtime's GEMMs take their operands this way.
//
//===----------------------------------------------------------------------===//

#ifndef AMPRT_STRIDED_MEMREF_H
#define AMPRT_STRIDED_MEMREF_H

#include <cstdint>

template <typename T, int Rank>
struct StridedMemRef {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

#endif // AMPRT_STRIDED_MEMREF_H
