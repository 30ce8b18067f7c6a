//===- ParallelLoopsOutermost.cpp - parallel dims first in linalg.generic -===//
//
// convert-linalg-to-parallel-loops emits loops in the generic's dimension
// order; a reduction over a leading axis becomes a sequential loop around
// a parallel one, which the GPU mapping turns into one launch per step of
// the sequential loop. Interchanging the dimensions first gives one
// parallel nest with the reduction inside.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_PARALLELLOOPSOUTERMOSTPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The dimension order with parallel dimensions first, each group in its
/// original order; empty when that is already the order.
static SmallVector<unsigned> parallelFirst(linalg::GenericOp op) {
  SmallVector<unsigned> parallel, other;
  for (auto [index, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    (iterator == utils::IteratorType::parallel ? parallel : other)
        .push_back(index);
  SmallVector<unsigned> order(parallel);
  order.append(other);
  for (auto [position, dim] : llvm::enumerate(order))
    if (position != dim)
      return order;
  return {};
}

namespace {
struct ParallelLoopsOutermostPass
    : public amp::impl::ParallelLoopsOutermostPassBase<
          ParallelLoopsOutermostPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> order = parallelFirst(op);
      if (order.empty())
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order)))
        return signalPassFailure();
    }
  }
};
} // namespace
