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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp &&
         isa<linalg::Conv2DNhwcFhwcOp, linalg::Conv2DNchwFchwOp,
             linalg::Conv2DNgchwGfchwOp, linalg::DepthwiseConv2DNchwChwOp>(
             op) &&
         isMultiplyAccumulate(linalgOp);
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
  alloc.getResult().replaceAllUsesWith(view.getResult());
  alloc->erase();
}

/// Whether every use of `buffer` but `except` is a library convolution's.
static bool onlyConvolutionsUse(Value buffer, Operation *except) {
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return user == except || isLibraryConvolution(user);
  });
}

/// Interchanges the loops of `op` so that they walk its one input in
/// order, where `op` is an elementwise loop nest writing a local buffer
/// that only library convolutions read (the flipped, transposed filter of
/// a data gradient): storeInOrder then makes its writes follow.
static void walkInputInOrder(linalg::GenericOp op, RewriterBase &rewriter) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
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
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      walkInputInOrder(op, rewriter);

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
