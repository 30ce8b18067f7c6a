//===- Buffers.cpp - which buffer a memref value is a view of -------------===//

#include "amp/Utils/Buffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

/// The memref `view` aliases, when its op makes views: a view-like op, or
/// any op without memory effects taking exactly one memref (such as
/// memref.transpose, which is not a ViewLikeOpInterface).
static Value viewSource(Value view) {
  Operation *op = view.getDefiningOp();
  if (!op)
    return Value();
  if (auto viewLike = dyn_cast<ViewLikeOpInterface>(op))
    return viewLike.getViewSource();
  if (!isMemoryEffectFree(op))
    return Value();
  Value source;
  for (Value operand : op->getOperands()) {
    if (!isa<BaseMemRefType>(operand.getType()))
      continue;
    if (source)
      return Value();
    source = operand;
  }
  return source;
}

Value mlir::amp::getRootBuffer(Value value) {
  while (Value source = viewSource(value))
    value = source;
  return value;
}

bool mlir::amp::usesBuffer(Operation *op, Value root) {
  return op
      ->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (isa<BaseMemRefType>(operand.getType()) &&
              getRootBuffer(operand) == root)
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool mlir::amp::mayTouchUnlistedMemory(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        if (!isMemoryEffectFree(inner) && !isa<MemoryEffectOpInterface>(inner))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

std::optional<int64_t> mlir::amp::getStaticBufferBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t bits = type.getElementTypeBitWidth();
  // i1 and other narrow elements take a byte each, as LLVM stores them.
  return type.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
}

bool mlir::amp::isLocalAllocation(Value root) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      root.getDefiningOp());
}

bool mlir::amp::mayWriteBuffer(Operation *op, Value root) {
  bool unlisted = mayTouchUnlistedMemory(op);
  if (!usesBuffer(op, root) && (!unlisted || isLocalAllocation(root)))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || unlisted)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect()) &&
           (!e.getValue() || getRootBuffer(e.getValue()) == root);
  });
}

Operation *mlir::amp::findNearestUser(Operation *op, Value root,
                                      bool forward) {
  bool local = isLocalAllocation(root);
  for (Operation *other = forward ? op->getNextNode() : op->getPrevNode();
       other; other = forward ? other->getNextNode() : other->getPrevNode()) {
    // Views (reshapes, subviews) take the buffer but touch no memory.
    if (usesBuffer(other, root) && !isMemoryEffectFree(other))
      return other;
    if (!local && mayTouchUnlistedMemory(other))
      return nullptr;
  }
  return nullptr;
}

bool mlir::amp::hoistDefinitionsAbove(
    ArrayRef<Operation *> users, Operation *before,
    llvm::function_ref<bool(Operation *)> mayMove) {
  SetVector<Operation *> toMove;
  SmallVector<Value> worklist;
  for (Operation *user : users) {
    llvm::append_range(worklist, user->getOperands());
    user->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (!user->isAncestor(operand.getParentBlock()->getParentOp()))
          worklist.push_back(operand);
    });
  }
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != before->getBlock() ||
        def->isBeforeInBlock(before) || toMove.contains(def))
      continue;
    bool movable = isa<memref::AllocOp>(def) ||
                   (isPure(def) && def->getNumRegions() == 0) || mayMove(def);
    if (def == before || !movable)
      return false;
    toMove.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(toMove.begin(), toMove.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    op->moveBefore(before);
  return true;
}

void mlir::amp::eraseDeadDefinitions(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> worklist(ops.begin(), ops.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op || !isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      worklist.push_back(operand.getDefiningOp());
    op->erase();
  }
}
