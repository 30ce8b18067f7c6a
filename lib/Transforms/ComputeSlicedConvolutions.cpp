//===- ComputeSlicedConvolutions.cpp - compute only what is read ----------===//
//
// torch-mlir computes the weight gradient of a strided convolution as a
// convolution one row and column too large, then slices it: ResNet-18's
// 3x3 stride-2 filters get a 4x4 gradient cut to 3x3. The rewrite is
// upstream's TilingInterface fusion of a producer into its slice; this
// pass chooses where: named convolutions whose only user is that slice.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_COMPUTESLICEDCONVOLUTIONSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// extract_slice(conv) -> conv on the input windows the slice reads.
struct ComputeOnlyTheSlice : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto result = dyn_cast<OpResult>(slice.getSource());
    if (!result || !result.hasOneUse())
      return failure();
    auto conv = dyn_cast<linalg::LinalgOp>(result.getOwner());
    if (!conv || !linalg::isaConvolutionOpInterface(conv) ||
        !conv.hasPureTensorSemantics())
      return failure();
    // A rank-reducing slice would get a result of the unreduced type.
    RankedTensorType source = slice.getSourceType(), sliced = slice.getType();
    if (!llvm::all_of(slice.getMixedStrides(), isOneInteger) ||
        sliced.getRank() != source.getRank() ||
        sliced.getNumElements() >= source.getNumElements())
      return failure();
    FailureOr<TilingResult> tiled =
        tensor::replaceExtractSliceWithTiledProducer(rewriter, slice, result);
    if (failed(tiled))
      return failure();
    rewriter.replaceOp(slice, tiled->tiledValues);
    return success();
  }
};

struct ComputeSlicedConvolutionsPass
    : public amp::impl::ComputeSlicedConvolutionsPassBase<
          ComputeSlicedConvolutionsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ComputeOnlyTheSlice>(&getContext());
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    linalg::populateSwapExtractSliceWithFillPatterns(patterns);
    // A slice of an empty tensor is a smaller empty tensor, so that the
    // convolution gets a buffer of its own size.
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
