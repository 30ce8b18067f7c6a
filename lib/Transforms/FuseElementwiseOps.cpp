//===- FuseElementwiseOps.cpp - elementwise fusion that keeps GEMMs whole -===//
//
// Upstream's linalg-fuse-elementwise-ops fuses any single-use elementwise
// producer into its consumer, a contraction included: a cast or a ReLU
// fused into a matmul makes its body `out + f(a) * b`, which no library
// computes, and the matmul runs as scalar loops. Here a contraction
// (a linalg.generic whose body is a multiply-accumulate) only takes in
// producers that move data (transposes, broadcasts: bodies that yield an
// input unchanged); those become strides of the library call's operands.
// Named matmuls, transposes and broadcasts are generalized first so that
// they can fuse at all; convolutions and fills stay named.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Contractions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_FUSEELEMENTWISEOPSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether `op`'s body yields one of its inputs unchanged: a copy,
/// transpose or broadcast.
static bool movesDataOnly(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return false;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (&body->front() != yield.getOperation())
    return false;
  auto arg = dyn_cast<BlockArgument>(yield.getOperand(0));
  return arg && arg.getOwner() == body &&
         arg.getArgNumber() < op.getNumDpsInputs();
}

/// Whether `op` is a contraction a library should compute.
static bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() > 0 &&
         linalgOp.getNumDpsInputs() == 2 && isMultiplyAccumulate(linalgOp);
}

bool mlir::amp::shouldFuseElementwise(OpOperand *fusedOperand) {
  auto producer = fusedOperand->get().getDefiningOp<linalg::GenericOp>();
  if (!producer || !producer->hasOneUse())
    return false;
  if (isContraction(fusedOperand->getOwner()))
    return movesDataOnly(producer);
  return true;
}

namespace {
struct FuseElementwiseOpsPass
    : public amp::impl::FuseElementwiseOpsPassBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();

    IRRewriter rewriter(context);
    SmallVector<linalg::LinalgOp> named;
    root->walk([&](Operation *op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::TransposeOp,
              linalg::BroadcastOp>(op))
        named.push_back(cast<linalg::LinalgOp>(op));
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    // Upstream's pattern set, with our control function.
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn control = shouldFuseElementwise;
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    if (failed(applyPatternsGreedily(
            root, std::move(patterns),
            GreedyRewriteConfig().setUseTopDownTraversal())))
      signalPassFailure();
  }
};
} // namespace
