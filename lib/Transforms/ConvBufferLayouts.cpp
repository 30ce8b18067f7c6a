//===- ConvBufferLayouts.cpp - buffers in the order loops walk them -------===//
//
// torch-mlir's backward convolutions are forward convolutions of
// transposed operands: a weight gradient comes out (I, O, KH, KW), and the
// optimizer's update, fused into one loop nest over (O, I, KH, KW), reads
// it across rows 18 KB apart for every element it writes in order
// (ResNet-18: a seventh of its step). The library convolution writes any
// strides at the same cost, so the buffer is stored in the order the loop
// nests walk it and the convolution writes a transposed view.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Contractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CONVBUFFERLAYOUTSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The convolutions amp-contractions-to-runtime-calls makes library calls
/// (which read and write any strides).
static bool isLibraryConvolution(Operation *op) {
  return getConvLayout(op).has_value();
}

/// The loop indexing each result of `map` (d, d + c, c - d, ...), or
/// nothing where a result is indexed by none or by several.
static std::optional<SmallVector<unsigned>> getLoopOfEachDim(AffineMap map) {
  SmallVector<unsigned> loops;
  for (AffineExpr expr : map.getResults()) {
    std::optional<unsigned> loop;
    bool single = true;
    expr.walk([&](AffineExpr inner) {
      if (auto loopExpr = dyn_cast<AffineDimExpr>(inner)) {
        if (loop && *loop != loopExpr.getPosition())
          single = false;
        loop = loopExpr.getPosition();
      }
    });
    if (!loop || !single)
      return std::nullopt;
    loops.push_back(*loop);
  }
  return loops;
}

/// The buffer's dimensions in the order the loops of `map` walk them,
/// outermost first: each dimension indexed by one loop (d, d + c, c - d,
/// ...), no two by the same one. Nothing where that does not hold.
static std::optional<SmallVector<int64_t>> getWalkOrder(AffineMap map) {
  std::optional<SmallVector<unsigned>> loops = getLoopOfEachDim(map);
  if (!loops)
    return std::nullopt;
  SmallVector<std::pair<unsigned, int64_t>> loopOfDim;
  llvm::SmallBitVector usedLoops(map.getNumDims());
  for (auto [dim, loop] : llvm::enumerate(*loops)) {
    if (usedLoops.test(loop))
      return std::nullopt;
    usedLoops.set(loop);
    loopOfDim.push_back({loop, static_cast<int64_t>(dim)});
  }
  llvm::sort(loopOfDim);
  return llvm::to_vector(llvm::map_range(
      loopOfDim, [](const auto &pair) { return pair.second; }));
}

/// The order to store `alloc` in, if not its own: the one order every loop
/// nest using it walks it in, where a library convolution uses it too.
static std::optional<SmallVector<int64_t>>
chooseStorageOrder(memref::AllocOp alloc) {
  Value buffer = alloc.getResult();
  std::optional<SmallVector<int64_t>> chosen;
  bool convolved = false;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::CopyOp, memref::DeallocOp>(user))
      continue; // no order of their own
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics())
      return std::nullopt;
    if (isLibraryConvolution(user)) {
      convolved = true;
      continue;
    }
    // A contraction may become a library GEMM, which wants a unit stride.
    if (isMultiplyAccumulate(linalgOp) && linalgOp.getNumReductionLoops() > 0)
      return std::nullopt;
    // A fill, or a loop nest touching this buffer alone, has no order.
    if (llvm::all_of(user->getOperands(), [&](Value operand) {
          return operand == buffer || !isa<ShapedType>(operand.getType());
        }))
      continue;
    std::optional<SmallVector<int64_t>> order =
        getWalkOrder(linalgOp.getMatchingIndexingMap(&use));
    if (!order || (chosen && *chosen != *order))
      return std::nullopt;
    chosen = order;
  }
  if (!convolved || !chosen ||
      llvm::equal(*chosen, llvm::seq<int64_t>(0, chosen->size())))
    return std::nullopt;
  return chosen;
}

