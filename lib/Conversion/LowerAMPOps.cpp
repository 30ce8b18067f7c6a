//===- LowerAMPOps.cpp - amp ops to linalg, arith and tensor --------------===//
//
// Gives the amp ops a meaning in upstream dialects on tensors, so that the
// CPU and GPU pipelines compile them like the rest of the step.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amp {
#define GEN_PASS_DEF_LOWERAMPOPSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static Value extractScalar(OpBuilder &builder, Location loc, Value tensor) {
  return tensor::ExtractOp::create(builder, loc, tensor, ValueRange{});
}

static Value toScalarTensor(OpBuilder &builder, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      builder, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

/// `flag` or any element of `values` non-finite (|x| >= inf, unordered:
/// true for +-inf and for NaN), as a linalg.generic from `values`
/// (identity map) into `init` (map `toInit`) with the given iterators.
static Value reduceNonFinite(OpBuilder &builder, Location loc, Value values,
                             Value init, AffineMap toInit,
                             ArrayRef<utils::IteratorType> iterators) {
  auto type = cast<RankedTensorType>(values.getType());
  Type element = type.getElementType();
  AffineMap identity = builder.getMultiDimIdentityMap(type.getRank());
  auto reduce = linalg::GenericOp::create(
      builder, loc, init.getType(), values, init,
      ArrayRef<AffineMap>{identity, toInit}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value flagged = args[0];
        if (auto floatType = dyn_cast<FloatType>(element)) {
          Value magnitude = math::AbsFOp::create(b, l, args[0]);
          Value infinity = arith::ConstantOp::create(
              b, l,
              b.getFloatAttr(element,
                             APFloat::getInf(floatType.getFloatSemantics())));
          flagged = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UGE,
                                          magnitude, infinity);
        }
        linalg::YieldOp::create(
            b, l, arith::OrIOp::create(b, l, args[1], flagged).getResult());
      });
  return reduce.getResult(0);
}

/// `flag` or any element of `grad` non-finite. A gradient of rank >= 2 is
/// reduced in two stages, its rows first (parallel over all but the last
/// dimension) and then the row flags: a GPU lowering turns the first stage
/// into a kernel and keeps only the small second one sequential.
static Value anyNonFinite(OpBuilder &builder, Location loc, Value grad,
                          Value flag) {
  auto type = cast<RankedTensorType>(grad.getType());
  int64_t rank = type.getRank();
  MLIRContext *context = builder.getContext();
  if (rank < 2 || !type.hasStaticShape()) {
    SmallVector<utils::IteratorType> all(rank, utils::IteratorType::reduction);
    return reduceNonFinite(builder, loc, grad, flag,
                           AffineMap::get(rank, 0, context), all);
  }
  // Stage 1: one flag per row, [d0, ..., d(n-2)] x i1, starting false.
  auto rowsType =
      RankedTensorType::get(type.getShape().drop_back(), builder.getI1Type());
  Value noFlags = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(rowsType, false));
  SmallVector<utils::IteratorType> rowIterators(rank - 1,
                                                utils::IteratorType::parallel);
  rowIterators.push_back(utils::IteratorType::reduction);
  Value rows = reduceNonFinite(
      builder, loc, grad, noFlags,
      AffineMap::getMultiDimIdentityMap(rank, context).getMajorSubMap(rank - 1),
      rowIterators);
  // Stage 2: the row flags into `flag`.
  SmallVector<utils::IteratorType> all(rank - 1,
                                       utils::IteratorType::reduction);
  return reduceNonFinite(builder, loc, rows, flag,
                         AffineMap::get(rank - 1, 0, context), all);
}

