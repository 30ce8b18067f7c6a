//===- ScheduleStepForMemory.cpp - shorter buffer lifetimes by op order ---===//
//
// Bufferization gives every tensor a buffer from its op to its last use, so
// the order of a step's ops decides its peak memory. A traced step is in
// the worst order for that: working copies of the weights cast first and
// read at the end of the forward pass or later, every weight gradient
// computed early in the backward pass and read only by the optimizer at
// the end. On tensors every side-effect-free op may move anywhere its
// operands are computed and before its users; two moves fix those two:
// computations from arguments go down to their first user, updates go up
// to where their gradients are ready.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amp {
#define GEN_PASS_DEF_SCHEDULESTEPFORMEMORYPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// An op of `block` that may move: no side effects, not the terminator.
static bool isMovable(Operation *op, Block &block) {
  return op->getBlock() == &block && !op->hasTrait<OpTrait::IsTerminator>() &&
         isMemoryEffectFree(op);
}

/// Every value `op` reads: its operands and what its regions use from
/// above.
static SmallVector<Value> getReadValues(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  llvm::SetVector<Value> above;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, above);
  values.append(above.begin(), above.end());
  return values;
}

/// Whether `value` is there from the start or can be recomputed from what
/// is: a block argument, a constant, a `tensor.empty` (no data: it holds
/// no memory until an op writes it), or the only use of an op of `block`
/// that reads only such values (a flip feeding a cast).
static bool isComputedFromArguments(Value value, Block &block,
                                    unsigned depth = 0) {
  if (isa<BlockArgument>(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (def->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(def))
    return true;
  if (depth > 4 || !isMovable(def, block) || !value.hasOneUse())
    return false;
  return llvm::all_of(getReadValues(def), [&](Value read) {
    return isComputedFromArguments(read, block, depth + 1);
  });
}

/// The first op of `block` that uses a result of `op` (or contains a use).
static Operation *getFirstUser(Operation *op, Block &block) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *inBlock = block.findAncestorOpInBlock(*user);
    if (inBlock && (!first || inBlock->isBeforeInBlock(first)))
      first = inBlock;
  }
  return first;
}

/// Moves each op that reads only arguments and constants (through
/// single-use producers) to just before its first user; users first, so a
/// producer then follows its user down.
static void sinkComputationsFromArguments(Block &block) {
  SmallVector<Operation *> ops = llvm::map_to_vector(
      llvm::reverse(block.without_terminator()), [](Operation &op) {
        return &op;
      });
  for (Operation *op : ops) {
    if (!isMovable(op, block) || op->hasTrait<OpTrait::ConstantLike>() ||
        op->getNumResults() == 0)
      continue;
    if (!llvm::all_of(getReadValues(op), [&](Value read) {
          return isComputedFromArguments(read, block);
        }))
      continue;
    Operation *first = getFirstUser(op, block);
    if (first && op->isBeforeInBlock(first) && op->getNextNode() != first)
      op->moveBefore(first);
  }
}

/// The ops that compute `func`'s update results, each with the arguments
/// the updates it computes replace: the producer of the returned value and
/// the single-use ops it reshapes (a bias's update computed collapsed).
static llvm::MapVector<Operation *, SmallVector<unsigned>>
getUpdateOps(FunctionOpInterface func, Block &block) {
  llvm::MapVector<Operation *, SmallVector<unsigned>> updates;
  Operation *ret = block.getTerminator();
  for (unsigned r = 0, e = func.getNumResults(); r < e; ++r) {
    std::optional<unsigned> arg = getUpdatedArgument(func, r);
    if (!arg || r >= ret->getNumOperands())
      continue;
    Value value = ret->getOperand(r);
    while (Operation *def = value.getDefiningOp()) {
      if (!isMovable(def, block))
        break;
      updates[def].push_back(*arg);
      // Through a reshape (one operand, one result) to what it reshapes.
      if (def->getNumOperands() != 1 || def->getNumResults() != 1 ||
          def->getNumRegions() != 0 || !def->getOperand(0).hasOneUse())
        break;
      value = def->getOperand(0);
    }
  }
  return updates;
}