/// Stores `alloc` with its dimension `order[j]` at position j, its users
/// given a transposed view of the new buffer with the old shape.
static void storeInOrder(memref::AllocOp alloc, ArrayRef<int64_t> order) {
  MemRefType type = alloc.getType();
  SmallVector<int64_t> shape;
  SmallVector<unsigned> positionOf(order.size());
  for (auto [position, dim] : llvm::enumerate(order)) {
    shape.push_back(type.getDimSize(dim));
    positionOf[dim] = position;
  }
  OpBuilder builder(alloc);
  auto stored = memref::AllocOp::create(
      builder, alloc.getLoc(),
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace()),
      alloc.getAlignmentAttr());
  // Dimension i of the view is dimension positionOf[i] of the stored buffer.
  auto view = memref::TransposeOp::create(
      builder, alloc.getLoc(), stored.getResult(),
      AffineMapAttr::get(
          AffineMap::getPermutationMap(positionOf, builder.getContext())));
  // Loop nests index the stored buffer directly (its dimension j is the
  // old dimension order[j]): a walk in order keeps identity maps, which
  // amp-collapse-contiguous-loops can merge. The others take the view.
  for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!generic) {
      use.set(view.getResult());
      continue;
    }
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    AffineMap &map = maps[use.getOperandNumber()];
    SmallVector<AffineExpr> results;
    for (int64_t dim : order)
      results.push_back(map.getResult(dim));
    map = AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                         map.getContext());
    generic.setIndexingMapsAttr(builder.getAffineMapArrayAttr(maps));
    use.set(stored.getResult());
  }
  alloc->erase();
}

/// Whether every use of `buffer` but `except` is a library convolution's.
static bool onlyConvolutionsUse(Value buffer, Operation *except) {
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return user == except || isLibraryConvolution(user);
  });
}

/// `index` as an affine function of the loops of the linalg op it is
/// computed in (linalg.index, constants, additions, subtractions and
/// multiplications by constants), if it is one.
static std::optional<AffineExpr> getLoopExpr(Value index) {
  MLIRContext *context = index.getContext();
  if (auto loop = index.getDefiningOp<linalg::IndexOp>())
    return getAffineDimExpr(loop.getDim(), context);
  if (std::optional<int64_t> constant = getConstantIntValue(index))
    return getAffineConstantExpr(*constant, context);
  Operation *op = index.getDefiningOp();
  if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<AffineExpr> lhs = getLoopExpr(op->getOperand(0));
  std::optional<AffineExpr> rhs = getLoopExpr(op->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return *lhs + *rhs;
  if (isa<arith::SubIOp>(op))
    return *lhs - *rhs;
  if (!isa<AffineConstantExpr>(*lhs) && !isa<AffineConstantExpr>(*rhs))
    return std::nullopt; // not affine
  return *lhs * *rhs;
}

/// A loop nest without inputs whose body loads one element of a buffer at
/// affine functions of the loops and yields it, or an elementwise function
/// of it (torch-mlir's flipped, transposed filter of a data gradient; in a
/// mixed-precision step converted too), as the copy it is: that buffer an
/// input with those functions as its map.
static linalg::GenericOp loadsAsInput(linalg::GenericOp op,
                                      RewriterBase &rewriter) {
  if (op.getNumDpsInputs() != 0 || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 0)
    return op;
  Block &body = op.getRegion().front();
  memref::LoadOp load;
  for (Operation &inner : body) {
    if (auto found = dyn_cast<memref::LoadOp>(inner)) {
      if (load)
        return op;
      load = found;
    }
  }
  // A buffer from outside, not the one written.
  if (!load || op.getRegion().isAncestor(load.getMemRef().getParentRegion()) ||
      load.getMemRef() == op.getDpsInits().front())
    return op;
  SmallVector<AffineExpr> exprs;
  for (Value index : load.getIndices()) {
    std::optional<AffineExpr> expr = getLoopExpr(index);
    if (!expr)
      return op;
    exprs.push_back(*expr);
  }
  // The rest of the body: index arithmetic, constants, and pure ops that
  // compute the yielded value from the loaded one.
  llvm::SmallPtrSet<Operation *, 8> ofElement;
  SmallVector<Operation *> elementwise;
  for (Operation &inner : body.without_terminator()) {
    if (&inner == load || isa<arith::ConstantOp>(inner))
      continue;
    bool readsElement = llvm::any_of(inner.getOperands(), [&](Value operand) {
      Operation *def = operand.getDefiningOp();
      return def && (def == load || ofElement.contains(def));
    });
    if (!readsElement) {
      if (!isa<linalg::IndexOp, arith::AddIOp, arith::SubIOp, arith::MulIOp>(
              inner))
        return op;
      continue;
    }
    if (inner.getNumRegions() != 0 || !isPure(&inner) ||
        inner.getNumResults() != 1 ||
        llvm::any_of(inner.getOperands(), [&](Value operand) {
          Operation *def = operand.getDefiningOp();
          return !def || (def->getBlock() == &body && def != load &&
                          !ofElement.contains(def) &&
                          !isa<arith::ConstantOp>(def));
        }))
      return op;
    ofElement.insert(&inner);
    elementwise.push_back(&inner);
  }
  Value yielded = body.getTerminator()->getOperand(0);
  if (yielded != load.getResult() &&
      !ofElement.contains(yielded.getDefiningOp()))
    return op;
  AffineMap inputMap =
      AffineMap::get(op.getNumLoops(), 0, exprs, op.getContext());
  rewriter.setInsertionPoint(op);
  auto copy = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange(), ValueRange{load.getMemRef()},
      op.getDpsInits(),
      ArrayRef<AffineMap>{inputMap, op.getIndexingMapsArray().front()},
      op.getIteratorTypesArray(),
      [&](OpBuilder &builder, Location loc, ValueRange args) {
        IRMapping mapping;
        mapping.map(load.getResult(), args.front());
        for (Operation *inner : elementwise) {
          for (Value operand : inner->getOperands())
            if (auto constant = operand.getDefiningOp<arith::ConstantOp>();
                constant && constant->getBlock() == &body &&
                !mapping.contains(operand))
              builder.clone(*constant, mapping);
          builder.clone(*inner, mapping);
        }
        linalg::YieldOp::create(builder, loc, mapping.lookup(yielded));
      });
  rewriter.eraseOp(op);
  return copy;
}

