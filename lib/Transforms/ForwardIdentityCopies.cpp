//===- ForwardIdentityCopies.cpp - read the original, not a copy ----------===//
//
// torch-mlir's backward convolutions read transposed activations and write
// transposed weight gradients; amp-conv-buffer-layouts stores those
// buffers in the order the library convolution takes, so the transposes
// become element-for-element copies of one buffer into a fresh one of the
// same type. Where neither changes while the copy is read, its readers may
// as well read the original: a pass over memory and a buffer fewer (a
// loss-scaled ResNet-18 step copies each weight gradient for its overflow
// check and its update, 47 MB).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Buffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_FORWARDIDENTITYCOPIESPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The buffer `value` reshapes (through collapse_shape and expand_shape
/// only), when that buffer's layout is the identity: then `value`'s
/// elements in order are the buffer's elements in memory order.
static Value getReshapedBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def))
      value = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
      value = expand.getSrc();
    else
      break;
  }
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return {};
  return value;
}

/// Whether `op` copies every element of one buffer into another of the
/// same type in memory order: one input, one output, identity maps over
/// parallel loops, a body that yields its input.
static bool isWholeBufferCopy(linalg::GenericOp op, Value &source,
                              Value &target) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block &body = op.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || body.getOperations().size() != 1 ||
      yield.getValues().front() != body.getArgument(0))
    return false;
  Value input = op.getDpsInputs().front(), init = op.getDpsInits().front();
  if (input.getType() != init.getType())
    return false;
  source = getReshapedBuffer(input);
  target = getReshapedBuffer(init);
  return source && target && source != target &&
         source.getType() == target.getType();
}

/// Whether the readers of `target` after `copy` may read `source` instead:
/// `target` is a local allocation nothing touches before `copy` (views
/// aside), that is neither freed nor returned, and nothing from `copy` to
/// the last use of `target` writes either buffer.
static bool canForward(linalg::GenericOp copy, Value source, Value target) {
  Block *block = copy->getBlock();
  auto alloc = target.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block ||
      llvm::any_of(target.getUsers(), llvm::IsaPred<memref::DeallocOp>) ||
      findNearestUser(copy, target, /*forward=*/false))
    return false;
  // The source exists wherever the target is used.
  Operation *sourceDef = source.getDefiningOp();
  if (sourceDef &&
      (sourceDef->getBlock() != block || !sourceDef->isBeforeInBlock(alloc)))
    return false;
  Operation *lastUse =
      &*llvm::find_if(llvm::reverse(*block),
                      [&](Operation &op) { return usesBuffer(&op, target); });
  if (lastUse == copy || lastUse->hasTrait<OpTrait::IsTerminator>())
    return false;
  Value sourceRoot = getRootBuffer(source);
  for (Operation *op = copy->getNextNode();; op = op->getNextNode()) {
    if (mayWriteBuffer(op, sourceRoot) || mayWriteBuffer(op, target))
      return false;
    if (op == lastUse)
      return true;
  }
}

int64_t mlir::amp::forwardIdentityCopies(func::FuncOp func) {
  SmallVector<linalg::GenericOp> copies;
  func.walk([&](linalg::GenericOp op) { copies.push_back(op); });
  int64_t forwarded = 0;
  for (linalg::GenericOp copy : copies) {
    Value source, target;
    if (!isWholeBufferCopy(copy, source, target) ||
        !canForward(copy, source, target))
      continue;
    Operation *alloc = target.getDefiningOp();
    SmallVector<Operation *> views;
    for (Value operand : copy->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && def != alloc)
        views.push_back(def);
    copy->erase();
    target.replaceAllUsesWith(source);
    alloc->erase();
    // The views only the copy took, and the ones they took.
    eraseDeadDefinitions(views);
    ++forwarded;
  }
  return forwarded;
}

namespace {
struct ForwardIdentityCopiesPass
    : public amp::impl::ForwardIdentityCopiesPassBase<
          ForwardIdentityCopiesPass> {
  void runOnOperation() override { forwardIdentityCopies(getOperation()); }
};
} // namespace
