//===- LossScaling.cpp - dynamic loss scaling inside the training step ----===//
//
// Seeds the backward pass with the loss scale, unscales and checks all
// gradients in one op, skips every update on overflow and updates the
// scale, all in the compiled step (PyTorch does this in Python with a host
// sync per step). Semantics: docs/loss-scaling.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Analysis/TrainingGraph.h"
#include "amp/Transforms/TrainingTransforms.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>

namespace mlir::amp {
#define GEN_PASS_DEF_LOSSSCALINGPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The rank-0 f32 `scale` as a value of the loss's type (a single-element
/// float tensor or a float scalar).
static Value scaleAsLossType(OpBuilder &builder, Location loc, Value scale,
                             Type lossType) {
  Value scalar = tensor::ExtractOp::create(builder, loc, scale, ValueRange{});
  scalar = createFloatConversion(builder, loc, scalar,
                                 getElementTypeOrSelf(lossType));
  if (!isa<TensorType>(lossType))
    return scalar;
  return tensor::FromElementsOp::create(builder, loc, lossType, scalar);
}

/// Moves the ops between the first gradient and `unscale` that read a
/// gradient (directly or through other such ops) to just after `unscale`,
/// keeping their order: the optimizer must read unscaled gradients.
static void sinkOptimizerOps(TrainingGraph &graph, Operation *unscale) {
  llvm::DenseSet<Value> scaled;
  for (GradOp grad : graph.grads)
    scaled.insert(grad.getResult());
  SmallVector<Operation *> toMove;
  for (Operation *op = graph.grads.front()->getNextNode(); op != unscale;
       op = op->getNextNode()) {
    if (isa<GradOp>(op))
      continue;
    bool readsScaled = false;
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        readsScaled |= scaled.contains(operand);
    });
    if (!readsScaled)
      continue;
    toMove.push_back(op);
    for (Value result : op->getResults())
      scaled.insert(result);
  }
  Operation *after = unscale;
  for (Operation *op : toMove) {
    op->moveAfter(after);
    after = op;
  }
}

/// Appends a function argument and returns it.
static BlockArgument appendArgument(FunctionOpInterface func, Type type,
                                    NamedAttribute marker) {
  unsigned index = func.getNumArguments();
  MLIRContext *context = func.getContext();
  (void)func.insertArgument(index, type, DictionaryAttr::get(context, marker),
                            func.getLoc());
  return func.getArgument(index);
}

/// Appends a function result returning `value`.
static void appendResult(TrainingGraph &graph, Value value,
                         NamedAttribute marker) {
  unsigned index = graph.func.getNumResults();
  (void)graph.func.insertResult(
      index, value.getType(),
      DictionaryAttr::get(graph.func.getContext(), marker));
  graph.returnOp->insertOperands(graph.returnOp->getNumOperands(), value);
}