/// The allocation `collapse` views, allocated in `collapse`'s shape
/// instead where nothing else uses it (a dense buffer collapsed is a dense
/// buffer): a later step sees the buffer its users use.
static void allocateCollapsed(memref::CollapseShapeOp collapse,
                              RewriterBase &rewriter) {
  auto alloc = collapse.getSrc().getDefiningOp<memref::AllocOp>();
  MemRefType type = collapse.getResultType();
  if (!alloc || !alloc->hasOneUse() || !type.getLayout().isIdentity() ||
      !type.hasStaticShape() ||
      alloc.getType().getNumElements() != type.getNumElements())
    return;
  rewriter.setInsertionPoint(alloc);
  auto replacement = memref::AllocOp::create(rewriter, alloc.getLoc(), type,
                                             alloc.getAlignmentAttr());
  rewriter.replaceOp(collapse, replacement.getResult());
  rewriter.eraseOp(alloc);
}

/// Whether `op` only reads `buffer`: a linalg op taking it as an input, or
/// a copy from it.
static bool onlyReads(Operation *op, Value buffer) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget() != buffer;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureBufferSemantics() &&
         llvm::none_of(linalgOp.getDpsInits(),
                       [&](Value init) { return init == buffer; });
}

/// Whether `op` overwrites all of `buffer` without reading it: a linalg op
/// with it as its identity-mapped init whose body ignores the old values.
static bool overwrites(Operation *op, Value buffer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return false;
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (init.get() == buffer)
      return linalgOp.getMatchingIndexingMap(&init).isIdentity() &&
             !linalgOp.payloadUsesValueFromOperand(&init) &&
             llvm::none_of(linalgOp.getDpsInputs(),
                           [&](Value input) { return input == buffer; });
  return false;
}

