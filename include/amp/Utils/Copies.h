//===- Copies.h - which buffer copies the GPU does in one piece -*- C++ -*-===//

#ifndef AMP_UTILS_COPIES_H
#define AMP_UTILS_COPIES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::amp {

/// Whether `copy` is between two whole buffers of the same static shape
/// (identity layouts): one cuMemcpyAsync on the CUDA path
/// (amp-buffers-to-device-memory); any other copy is a loop nest there
/// (amp-strided-copies-to-linalg).
bool isWholeBufferCopy(memref::CopyOp copy);

} // namespace mlir::amp

#endif // AMP_UTILS_COPIES_H
