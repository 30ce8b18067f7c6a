//===- DataParallel.cpp - gradients averaged over ranks inside the step ---===//
//
// Data-parallel training: every rank runs the same step on its shard of the
// global batch. The collectives are placed in the compiled step itself: the
// gradient buckets as soon as the backward pass has produced them, the
// overflow decision reduced so that every rank skips together, and the
// rank-local results (loss, batch-norm statistics) averaged before they
// leave the step. Semantics: docs/data-parallel.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Analysis/TrainingGraph.h"
#include "amp/Transforms/TrainingTransforms.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <cmath>

namespace mlir::amp {
#define GEN_PASS_DEF_DATAPARALLELPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static FloatType getReduceElementType(GradientReduceType type,
                                      MLIRContext *context) {
  if (type == GradientReduceType::F32)
    return Float32Type::get(context);
  return getLowPrecisionType(type == GradientReduceType::F16
                                 ? LowPrecision::F16
                                 : LowPrecision::BF16,
                             context);
}

/// Whether any operand of `op` or of an op nested in it is in `values`.
static bool readsAny(Operation *op, const llvm::DenseSet<Value> &values) {
  bool found = false;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      found |= values.contains(operand);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// An argument that carries the rank's shard of the batch: a data argument
/// (no param, state, scaler or working-copy marker) of rank >= 1. Rank-0
/// data (the learning rate) is the same on every rank.
static bool isShardedArgument(FunctionOpInterface func, unsigned index) {
  for (StringRef marker :
       {AMPDialect::kParamAttrName, AMPDialect::kStateAttrName,
        AMPDialect::kScalerAttrName, AMPDialect::kWorkingCopyOfAttrName})
    if (func.getArgAttr(index, marker))
      return false;
  auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[index]);
  return type && type.getRank() >= 1;
}

namespace {
/// A gradient on its way to `amp.grad`, with its place in the step.
struct LocalGradient {
  GradOp grad;
  Value local;
  int64_t position; // of its definition in the entry block; -1: an argument
  int64_t bytes;    // in the reduce type
};
} // namespace

/// `values` (tensors) converted to `elementType`, reduced together by one
/// `amp.all_reduce`, and converted back; returns the reduced values.
static SmallVector<Value> createBucket(OpBuilder &builder, Location loc,
                                       ValueRange values, Type elementType,
                                       Reduction reduction) {
  SmallVector<Value> converted;
  for (Value value : values) {
    auto type = cast<RankedTensorType>(value.getType());
    converted.push_back(createFloatConversion(builder, loc, value,
                                              type.clone(elementType)));
  }
  auto reduce = AllReduceOp::create(builder, loc, converted, reduction);
  SmallVector<Value> results;
  for (auto [value, reduced] : llvm::zip(values, reduce.getReduced()))
    results.push_back(
        createFloatConversion(builder, loc, reduced, value.getType()));
  return results;
}

/// Moves every op from `first` up to (not including) `end` that is one of
/// `moved` or reads their results, transitively, to just after `after`,
/// keeping their order. Fails (with a located error) when such an op also
/// defines one of `mustStay`.
static LogicalResult sinkAfter(Operation *first, Operation *end,
                               Operation *after,
                               const llvm::DenseSet<Operation *> &moved,
                               const llvm::DenseSet<Value> &mustStay) {
  llvm::DenseSet<Value> dirty;
  SmallVector<Operation *> toMove;
  for (Operation *op = first; op != end; op = op->getNextNode()) {
    if (!moved.contains(op) && !readsAny(op, dirty))
      continue;
    for (Value result : op->getResults()) {
      if (mustStay.contains(result))
        return op->emitError(
            "amp-data-parallel: a gradient is computed from the gradient of "
            "another param; gradients must only depend on the forward and "
            "backward passes");
      dirty.insert(result);
    }
    toMove.push_back(op);
  }
  for (Operation *op : toMove) {
    op->moveAfter(after);
    after = op;
  }
  return success();
}

