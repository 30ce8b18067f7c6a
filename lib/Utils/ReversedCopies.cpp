//===- ReversedCopies.cpp - flipped copies their readers can skip ---------===//
//
// torch-mlir computes a convolution's data gradient as a convolution with
// the weights flipped in H and W (and transposed), materialized by a loop
// nest each step: a gather over 3x3 reversed blocks that cost ResNet-18 a
// twelfth of its step. libamprt's `_reversed` convolutions read the taps
// in reverse order themselves, so the copy can be made in order (a
// contiguous loop, or no copy at all where it copies a buffer whole).
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/ReversedCopies.h"
#include "amp/Utils/Buffers.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

/// Whether the body of `op` computes its yield from the input element
/// alone, by ops without memory effects or regions (a copy, a cast).
static bool isElementwiseOfInput(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (!body.getArgument(1).use_empty())
    return false;
  for (Operation &inner : body.without_terminator()) {
    if (inner.getNumRegions() != 0 || !isPure(&inner) ||
        isa<linalg::IndexOp>(inner))
      return false;
  }
  return true;
}

std::optional<ReversedCopy> mlir::amp::matchReversedCopy(Value root) {
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape())
    return std::nullopt;
  linalg::GenericOp copy;
  for (Operation *user : alloc->getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || !llvm::is_contained(generic.getDpsInits(), root))
      continue;
    if (copy)
      return std::nullopt; // two writers
    copy = generic;
  }
  if (!copy || !copy.hasPureBufferSemantics() ||
      copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getNumLoops() != copy.getNumParallelLoops() ||
      !copy.getMatchingIndexingMap(copy.getDpsInitOperand(0)).isIdentity() ||
      copy.getDpsInputOperand(0)->get() == root ||
      !isElementwiseOfInput(copy))
    return std::nullopt;
  ArrayRef<int64_t> shape = alloc.getType().getShape();
  AffineMap inputMap = copy.getMatchingIndexingMap(copy.getDpsInputOperand(0));
  ReversedCopy result{alloc, copy, llvm::SmallBitVector(shape.size())};
  // Each input index a loop (d) or a loop reversed over its whole range
  // (size - 1 - d).
  for (AffineExpr expr : inputMap.getResults()) {
    if (isa<AffineDimExpr>(expr))
      continue;
    auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!sum || sum.getKind() != AffineExprKind::Add)
      return std::nullopt;
    AffineExpr lhs = sum.getLHS(), rhs = sum.getRHS();
    if (isa<AffineConstantExpr>(lhs))
      std::swap(lhs, rhs);
    auto constant = dyn_cast<AffineConstantExpr>(rhs);
    auto negated = dyn_cast<AffineBinaryOpExpr>(lhs);
    if (!constant || !negated || negated.getKind() != AffineExprKind::Mul)
      return std::nullopt;
    auto loop = dyn_cast<AffineDimExpr>(negated.getLHS());
    auto minusOne = dyn_cast<AffineConstantExpr>(negated.getRHS());
    if (!loop || !minusOne || minusOne.getValue() != -1 ||
        constant.getValue() != shape[loop.getPosition()] - 1 ||
        result.reversed.test(loop.getPosition()))
      return std::nullopt;
    result.reversed.set(loop.getPosition());
  }
  if (result.reversed.none())
    return std::nullopt;
  return result;
}

std::optional<SmallVector<int64_t>> mlir::amp::getViewDims(Value view,
                                                           Value root) {
  if (view == root) {
    auto type = cast<MemRefType>(root.getType());
    return llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  }
  if (auto cast = view.getDefiningOp<memref::CastOp>())
    return getViewDims(cast.getSource(), root);
  auto transpose = view.getDefiningOp<memref::TransposeOp>();
  if (!transpose)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> sourceDims =
      getViewDims(transpose.getIn(), root);
  if (!sourceDims)
    return std::nullopt;
  // Dimension i of the transpose is dimension perm(i) of its source.
  AffineMap permutation = transpose.getPermutation();
  SmallVector<int64_t> dims;
  for (unsigned i = 0; i < permutation.getNumResults(); ++i)
    dims.push_back((*sourceDims)[permutation.getDimPosition(i)]);
  return dims;
}

void mlir::amp::copyInOrder(ReversedCopy &reversed) {
  linalg::GenericOp copy = reversed.copy;
  SmallVector<AffineMap> maps = copy.getIndexingMapsArray();
  AffineMap &inputMap = maps[0];
  SmallVector<AffineExpr> inOrder;
  for (AffineExpr expr : inputMap.getResults()) {
    // size - 1 - d becomes d.
    AffineExpr loop = expr;
    expr.walk([&](AffineExpr inner) {
      if (isa<AffineDimExpr>(inner))
        loop = inner;
    });
    inOrder.push_back(loop);
  }
  inputMap = AffineMap::get(inputMap.getNumDims(), inputMap.getNumSymbols(),
                            inOrder, copy.getContext());
  OpBuilder builder(copy);
  copy.setIndexingMapsAttr(builder.getAffineMapArrayAttr(maps));
  reversed.reversed.reset();
}

Value mlir::amp::getForwardableSource(const ReversedCopy &reversed,
                                      Operation *lastReader) {
  linalg::GenericOp copy = reversed.copy;
  memref::AllocOp buffer = reversed.buffer;
  Value source = copy.getDpsInputOperand(0)->get();
  Block &body = copy.getRegion().front();
  if (reversed.reversed.any() || source.getType() != buffer.getType() ||
      !copy.getMatchingIndexingMap(copy.getDpsInputOperand(0)).isIdentity() ||
      body.getTerminator()->getOperand(0) != body.getArgument(0) ||
      lastReader->getBlock() != copy->getBlock() ||
      !copy->isBeforeInBlock(lastReader))
    return Value();
  Value root = getRootBuffer(source);
  for (Operation *op = copy->getNextNode(); op != lastReader;
       op = op->getNextNode())
    if (mayWriteBuffer(op, root))
      return Value();
  return source;
}
