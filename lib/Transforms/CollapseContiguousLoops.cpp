//===- CollapseContiguousLoops.cpp - one loop for contiguous dimensions ---===//
//
// The loop nests of a CPU step vectorize their innermost loop only. Where
// a loop nest's last loops walk memory that is contiguous in every
// operand, they are one loop in all but name; merging them gives the
// vectorizer a loop of 4608 elements instead of three (a 3x3 filter) or
// one (a 1x1 image). Upstream's collapseOpIterationDims does the rewrite;
// this pass picks the loops it may merge on buffers, where the memref's
// strides, not only the indexing maps, decide.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Contractions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_COLLAPSECONTIGUOUSLOOPSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether merging `loops` keeps every operand of `op` collapsible: each
/// operand indexes all of them as consecutive results, in order, over
/// dimensions that are contiguous in its memref, or none of them.
static bool canMerge(linalg::GenericOp op, ReassociationIndicesRef loops) {
  if (!llvm::all_of(op.getIndexingMapsArray(), [&](AffineMap map) {
        return linalg::isDimSequencePreserved(map, loops);
      }))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    // The results that are the merged loops (consecutive, as checked).
    std::optional<int64_t> first;
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && dim.getPosition() == static_cast<unsigned>(loops.front()))
        first = position;
    if (!first)
      continue;
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0; d < type.getRank();) {
      int64_t width = d == *first ? static_cast<int64_t>(loops.size()) : 1;
      reassociation.push_back(
          llvm::to_vector(llvm::seq<int64_t>(d, d + width)));
      d += width;
    }
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, reassociation))
      return false;
  }
  return true;
}

/// The runs of consecutive loops of `op` that may be one loop.
static SmallVector<ReassociationIndices>
getMergeableLoops(linalg::LinalgOp linalgOp) {
  auto op = dyn_cast<linalg::GenericOp>(linalgOp.getOperation());
  // Maps of plain loops only (a flip's `2 - d` is no dimension sequence);
  // no linalg.index, which would cost a delinearization per element.
  if (!op || !op.hasPureBufferSemantics() || isMultiplyAccumulate(op) ||
      op.hasIndexSemantics() ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic) ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation();
      }))
    return {};
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  SmallVector<ReassociationIndices> runs;
  int64_t loops = op.getNumLoops();
  for (int64_t start = 0; start < loops;) {
    ReassociationIndices run = {start};
    for (int64_t next = start + 1; next < loops && kinds[next] == kinds[start];
         ++next) {
      ReassociationIndices longer = run;
      longer.push_back(next);
      if (!canMerge(op, longer))
        break;
      run = std::move(longer);
    }
    start += run.size();
    if (run.size() > 1)
      runs.push_back(std::move(run));
  }
  return runs;
}

namespace {
struct CollapseContiguousLoopsPass
    : public amp::impl::CollapseContiguousLoopsPassBase<
          CollapseContiguousLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics) {
      SmallVector<ReassociationIndices> runs = getMergeableLoops(op);
      if (runs.empty())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, runs, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.replaceOp(op, collapsed->results);
    }
  }
};
} // namespace
