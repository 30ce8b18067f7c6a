//===- ReversedCopies.h - flipped copies their readers can skip -*- C++ -*-===//

#ifndef AMP_UTILS_REVERSEDCOPIES_H
#define AMP_UTILS_REVERSEDCOPIES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallBitVector.h"

#include <optional>

namespace mlir::amp {

/// A fresh buffer written whole by one loop nest that copies another
/// buffer, or converts it element by element, with some of its dimensions
/// reversed (element i of such a dimension is element size-1-i of the
/// source's). torch-mlir's data gradient convolves with such a copy of the
/// weights, flipped in H and W; a convolution that reads its filter taps in
/// reverse order itself can read a copy in order instead.
struct ReversedCopy {
  memref::AllocOp buffer;
  linalg::GenericOp copy;
  /// The dimensions of `buffer` the copy reverses.
  llvm::SmallBitVector reversed;
};

/// `root` as a ReversedCopy, if it is one. Its other users are not looked
/// at: the caller decides whether all of them can read it in order.
std::optional<ReversedCopy> matchReversedCopy(Value root);

/// The dimension of `root` each dimension of `view` is, where `view` is
/// `root` or a transposed or cast view of it; nothing otherwise.
std::optional<SmallVector<int64_t>> getViewDims(Value view, Value root);

/// Makes `reversed.copy` write the buffer in the source's order.
void copyInOrder(ReversedCopy &reversed);

/// The source of `reversed.copy`, once in order, where the copy is a plain
/// whole copy of a buffer of the same type and nothing may write that
/// buffer between the copy and `lastReader`: the readers can read it
/// instead. Null otherwise.
Value getForwardableSource(const ReversedCopy &reversed,
                           Operation *lastReader);

} // namespace mlir::amp

#endif // AMP_UTILS_REVERSEDCOPIES_H