/// Averages every gradient over the ranks, in buckets filled in the order
/// the backward pass produces the gradients.
static LogicalResult reduceGradients(TrainingGraph &graph,
                                     const DataParallelConfig &config) {
  Block &entry = graph.func.getFunctionBody().front();
  MLIRContext *context = graph.func.getContext();
  Type reduceType = getReduceElementType(config.reduceType, context);
  int64_t reduceBytes = reduceType.getIntOrFloatBitWidth() / 8;

  llvm::DenseMap<Operation *, int64_t> positions;
  int64_t next = 0;
  for (Operation &op : entry)
    positions[&op] = next++;

  SmallVector<LocalGradient> gradients;
  for (GradOp grad : graph.grads) {
    auto type = dyn_cast<RankedTensorType>(grad.getGradient().getType());
    if (!type)
      return grad.emitError("amp-data-parallel: the gradient of param ")
             << grad.getParam() << " is a scalar; only tensor gradients can "
             << "be reduced across ranks";
    if (grad->getBlock() != &entry)
      return grad.emitError("amp-data-parallel: 'amp.grad' must be at the "
                            "top level of the step");
    Value local = grad.getGradient();
    int64_t position = -1;
    if (Operation *def = local.getDefiningOp())
      position = positions.lookup(entry.findAncestorOpInBlock(*def));
    gradients.push_back(
        {grad, local, position, type.getNumElements() * reduceBytes});
  }
  llvm::stable_sort(gradients, [](const LocalGradient &a,
                                  const LocalGradient &b) {
    return a.position < b.position;
  });

  // Greedy buckets in production order; a gradient larger than the limit
  // is a bucket of its own.
  double limit = config.bucketMiB * 1024.0 * 1024.0;
  SmallVector<SmallVector<LocalGradient>> buckets;
  double filled = 0;
  for (const LocalGradient &gradient : gradients) {
    if (buckets.empty() || filled + gradient.bytes > limit) {
      buckets.emplace_back();
      filled = 0;
    }
    buckets.back().push_back(gradient);
    filled += gradient.bytes;
  }

  OpBuilder builder(context);
  for (MutableArrayRef<LocalGradient> bucket : buckets) {
    LocalGradient &last = bucket.back();
    if (last.position < 0)
      builder.setInsertionPointToStart(&entry);
    else
      builder.setInsertionPointAfter(
          entry.findAncestorOpInBlock(*last.local.getDefiningOp()));
    SmallVector<Value> locals;
    for (const LocalGradient &gradient : bucket)
      locals.push_back(gradient.local);
    SmallVector<Value> reduced = createBucket(
        builder, last.grad.getLoc(), locals, reduceType, Reduction::Mean);
    Operation *lastCreated = reduced.back().getDefiningOp();
    // The first op created for the bucket.
    Operation *bucketStart =
        last.position < 0
            ? &entry.front()
            : entry.findAncestorOpInBlock(*last.local.getDefiningOp())
                  ->getNextNode();

    llvm::DenseSet<Operation *> early;
    llvm::DenseSet<Value> locally;
    Operation *firstEarly = nullptr;
    for (auto [gradient, value] : llvm::zip(bucket, reduced)) {
      gradient.grad.getGradientMutable().assign(value);
      locally.insert(gradient.local);
      if (gradient.grad->isBeforeInBlock(bucketStart)) {
        early.insert(gradient.grad);
        if (!firstEarly || gradient.grad->isBeforeInBlock(firstEarly))
          firstEarly = gradient.grad;
      }
    }
    // An `amp.grad` placed before the bucket's last gradient exists moves
    // after the reduction, with whatever reads it.
    if (firstEarly && failed(sinkAfter(firstEarly, bucketStart, lastCreated,
                                       early, locally)))
      return failure();
  }
  return success();
}

/// Every rank takes the overflow decision of all: `found_inf` is reduced
/// with `max` right after the unscale.
static void reduceFoundInf(TrainingGraph &graph) {
  SmallVector<UnscaleOp> unscales;
  graph.func.getFunctionBody().walk(
      [&](UnscaleOp unscale) { unscales.push_back(unscale); });
  for (UnscaleOp unscale : unscales) {
    OpBuilder builder(unscale->getContext());
    builder.setInsertionPointAfter(unscale);
    Value foundInf = unscale.getFoundInf();
    auto reduce = AllReduceOp::create(builder, unscale.getLoc(),
                                      ValueRange{foundInf}, Reduction::Max);
    foundInf.replaceAllUsesExcept(reduce.getReduced().front(), reduce);
  }
}

/// The values of the step that differ between ranks: everything computed
/// from a sharded argument, except what an `amp.all_reduce` returns.
static llvm::DenseSet<Value> getRankLocalValues(TrainingGraph &graph) {
  llvm::DenseSet<Value> local;
  FunctionOpInterface func = graph.func;
  Block &entry = func.getFunctionBody().front();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (isShardedArgument(func, i))
      local.insert(entry.getArgument(i));
  for (Operation &op : entry) {
    if (isa<AllReduceOp>(op) || !readsAny(&op, local))
      continue;
    for (Value result : op.getResults())
      local.insert(result);
  }
  return local;
}