LogicalResult mlir::amp::applyLossScaling(TrainingGraph &graph,
                                          const LossScalingConfig &config) {
  if (config.mode == LossScalingMode::None)
    return success();
  FunctionOpInterface func = graph.func;
  if (!graph.seed)
    return emitError(func.getLoc())
           << "amp-loss-scaling: the step is already loss scaled (it has an "
              "'amp.unscale' and no 'amp.loss_grad' seed)";
  if (graph.grads.empty())
    return emitError(func.getLoc()) << "amp-loss-scaling: no 'amp.grad' in the "
                               "training step: there is nothing to unscale";
  MLIRContext *context = func.getContext();
  Location loc = func.getLoc();
  Builder attrs(context);
  OpBuilder builder(context);
  Block &entry = func.getFunctionBody().front();
  bool dynamic = config.mode == LossScalingMode::Dynamic;
  bool withHysteresis = dynamic && config.hysteresis > 1;

  // The scale: state arguments (dynamic) or a constant (static).
  auto f32Scalar = RankedTensorType::get({}, builder.getF32Type());
  auto i32Scalar = RankedTensorType::get({}, builder.getI32Type());
  auto scalerMarker = [&](StringRef role) {
    return attrs.getNamedAttr(AMPDialect::kScalerAttrName,
                              attrs.getStringAttr(role));
  };
  Value scale, tracker, hysteresis;
  unsigned firstNewArg = func.getNumArguments();
  if (dynamic) {
    scale = appendArgument(func, f32Scalar, scalerMarker("scale"));
    tracker = appendArgument(func, i32Scalar, scalerMarker("growth_tracker"));
    if (withHysteresis)
      hysteresis = appendArgument(func, i32Scalar, scalerMarker("hysteresis"));
    func->setAttr(AMPDialect::kInitialScaleAttrName,
                  attrs.getF32FloatAttr(config.scale));
    if (withHysteresis)
      func->setAttr(AMPDialect::kInitialHysteresisAttrName,
                    attrs.getI64IntegerAttr(config.hysteresis));
  } else {
    builder.setInsertionPointToStart(&entry);
    scale = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(
            f32Scalar, builder.getF32FloatAttr(config.scale).getValue()));
  }

  // The seed dL/dL = 1 becomes the scale.
  LossGradOp seed = graph.seed;
  builder.setInsertionPoint(seed);
  seed.getResult().replaceAllUsesWith(
      scaleAsLossType(builder, seed.getLoc(), scale, seed.getType()));
  seed.erase();
  graph.seed = nullptr;

  // One unscale of all gradients after the last one.
  SmallVector<Value> scaledGrads;
  for (GradOp grad : graph.grads)
    scaledGrads.push_back(grad.getResult());
  builder.setInsertionPointAfter(graph.grads.back());
  auto unscale = UnscaleOp::create(builder, graph.grads.back().getLoc(),
                                   scaledGrads, scale);
  sinkOptimizerOps(graph, unscale);
  for (auto [grad, unscaled] : llvm::zip(graph.grads, unscale.getUnscaled()))
    grad.getResult().replaceAllUsesExcept(unscaled, unscale);
  Value foundInf = unscale.getFoundInf();

  // Every update keeps its old value on overflow.
  builder.setInsertionPoint(graph.returnOp);
  for (auto [result, arg] : graph.updates) {
    Value updated = graph.returnOp->getOperand(result);
    Value skipped = SkipIfInfOp::create(builder, updated.getLoc(), foundInf,
                                        func.getArgument(arg), updated);
    graph.returnOp->setOperand(result, skipped);
  }

  // The next scale, and the signature's new results.
  auto updateOf = [&](unsigned arg) {
    return attrs.getNamedAttr(AMPDialect::kUpdateOfAttrName,
                              attrs.getI64IntegerAttr(arg));
  };
  if (dynamic) {
    auto update = UpdateScaleOp::create(
        builder, loc, foundInf, scale, tracker, hysteresis, config.growthFactor,
        config.backoffFactor, config.growthInterval, config.minScale,
        config.maxScale, config.hysteresis);
    appendResult(graph, update.getNewScale(), updateOf(firstNewArg));
    appendResult(graph, update.getNewGrowthTracker(),
                 updateOf(firstNewArg + 1));
    if (withHysteresis)
      appendResult(graph, update.getNewHysteresisTracker(),
                   updateOf(firstNewArg + 2));
  }
  appendResult(
      graph, foundInf,
      attrs.getNamedAttr(AMPDialect::kFoundInfAttrName, attrs.getUnitAttr()));
  return success();
}

namespace {
struct LossScalingPass
    : public amp::impl::LossScalingPassBase<LossScalingPass> {
  using LossScalingPassBase::LossScalingPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LossScalingConfig config;
    config.mode = mode;
    config.scale = scale;
    config.growthFactor = growthFactor;
    config.backoffFactor = backoffFactor;
    config.growthInterval = growthInterval;
    config.minScale = minScale;
    config.maxScale = maxScale;
    config.hysteresis = hysteresis;
    if (failed(config.verify(
            [&] { return emitError(module.getLoc()) << "amp-loss-scaling: "; })))
      return signalPassFailure();
    if (failed(forEachTrainingStep(module, "amp-loss-scaling",
                                   [&](TrainingGraph &graph) {
                                     return applyLossScaling(graph, config);
                                   })))
      signalPassFailure();
  }
};
} // namespace
