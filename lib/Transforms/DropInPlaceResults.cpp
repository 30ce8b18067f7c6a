//===- DropInPlaceResults.cpp - no result for an argument's own buffer ----===//
//
// After One-Shot Bufferize, a state update tied to its argument
// (amp-update-arguments-in-place) is returned as the argument's buffer.
// The caller holds that buffer already, so the result goes; left in,
// buffer-results-to-out-params would copy the argument into an out-param
// every step. The copies of such an argument onto itself (bufferization's
// form of a materialization already in place) go too.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::amp {
#define GEN_PASS_DEF_DROPINPLACERESULTSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `value` without an expansion of a collapse of a buffer back to that
/// buffer's own type (an update computed in place through a collapsed view
/// of its argument, amp-update-arguments-in-place): the same memory in the
/// same layout.
static Value stripReshapeRoundTrip(Value value) {
  auto expand = value.getDefiningOp<memref::ExpandShapeOp>();
  if (!expand)
    return value;
  auto collapse = expand.getSrc().getDefiningOp<memref::CollapseShapeOp>();
  if (!collapse || collapse.getSrc().getType() != value.getType())
    return value;
  return collapse.getSrc();
}

LogicalResult mlir::amp::dropInPlaceResults(FunctionOpInterface func) {
  if (func.isExternal())
    return success();
  SmallVector<Operation *> returns;
  for (Block &block : func.getFunctionBody())
    if (!block.empty() && block.back().hasTrait<OpTrait::ReturnLike>())
      returns.push_back(&block.back());
  llvm::BitVector dropped(func.getNumResults());
  for (unsigned r = 0, e = func.getNumResults(); r < e; ++r) {
    std::optional<unsigned> arg = getInPlaceUpdateTarget(func, r);
    if (!arg)
      continue;
    for (Operation *ret : returns) {
      Value returned = stripReshapeRoundTrip(ret->getOperand(r));
      if (returned != func.getArgument(*arg))
        return func.emitError()
               << "amp-drop-in-place-results: result " << r << " of @"
               << func.getName() << " updates argument " << *arg
               << " in place but is not that argument's buffer; run "
                  "amp-update-arguments-in-place before one-shot-bufferize";
    }
    dropped.set(r);
  }
  // What an update computed in place was copied "into" its argument:
  // itself.
  func.walk([](memref::CopyOp copy) {
    if (copy.getSource() == copy.getTarget())
      copy.erase();
  });
  if (dropped.none())
    return success();
  for (Operation *ret : returns)
    ret->eraseOperands(dropped);
  return func.eraseResults(dropped);
}

namespace {
struct DropInPlaceResultsPass
    : public amp::impl::DropInPlaceResultsPassBase<DropInPlaceResultsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](FunctionOpInterface func) {
      return failed(dropInPlaceResults(func)) ? WalkResult::interrupt()
                                              : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