/// Whether `op` may be recomputed anywhere its operands are: it only
/// names or reshapes data (`tensor.empty`, a constant, a reshape or cast).
static bool isCheap(Operation *op, Block &block) {
  return isMovable(op, block) && op->getNumRegions() == 0 &&
         op->getNumResults() == 1 &&
         (op->getNumOperands() == 0 ||
          isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp>(
              op));
}

/// The cheap ops of `block` that `op` reads, transitively (producers
/// first), and the other producers it must follow.
static void collectInputs(Operation *op, Block &block,
                          llvm::SetVector<Operation *> &cheap,
                          SmallVectorImpl<Operation *> &producers) {
  for (Value read : getReadValues(op)) {
    Operation *def = read.getDefiningOp();
    if (!def || !(def = block.findAncestorOpInBlock(*def)))
      continue;
    if (!isCheap(def, block)) {
      producers.push_back(def);
      continue;
    }
    if (cheap.contains(def))
      continue;
    collectInputs(def, block, cheap, producers);
    cheap.insert(def);
  }
}

/// Moves each update op up to just after the last op it must follow: the
/// producers of what it reads and the other readers of the arguments it
/// replaces (in program order, so reshapes follow their producers). The
/// empty tensors, constants and reshapes it reads move up with it.
static void hoistUpdates(FunctionOpInterface func, Block &block) {
  auto updates = getUpdateOps(func, block);
  SmallVector<Operation *> ops = llvm::to_vector(
      llvm::make_first_range(updates));
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  for (Operation *op : ops) {
    llvm::SetVector<Operation *> cheap;
    SmallVector<Operation *> producers;
    collectInputs(op, block, cheap, producers);
    Operation *last = nullptr;
    auto after = [&](Operation *other) {
      if (other && other != op && !cheap.contains(other) &&
          !other->hasTrait<OpTrait::IsTerminator>() &&
          (!last || last->isBeforeInBlock(other)))
        last = other;
    };
    for (Operation *producer : producers)
      after(producer);
    for (unsigned arg : updates[op])
      for (Operation *user : func.getArgument(arg).getUsers())
        after(block.findAncestorOpInBlock(*user));
    if (last && !last->isBeforeInBlock(op))
      continue;
    if (last)
      op->moveAfter(last);
    else
      op->moveBefore(&block.front());
    // What it reads from cheap ops now after it comes along, in order.
    for (Operation *input : cheap)
      if (op->isBeforeInBlock(input))
        input->moveBefore(op);
  }
}

/// Gives every user of a `tensor.empty` its own, made just before it. An
/// empty tensor names a fresh buffer; shared (CSE merges identical ones),
/// bufferization writes every user into one allocation, whose lifetime then
/// spans them all (three flipped filters of a stage in one buffer from the
/// first to the last).
static void splitSharedEmptyTensors(Block &block) {
  for (auto empty : llvm::make_early_inc_range(block.getOps<tensor::EmptyOp>())) {
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        empty->getUses(), [](OpOperand &use) { return &use; });
    if (uses.empty()) // nothing to split, nowhere to move it
      continue;
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *user = block.findAncestorOpInBlock(*use->getOwner());
      if (!user)
        continue;
      OpBuilder builder(user);
      use->set(builder.clone(*empty)->getResult(0));
    }
    if (Operation *first = getFirstUser(empty, block))
      empty->moveBefore(first);
  }
}

void mlir::amp::scheduleStepForMemory(FunctionOpInterface func) {
  if (func.isExternal() || !func.getFunctionBody().hasOneBlock())
    return;
  Block &block = func.getFunctionBody().front();
  splitSharedEmptyTensors(block);
  sinkComputationsFromArguments(block);
  hoistUpdates(func, block);
}

namespace {
struct ScheduleStepForMemoryPass
    : public amp::impl::ScheduleStepForMemoryPassBase<
          ScheduleStepForMemoryPass> {
  void runOnOperation() override { scheduleStepForMemory(getOperation()); }
};
} // namespace
