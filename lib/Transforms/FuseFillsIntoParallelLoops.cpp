//===- FuseFillsIntoParallelLoops.cpp - initialise where first used -------===//
//
// A reduction's output is filled with its initial value by a loop nest of
// its own (a linalg.fill) or, for a constant, copied from a global (on the
// GPU a host-to-device copy every step); then a parallel loop nest
// accumulates into it, each iteration into its own element. Here the fill
// moves into that loop as a store at the top of its body: every element
// still holds the initial value before its iteration first reads it, and
// nothing else sees the buffer in between, so results do not change; one
// pass over memory (one kernel launch on the GPU) less.
//
// The consumer must be the first op after the fill that touches the buffer
// (or any other view of its root), an scf.parallel with zero lower bounds
// and unit steps that visits every element once: it reaches the buffer
// only through loads and stores at one permutation of its induction
// variables, its upper bounds the buffer's dimensions in that order.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_FUSEFILLSINTOPARALLELLOOPSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// An op that sets every element of `buffer` to one value: `value`, or,
/// when null, the constant `splat`.
struct Fill {
  Value buffer;
  Value value;
  TypedAttr splat;
};
} // namespace

static bool isConstant(OpFoldResult ofr, int64_t expected) {
  std::optional<int64_t> value = getConstantIntValue(ofr);
  return value && *value == expected;
}

/// A parallel loop nest storing one value defined outside it into every
/// element of a statically shaped buffer, or a copy of a constant splat
/// global into one.
static std::optional<Fill> matchFill(Operation *op) {
  if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
    Block *body = loop.getBody();
    if (!loop.getInitVals().empty() || body->getOperations().size() != 2)
      return std::nullopt;
    auto store = dyn_cast<memref::StoreOp>(body->front());
    if (!store || loop->isAncestor(store.getValueToStore().getParentBlock()
                                       ->getParentOp()))
      return std::nullopt;
    MemRefType type = store.getMemRefType();
    if (!type.hasStaticShape() ||
        store.getIndices() != ValueRange(loop.getInductionVars()))
      return std::nullopt;
    for (auto [lower, upper, step, size] :
         llvm::zip_equal(loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep(), type.getShape()))
      if (!isConstant(lower, 0) || !isConstant(step, 1) ||
          !isConstant(upper, size))
        return std::nullopt;
    if (loop->isAncestor(store.getMemRef().getParentBlock()->getParentOp()))
      return std::nullopt;
    return Fill{store.getMemRef(), store.getValueToStore(), {}};
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    auto get = copy.getSource().getDefiningOp<memref::GetGlobalOp>();
    if (!get)
      return std::nullopt;
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
    auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
    if (!global || !global.getConstant() || !target ||
        !target.hasStaticShape())
      return std::nullopt;
    auto initial =
        dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
    if (!initial || !initial.isSplat())
      return std::nullopt;
    return Fill{copy.getTarget(), Value(),
                initial.getSplatValue<TypedAttr>()};
  }
  return std::nullopt;
}