/// Gives a convolution that accumulates into a function argument just
/// filled with zeros (an out-parameter the bufferization reuses for a
/// gradient before the result is written into it) a buffer of its own,
/// zero-filled, which the ops reading the gradient read until the argument
/// is overwritten: a local buffer, whose layout this pass may choose.
static void convolveIntoOwnBuffer(Operation *conv, RewriterBase &rewriter) {
  auto linalgOp = cast<linalg::LinalgOp>(conv);
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  auto argument = dyn_cast<BlockArgument>(init->get());
  auto type = dyn_cast<MemRefType>(init->get().getType());
  if (!argument || !type || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || argument.getOwner() != conv->getBlock())
    return;
  // Zeros at the convolution: a zero fill, then only reads.
  linalg::FillOp fill;
  for (Operation *op = conv->getPrevNode(); op && !fill; op = op->getPrevNode()) {
    if (!llvm::is_contained(op->getOperands(), init->get()))
      continue;
    fill = dyn_cast<linalg::FillOp>(op);
    if (fill && (fill.getOutputs().front() != init->get() ||
                 !matchPattern(fill.getInputs().front(), m_PosZeroFloat())))
      return;
    if (!fill && !onlyReads(op, init->get()))
      return;
  }
  if (!fill)
    return;
  // Its readers after it, up to the op that overwrites the argument.
  SmallVector<OpOperand *> reads;
  Operation *overwriter = nullptr;
  for (Operation *op = conv->getNextNode(); op && !overwriter;
       op = op->getNextNode()) {
    if (!llvm::is_contained(op->getOperands(), init->get()))
      continue;
    if (overwrites(op, init->get())) {
      overwriter = op;
    } else if (onlyReads(op, init->get())) {
      for (OpOperand &operand : op->getOpOperands())
        if (operand.get() == init->get())
          reads.push_back(&operand);
    } else {
      return;
    }
  }
  if (!overwriter || reads.empty())
    return;
  rewriter.setInsertionPoint(conv);
  auto own = memref::AllocOp::create(rewriter, conv->getLoc(), type,
                                     rewriter.getI64IntegerAttr(64));
  linalg::FillOp::create(rewriter, conv->getLoc(), fill.getInputs().front(),
                         own.getResult());
  rewriter.modifyOpInPlace(conv, [&] { init->set(own.getResult()); });
  for (OpOperand *read : reads)
    rewriter.modifyOpInPlace(read->getOwner(),
                             [&] { read->set(own.getResult()); });
}

/// Interchanges the loops of `op` so that they walk its one input in
/// order, where `op` is an elementwise loop nest writing a local buffer
/// that only library convolutions read (the flipped, transposed filter of
/// a data gradient): storeInOrder then makes its writes follow.
static void walkInputInOrder(linalg::GenericOp op, RewriterBase &rewriter) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      !onlyConvolutionsUse(op.getDpsInitOperand(0)->get(), op))
    return;
  op = loadsAsInput(op, rewriter);
  if (op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return;
  Value output = op.getDpsInitOperand(0)->get();
  auto alloc = output.getDefiningOp<memref::AllocOp>();
  if (!alloc || !onlyConvolutionsUse(output, op) ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return;
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  std::optional<SmallVector<unsigned>> loops = getLoopOfEachDim(inputMap);
  if (!loops || loops->size() != op.getNumLoops() ||
      !isPermutationVector(llvm::to_vector_of<int64_t>(*loops)) ||
      llvm::equal(*loops, llvm::seq<unsigned>(0, loops->size())))
    return;
  // New loop i is the old loop that indexes the input's dimension i.
  rewriter.setInsertionPoint(op);
  (void)linalg::interchangeGenericOp(rewriter, op, *loops);
}

namespace {
struct ConvBufferLayoutsPass
    : public amp::impl::ConvBufferLayoutsPassBase<ConvBufferLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CollapseShapeOp> collapses;
    getOperation().walk(
        [&](memref::CollapseShapeOp op) { collapses.push_back(op); });
    for (memref::CollapseShapeOp op : collapses)
      allocateCollapsed(op, rewriter);
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      walkInputInOrder(op, rewriter);
    SmallVector<Operation *> convolutions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isLibraryConvolution(op) && op.hasPureBufferSemantics())
        convolutions.push_back(op);
    });
    for (Operation *conv : convolutions)
      convolveIntoOwnBuffer(conv, rewriter);

    SmallVector<std::pair<memref::AllocOp, SmallVector<int64_t>>> changes;
    getOperation().walk([&](memref::AllocOp alloc) {
      if (!alloc.getType().hasStaticShape() ||
          !alloc.getType().getLayout().isIdentity() ||
          !alloc.getDynamicSizes().empty())
        return;
      if (std::optional<SmallVector<int64_t>> order = chooseStorageOrder(alloc))
        changes.push_back({alloc, std::move(*order)});
    });
    for (auto &[alloc, order] : changes)
      storeInOrder(alloc, order);
  }
};
} // namespace