namespace {

/// grads * (1 / scale) elementwise, and any(!isfinite(grad)) reduced over
/// every gradient into one flag.
struct LowerUnscale : OpRewritePattern<UnscaleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(UnscaleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value scale = extractScalar(rewriter, loc, op.getScale());
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getF32FloatAttr(1.0f));
    Value inverse = arith::DivFOp::create(rewriter, loc, one, scale);
    Value flag = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, rewriter.getI1Type()),
                               false));

    SmallVector<Value> unscaled;
    for (Value grad : op.getGradients()) {
      auto type = cast<RankedTensorType>(grad.getType());
      Type element = type.getElementType();
      unsigned rank = type.getRank();
      AffineMap identity = rewriter.getMultiDimIdentityMap(rank);

      Value init = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, grad), element);
      SmallVector<utils::IteratorType> parallel(rank,
                                                utils::IteratorType::parallel);
      auto scaled = linalg::GenericOp::create(
          rewriter, loc, type, grad, init,
          ArrayRef<AffineMap>{identity, identity}, parallel,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value wide = createFloatConversion(b, l, args[0], f32);
            Value product = arith::MulFOp::create(b, l, wide, inverse);
            linalg::YieldOp::create(
                b, l, createFloatConversion(b, l, product, element));
          });
      unscaled.push_back(scaled.getResult(0));

      flag = anyNonFinite(rewriter, loc, grad, flag);
    }
    unscaled.push_back(flag);
    rewriter.replaceOp(op, unscaled);
    return success();
  }
};

/// PyTorch's _amp_update_scale_ with min/max scale and DeepSpeed's
/// hysteresis, on extracted scalars.
struct LowerUpdateScale : OpRewritePattern<UpdateScaleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(UpdateScaleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto f32Const = [&](const APFloat &value) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, rewriter.getF32FloatAttr(value.convertToFloat()));
    };
    auto i32Const = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(value));
    };
    auto select = [&](Value condition, Value ifTrue, Value ifFalse) -> Value {
      return arith::SelectOp::create(rewriter, loc, condition, ifTrue, ifFalse);
    };

    Value foundInf = extractScalar(rewriter, loc, op.getFoundInf());
    Value scale = extractScalar(rewriter, loc, op.getScale());
    Value tracker = extractScalar(rewriter, loc, op.getGrowthTracker());
    Value zero = i32Const(0);

    // Overflow: back off, never below min_scale.
    Value backedOff = arith::MaximumFOp::create(
        rewriter, loc,
        arith::MulFOp::create(rewriter, loc, scale,
                              f32Const(op.getBackoffFactor())),
        f32Const(op.getMinScale()));
    Value scaleOnInf = backedOff;

    // No overflow: count, and grow at the interval unless the grown scale
    // is not finite; never above max_scale.
    Value succeeded =
        arith::AddIOp::create(rewriter, loc, tracker, i32Const(1));
    Value atInterval =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              succeeded, i32Const(op.getGrowthInterval()));
    Value grown = arith::MulFOp::create(rewriter, loc, scale,
                                        f32Const(op.getGrowthFactor()));
    Value grownIsFinite =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                              math::AbsFOp::create(rewriter, loc, grown),
                              f32Const(APFloat::getInf(APFloat::IEEEsingle())));
    Value capped = arith::MinimumFOp::create(rewriter, loc, grown,
                                             f32Const(op.getMaxScale()));
    Value scaleOnGrowth = select(grownIsFinite, capped, scale);
    Value scaleOnFinite = select(atInterval, scaleOnGrowth, scale);
    Value trackerOnFinite = select(atInterval, zero, succeeded);

    SmallVector<Value> results;
    if (Value hysteresis = op.getHysteresisTracker()) {
      // While more than one overflow is tolerated, an overflow only
      // decrements the count; a growth resets it.
      Value left = extractScalar(rewriter, loc, hysteresis);
      Value tolerated = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sgt, left, i32Const(1));
      scaleOnInf = select(tolerated, scale, backedOff);
      Value leftOnInf =
          select(tolerated,
                 arith::SubIOp::create(rewriter, loc, left, i32Const(1)), left);
      Value leftOnFinite =
          select(atInterval, i32Const(op.getHysteresis()), left);
      results.push_back(select(foundInf, scaleOnInf, scaleOnFinite));
      results.push_back(select(foundInf, zero, trackerOnFinite));
      results.push_back(select(foundInf, leftOnInf, leftOnFinite));
    } else {
      results.push_back(select(foundInf, scaleOnInf, scaleOnFinite));
      results.push_back(select(foundInf, zero, trackerOnFinite));
    }
    for (Value &result : results)
      result = toScalarTensor(rewriter, loc, result);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LowerSkipIfInf : OpRewritePattern<SkipIfInfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SkipIfInfOp op,
                                PatternRewriter &rewriter) const override {
    Value foundInf = extractScalar(rewriter, op.getLoc(), op.getFoundInf());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, foundInf, op.getOldValue(),
                                                 op.getNewValue());
    return success();
  }
};

