//===- Padding.h - zero-padded copies readers can pad for ----*- C++ -*-===//

#ifndef AMP_UTILS_PADDING_H
#define AMP_UTILS_PADDING_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::amp {

/// A buffer that holds a zero-padded copy of another, as `tensor.pad` with
/// a zero bufferizes: allocated, filled with +0 (linalg.fill or a
/// linalg.map yielding the constant), one region of it written by a
/// memref.copy, then only read by linalg ops (in the same block, after the
/// copy).
struct ZeroPaddedCopy {
  memref::AllocOp buffer;
  Operation *zeroFill = nullptr;
  memref::SubViewOp interior;
  memref::CopyOp copy;
  /// Zeros before and after the interior, per dimension of the buffer.
  SmallVector<int64_t> low, high;
};

/// `value` as a ZeroPaddedCopy, if it is one.
std::optional<ZeroPaddedCopy> matchZeroPaddedCopy(Value value);

/// What `reader`, one of the padded buffer's readers, can read in place of
/// the interior: the copy's source when nothing may write it between the
/// copy and `reader`, else the interior itself.
Value getUnpaddedValue(ZeroPaddedCopy padded, Operation *reader);

/// Erases the fill of the padded buffer when no other op reads the buffer
/// any more (its readers now pad for themselves), and the buffer and its
/// copy as well when no one reads the interior either.
void eraseIfUnread(ZeroPaddedCopy padded);

} // namespace mlir::amp

#endif // AMP_UTILS_PADDING_H