/// The indices at which iteration `ivs` of `loop` touches `buffer`, when
/// the loop visits each element of `buffer` exactly once and reaches it
/// only through loads and stores there (see the file comment).
static std::optional<SmallVector<Value>>
elementOfIteration(scf::ParallelOp loop, Value buffer, Value root) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> ivs(loop.getInductionVars());
  if (!loop.getInitVals().empty() || type.getRank() != (int64_t)ivs.size())
    return std::nullopt;
  for (auto [lower, step] : llvm::zip(loop.getLowerBound(), loop.getStep()))
    if (!isConstant(lower, 0) || !isConstant(step, 1))
      return std::nullopt;
  std::optional<SmallVector<Value>> indices;
  WalkResult result = loop.getBody()->walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands()) {
      Value value = operand.get();
      if (!isa<BaseMemRefType>(value.getType()) ||
          getRootBuffer(value) != root)
        continue;
      ValueRange at;
      if (auto load = dyn_cast<memref::LoadOp>(inner);
          load && &operand == &load.getMemrefMutable())
        at = load.getIndices();
      else if (auto store = dyn_cast<memref::StoreOp>(inner);
               store && &operand == &store.getMemrefMutable())
        at = store.getIndices();
      else
        return WalkResult::interrupt();
      if (value != buffer || (indices && ValueRange(*indices) != at))
        return WalkResult::interrupt();
      indices = SmallVector<Value>(at);
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted() || !indices)
    return std::nullopt;
  // A permutation of the induction variables, the bounds matching.
  llvm::SmallDenseSet<Value> seen;
  for (auto [index, size] : llvm::zip_equal(*indices, type.getShape())) {
    auto it = llvm::find(ivs, index);
    if (it == ivs.end() || !seen.insert(index).second ||
        !isConstant(loop.getUpperBound()[it - ivs.begin()], size))
      return std::nullopt;
  }
  return indices;
}

/// Moves `fill` into the first op after it that touches its buffer, when
/// that op is a parallel loop as above. Returns whether it moved.
static bool fuseFill(Operation *fillOp, const Fill &fill) {
  Value root = getRootBuffer(fill.buffer);
  auto loop = dyn_cast_or_null<scf::ParallelOp>(
      findNearestUser(fillOp, root, /*forward=*/true));
  if (!loop)
    return false;
  std::optional<SmallVector<Value>> indices =
      elementOfIteration(loop, fill.buffer, root);
  if (!indices)
    return false;
  OpBuilder builder = OpBuilder::atBlockBegin(loop.getBody());
  Value value = fill.value;
  if (!value) {
    builder.setInsertionPoint(loop);
    value = arith::ConstantOp::create(builder, fillOp->getLoc(), fill.splat);
    builder.setInsertionPointToStart(loop.getBody());
  }
  memref::StoreOp::create(builder, fillOp->getLoc(), value, fill.buffer,
                          *indices);
  return true;
}

/// Replaces a copy of a splat constant by stores of the constant: a
/// parallel loop nest (a kernel on the GPU, not a host-to-device copy), or
/// one store for a rank-0 buffer (sequential code, which joins the
/// one-thread kernel of the reduction that follows).
static void storeSplat(memref::CopyOp copy, const Fill &fill) {
  OpBuilder builder(copy);
  Location loc = copy.getLoc();
  Value value = arith::ConstantOp::create(builder, loc, fill.splat);
  auto type = cast<MemRefType>(fill.buffer.getType());
  if (type.getRank() == 0) {
    memref::StoreOp::create(builder, loc, value, fill.buffer);
    return;
  }
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> lower(type.getRank(), zero), steps(type.getRank(), one);
  SmallVector<Value> upper;
  for (int64_t size : type.getShape())
    upper.push_back(arith::ConstantIndexOp::create(builder, loc, size));
  scf::ParallelOp::create(
      builder, loc, lower, upper, steps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs) {
        memref::StoreOp::create(nested, nestedLoc, value, fill.buffer, ivs);
      });
}

int64_t mlir::amp::fuseFillsIntoParallelLoops(Block &block) {
  int64_t fused = 0;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    std::optional<Fill> fill = matchFill(&op);
    if (!fill)
      continue;
    auto copy = dyn_cast<memref::CopyOp>(op);
    if (fuseFill(&op, *fill))
      ++fused;
    else if (copy)
      storeSplat(copy, *fill);
    else
      continue;
    Value source = copy ? copy.getSource() : Value();
    op.erase();
    if (source && source.use_empty())
      source.getDefiningOp()->erase(); // the memref.get_global
  }
  return fused;
}

namespace {
struct FuseFillsIntoParallelLoopsPass
    : public amp::impl::FuseFillsIntoParallelLoopsPassBase<
          FuseFillsIntoParallelLoopsPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      fuseFillsIntoParallelLoops(*block);
  }
};
} // namespace