/// The gradient marker is the identity.
/// A bucket of several tensors, or of one that is not 1-D, becomes one 1-D
/// tensor reduced by one `amp.all_reduce`: a bucket is one collective call
/// on one contiguous buffer, which is what bufferization turns the op into
/// (runtime/include/amprt_collectives.def).
struct PackAllReduce : OpRewritePattern<AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    ValueRange values = op.getValues();
    if (values.size() == 1 &&
        cast<RankedTensorType>(values.front().getType()).getRank() == 1)
      return failure();
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(values.front().getType());
    int64_t total = 0;
    for (Value value : values)
      total += cast<RankedTensorType>(value.getType()).getNumElements();
    auto flatType = [&](int64_t size) {
      return RankedTensorType::get({size}, element);
    };
    // Reshapes between a tensor and its 1-D form: every dimension in one
    // group (none for rank 0).
    auto allDims = [](int64_t rank) {
      SmallVector<ReassociationIndices> groups;
      if (rank > 0)
        groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
      return groups;
    };
    Value packed = tensor::EmptyOp::create(rewriter, loc, ArrayRef{total},
                                           element);
    int64_t offset = 0;
    for (Value value : values) {
      auto type = cast<RankedTensorType>(value.getType());
      int64_t size = type.getNumElements();
      Value flat = value;
      if (type.getRank() > 1)
        flat = tensor::CollapseShapeOp::create(rewriter, loc, value,
                                               allDims(type.getRank()));
      else if (type.getRank() == 0)
        flat = tensor::ExpandShapeOp::create(rewriter, loc, flatType(1), value,
                                             allDims(0));
      packed = tensor::InsertSliceOp::create(
          rewriter, loc, flat, packed, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(offset)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(size)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      offset += size;
    }
    Value reduced = AllReduceOp::create(rewriter, loc, ValueRange{packed},
                                        op.getReduction())
                        .getReduced()
                        .front();
    SmallVector<Value> results;
    offset = 0;
    for (Value value : values) {
      auto type = cast<RankedTensorType>(value.getType());
      int64_t size = type.getNumElements();
      Value piece = tensor::ExtractSliceOp::create(
          rewriter, loc, flatType(size), reduced,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(offset)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(size)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      if (type.getRank() > 1)
        piece = tensor::ExpandShapeOp::create(rewriter, loc, type, piece,
                                              allDims(type.getRank()));
      else if (type.getRank() == 0)
        piece = tensor::CollapseShapeOp::create(rewriter, loc, type, piece,
                                                allDims(0));
      results.push_back(piece);
      offset += size;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LowerGrad : OpRewritePattern<GradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GradOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getGradient());
    return success();
  }
};

/// dL/dL = 1.
struct LowerLossGrad : OpRewritePattern<LossGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LossGradOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto element = cast<FloatType>(getElementTypeOrSelf(type));
    TypedAttr one = rewriter.getFloatAttr(element, 1.0);
    if (auto shaped = dyn_cast<ShapedType>(type))
      one = DenseElementsAttr::get(shaped, one);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, one);
    return success();
  }
};

struct LowerAMPOpsPass
    : public amp::impl::LowerAMPOpsPassBase<LowerAMPOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerAMPOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::amp::populateLowerAMPOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerGrad, LowerLossGrad, LowerUnscale, LowerUpdateScale,
               LowerSkipIfInf, PackAllReduce>(patterns.getContext());
}