/// Averages the results that still differ between ranks: the loss and
/// rank-dependent updates (batch-norm running statistics), in one bucket per
/// element type placed before the first op that returns or keeps one of
/// them. An update that `amp.skip_if_inf` keeps on overflow is averaged
/// before it, so that a skipped step leaves it bit-identical.
static LogicalResult reduceRankLocalResults(TrainingGraph &graph) {
  llvm::DenseSet<Value> local = getRankLocalValues(graph);
  FunctionOpInterface func = graph.func;
  Operation *returnOp = graph.returnOp;
  Block *entry = returnOp->getBlock();
  // The uses to redirect, by element type, in result order.
  llvm::MapVector<Type, SmallVector<OpOperand *>> buckets;
  for (unsigned i = 0, e = returnOp->getNumOperands(); i < e; ++i) {
    Value value = returnOp->getOperand(i);
    if (!local.contains(value))
      continue;
    bool isLoss = i == graph.lossResult;
    bool isUpdate = static_cast<bool>(
        func.getResultAttr(i, AMPDialect::kUpdateOfAttrName));
    if (!isLoss && !isUpdate)
      continue; // a plain output stays the rank's own
    OpOperand *use = &returnOp->getOpOperand(i);
    if (auto skip = value.getDefiningOp<SkipIfInfOp>())
      use = &skip.getNewValueMutable();
    Type element = getElementTypeOrSelf(use->get().getType());
    if (!isa<Float32Type, Float16Type, BFloat16Type>(element))
      return emitError(returnOp->getLoc())
             << "amp-data-parallel: result " << i << " depends on the "
             << "rank's shard of the batch and must be averaged across "
             << "ranks, but its type " << use->get().getType() << " is not "
             << "f32, f16 or bf16 (what the runtime reduces)";
    buckets[element].push_back(use);
  }

  OpBuilder builder(func.getContext());
  for (auto &[element, uses] : buckets) {
    // Before the first consumer, where every value exists (the consumers
    // are the return and the skips just before it).
    Operation *point = returnOp;
    for (OpOperand *use : uses)
      if (use->getOwner()->isBeforeInBlock(point))
        point = use->getOwner();
    SmallVector<OpOperand *> late;
    SmallVector<Value> tensors;
    builder.setInsertionPoint(point);
    Location loc = returnOp->getLoc();
    for (OpOperand *use : uses) {
      Value value = use->get();
      Operation *def = value.getDefiningOp();
      if (def && entry->findAncestorOpInBlock(*def) &&
          !entry->findAncestorOpInBlock(*def)->isBeforeInBlock(point)) {
        late.push_back(use); // computed after the point: a bucket of its own
        continue;
      }
      if (!isa<RankedTensorType>(value.getType()))
        value = tensor::FromElementsOp::create(
            builder, loc, RankedTensorType::get({}, value.getType()), value);
      tensors.push_back(value);
    }
    auto redirect = [&](OpOperand *use, Value reduced) {
      if (!isa<RankedTensorType>(use->get().getType()))
        reduced = tensor::ExtractOp::create(builder, loc, reduced, ValueRange{});
      use->set(reduced);
    };
    if (!tensors.empty()) {
      auto reduce = AllReduceOp::create(builder, loc, tensors, Reduction::Mean);
      unsigned next = 0;
      for (OpOperand *use : uses)
        if (!llvm::is_contained(late, use))
          redirect(use, reduce.getReduced()[next++]);
    }
    for (OpOperand *use : late) {
      builder.setInsertionPoint(use->getOwner());
      Value value = use->get();
      if (!isa<RankedTensorType>(value.getType()))
        value = tensor::FromElementsOp::create(
            builder, loc, RankedTensorType::get({}, value.getType()), value);
      redirect(use, AllReduceOp::create(builder, loc, ValueRange{value},
                                        Reduction::Mean)
                        .getReduced()
                        .front());
    }
  }
  return success();
}

LogicalResult mlir::amp::applyDataParallel(TrainingGraph &graph,
                                           const DataParallelConfig &config) {
  if (graph.grads.empty())
    return emitError(graph.func.getLoc())
           << "amp-data-parallel: no 'amp.grad' in the training step: there "
              "is no gradient to average across ranks";
  if (failed(reduceGradients(graph, config)))
    return failure();
  reduceFoundInf(graph);
  return reduceRankLocalResults(graph);
}

namespace {
struct DataParallelPass
    : public amp::impl::DataParallelPassBase<DataParallelPass> {
  using DataParallelPassBase::DataParallelPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!(bucketMiB > 0) || !std::isfinite(bucketMiB)) {
      emitError(module.getLoc())
          << "amp-data-parallel: bucket-mb must be a positive number of MiB, "
             "got "
          << bucketMiB.getValue();
      return signalPassFailure();
    }
    DataParallelConfig config;
    config.bucketMiB = bucketMiB;
    config.reduceType = reduceType;
    if (failed(forEachTrainingStep(module, "amp-data-parallel",
                                   [&](TrainingGraph &graph) {
                                     return applyDataParallel(graph, config);
                                   })))
      signalPassFailure();
  }
};
} // namespace
