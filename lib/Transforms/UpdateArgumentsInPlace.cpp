//===- UpdateArgumentsInPlace.cpp - state updates in their own buffers ----===//
//
// A step's `amp.update_of` results are the next parameters and optimizer
// state. Returned as new values, each needs a buffer beside the old one for
// the whole session. Tied here to their arguments on tensors, One-Shot
// Bufferize writes them in place where that is safe and copies where the old
// value is still read afterwards: its conflict analysis, not ours, decides.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Transforms/Passes.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::amp {
#define GEN_PASS_DEF_UPDATEARGUMENTSINPLACEPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

std::optional<unsigned> mlir::amp::getUpdatedArgument(FunctionOpInterface func,
                                                      unsigned result) {
  auto index = func.getResultAttrOfType<IntegerAttr>(
      result, AMPDialect::kUpdateOfAttrName);
  if (!index || index.getInt() < 0 ||
      index.getInt() >= static_cast<int64_t>(func.getNumArguments()))
    return std::nullopt;
  return index.getInt();
}

std::optional<unsigned> mlir::amp::getInPlaceUpdateTarget(FunctionOpInterface func,
                                                          unsigned result) {
  std::optional<unsigned> arg = getUpdatedArgument(func, result);
  if (!arg)
    return std::nullopt;
  // The caller's data is not ours to overwrite.
  if (!func.getArgAttr(*arg, AMPDialect::kParamAttrName) &&
      !func.getArgAttr(*arg, AMPDialect::kStateAttrName) &&
      !func.getArgAttr(*arg, AMPDialect::kScalerAttrName) &&
      !func.getArgAttr(*arg, AMPDialect::kWorkingCopyOfAttrName))
    return std::nullopt;
  auto type = dyn_cast<ShapedType>(func.getResultTypes()[result]);
  if (!type || !type.hasStaticShape() ||
      func.getArgumentTypes()[*arg] != type)
    return std::nullopt;
  for (unsigned r = 0; r < result; ++r)
    if (getUpdatedArgument(func, r) == arg)
      return std::nullopt;
  return arg;
}

/// The function's returns (one per block that ends in one).
static SmallVector<Operation *> getReturns(FunctionOpInterface func) {
  SmallVector<Operation *> returns;
  for (Block &block : func.getFunctionBody())
    if (!block.empty() &&
        block.back().hasTrait<OpTrait::ReturnLike>())
      returns.push_back(&block.back());
  return returns;
}

/// Where `next`, the new value of `destination`, is an expansion of what an
/// op writes into a fresh tensor (an update computed with its unit
/// dimensions dropped), makes that op write into the same collapse of
/// `destination`, materializes the update in that view and returns its
/// expansion; null elsewhere. Equivalent buffers, so bufferization computes
/// the update in place where a materialization of the expansion would copy
/// it in.
static Value materializeThroughCollapse(OpBuilder &builder, Location loc,
                                       Value next, Value destination) {
  auto expand = next.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand)
    return nullptr;
  auto producer = dyn_cast_or_null<DestinationStyleOpInterface>(
      expand.getSrc().getDefiningOp());
  // In the entry block, so that the view dominates every return.
  if (!producer ||
      producer->getBlock() != cast<BlockArgument>(destination).getOwner())
    return nullptr;
  OpOperand *init =
      producer.getTiedOpOperand(cast<OpResult>(expand.getSrc()));
  if (!init || !init->get().getDefiningOp<tensor::EmptyOp>() ||
      !init->get().hasOneUse())
    return nullptr;
  // The collapses of `destination` the op reads the old value through: one
  // view for all of them, so that the op reads and writes one tensor
  // elementwise, which bufferizes in place.
  auto isSameCollapse = [&](Value value) {
    auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
    return collapse && collapse.getSrc() == destination &&
           collapse.getType() == expand.getSrcType() &&
           collapse.getReassociationIndices() ==
               expand.getReassociationIndices();
  };
  // Only where nothing could force bufferization to copy the view: every
  // other reader of `destination` is a loop nest before the op that reads
  // it as an input (its results alias none of it), every view is read by
  // the op alone.
  Operation *op = producer.getOperation();
  for (OpOperand &use : destination.getUses()) {
    Operation *user = use.getOwner();
    if (user->getNumResults() == 1 && isSameCollapse(user->getResult(0)) &&
        llvm::all_of(user->getUsers(),
                     [&](Operation *reader) { return reader == op; }))
      continue;
    auto reader = dyn_cast<DestinationStyleOpInterface>(user);
    if (!reader || !reader.isDpsInput(&use) ||
        user->getBlock() != op->getBlock() || !user->isBeforeInBlock(op))
      return nullptr;
  }
  Value view;
  for (OpOperand *input : producer.getDpsInputOperands())
    if (isSameCollapse(input->get())) {
      if (!view)
        view = input->get();
      input->set(view);
    }
  if (!view) {
    OpBuilder builder(producer);
    view = tensor::CollapseShapeOp::create(builder, expand.getLoc(),
                                           expand.getSrcType(), destination,
                                           expand.getReassociationIndices());
  }
  init->set(view);
  auto inPlace = bufferization::MaterializeInDestinationOp::create(
      builder, loc, expand.getSrc(), view);
  return tensor::ExpandShapeOp::create(
      builder, expand.getLoc(), expand.getResultType(), inPlace.getResult(),
      expand.getReassociationIndices(), expand.getMixedOutputShape());
}

void mlir::amp::updateArgumentsInPlace(FunctionOpInterface func) {
  if (func.isExternal())
    return;
  MLIRContext *context = func.getContext();
  for (unsigned r = 0, e = func.getNumResults(); r < e; ++r) {
    std::optional<unsigned> arg = getInPlaceUpdateTarget(func, r);
    if (!arg || !isa<RankedTensorType>(func.getResultTypes()[r]))
      continue;
    Value destination = func.getArgument(*arg);
    for (Operation *ret : getReturns(func)) {
      OpBuilder builder(ret);
      Value next = ret->getOperand(r);
      if (Value expanded = materializeThroughCollapse(builder, ret->getLoc(),
                                                      next, destination)) {
        ret->setOperand(r, expanded);
        continue;
      }
      auto inPlace = bufferization::MaterializeInDestinationOp::create(
          builder, ret->getLoc(), next, destination);
      ret->setOperand(r, inPlace.getResult());
    }
    func.setArgAttr(*arg,
                    bufferization::BufferizationDialect::kWritableAttrName,
                    BoolAttr::get(context, true));
  }
}

namespace {
struct UpdateArgumentsInPlacePass
    : public amp::impl::UpdateArgumentsInPlacePassBase<
          UpdateArgumentsInPlacePass> {
  void runOnOperation() override {
    getOperation().walk(
        [](FunctionOpInterface func) { updateArgumentsInPlace(func); });
  }
};
} // namespace
